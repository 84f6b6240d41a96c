// Mutation testing of the library's own suite with StrykerJS: `npm run test:mutation`.
//
//   npm run test:mutation                         every folder, one Stryker run per folder
//   npm run test:mutation -- src/golden matchers  only these folders (src/replay, src/golden, src/metrics,
//                                                 src/judges, matchers, src/rest = the rest of src/)
//   npm run test:mutation -- --since main         only the files changed since main (committed or not):
//                                                 the CI-friendly mode
//   npm run test:mutation -- --summary            print the table of the last reports, run nothing
//   npm run test:mutation -- --static             also test static mutants (slow: the whole suite each)
//   npm run test:mutation -- --equivalent         list the equivalent mutants: every `Stryker disable` mark
//                                                 in src/ and matchers/ (file:line, mutators, reason); exits 1
//                                                 when a mark has no reason, an unknown mutator or `all`
//   npm run test:mutation -- --equivalent --write also write that list to docs/equivalent-mutants.md
//
// Any other argument goes to `stryker run` unchanged, e.g. `-- src/golden --concurrency 1`.
//
// Each folder (and the --since run) is a scope with its own incremental file and reports under
// reports/mutation/<scope>/ (gitignored): open reports/mutation/<scope>/index.html for the mutants. The
// incremental files stay local rather than committed: they hold every mutant's result and every test's
// location (megabytes), change on every run and would conflict between any two branches. The first run
// of a folder tests all its mutants; later runs re-test only the mutants whose code or covering tests
// changed, which takes minutes. CI needs no history: --since mutates only the changed files.
//
// At the end it prints the mutation score per folder (Stryker's definition: killed and timed-out
// mutants over all valid mutants, so survivors and mutants no test covers count against it) and exits
// 1 when a folder with a target scores below it. Equivalent mutants are marked where they are, with the
// reason (`// Stryker disable next-line <Mutator>: <reason>`), and so count as ignored, outside the score.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { calculateMetrics } from 'mutation-testing-metrics'
import { checkMarks, EQUIVALENT_FILE, findMarks, formatMarks, renderMarkdown } from './equivalent.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const TARGET = 90

/** The folders scored separately, in the order they run. `files` tells which mutated file belongs to it. */
const FOLDERS = [
  { name: 'src/replay', slug: 'src-replay', mutate: ['src/replay/**/*.ts'], target: TARGET },
  { name: 'src/golden', slug: 'src-golden', mutate: ['src/golden/**/*.ts'], target: TARGET },
  { name: 'src/metrics', slug: 'src-metrics', mutate: ['src/metrics/**/*.ts'], target: TARGET },
  { name: 'src/judges', slug: 'src-judges', mutate: ['src/judges/**/*.ts'], target: TARGET },
  { name: 'matchers', slug: 'matchers', mutate: ['matchers/**/*.ts'], target: TARGET },
  {
    name: 'src/rest',
    slug: 'src-rest',
    mutate: ['src/**/*.ts', '!src/replay/**', '!src/golden/**', '!src/metrics/**', '!src/judges/**'],
    target: undefined,
  },
]

function folderOf(file) {
  const named = FOLDERS.find((f) => f.name !== 'src/rest' && (file === f.name || file.startsWith(`${f.name}/`)))
  return named ?? FOLDERS.at(-1)
}

function fail(message) {
  console.error(`[expect-llm] Failed to run mutation testing: ${message}`)
  process.exit(2)
}

// ---- arguments
const args = process.argv.slice(2)
let since
let summaryOnly = false
let withStatic = false
let equivalent = false
let write = false
const chosen = []
const passThrough = []
for (let i = 0; i < args.length; i++) {
  const a = args[i]
  if (a === '--since') {
    since = args[++i]
    if (!since || since.startsWith('--')) fail('--since needs a git ref. Pass for example --since main.')
  } else if (a.startsWith('--since=')) since = a.slice('--since='.length)
  else if (a === '--summary') summaryOnly = true
  else if (a === '--static') withStatic = true
  else if (a === '--equivalent') equivalent = true
  else if (a === '--write') write = true
  else if (!a.startsWith('-') && FOLDERS.some((f) => f.name === a.replace(/\/$/, ''))) chosen.push(FOLDERS.find((f) => f.name === a.replace(/\/$/, '')))
  else if (!a.startsWith('-') && (a.startsWith('src') || a.startsWith('matchers'))) {
    fail(`"${a}" is not a folder of the mutation run. Pass one of ${FOLDERS.map((f) => f.name).join(', ')}, or --since <ref>.`)
  } else passThrough.push(a)
}
if (since && chosen.length > 0) fail('pass either folders or --since, not both.')
if (write && !equivalent) fail('--write writes the list of equivalent mutants: pass it with --equivalent.')

// ---- the list of equivalent mutants (runs nothing)
if (equivalent) {
  if (since || chosen.length > 0 || summaryOnly || withStatic || passThrough.length > 0) {
    fail('--equivalent lists the marks of every folder and runs nothing: pass it alone (or with --write).')
  }
  const marks = findMarks(root)
  console.log(formatMarks(marks))
  if (write) {
    writeFileSync(join(root, EQUIVALENT_FILE), renderMarkdown(marks))
    console.log(`Wrote ${EQUIVALENT_FILE}.`)
  }
  const problems = checkMarks(marks)
  if (problems.length > 0) {
    console.error(`\n${problems.length} mark(s) to fix:\n${problems.map((p) => `  ${p}`).join('\n')}`)
    process.exit(1)
  }
  process.exit(0)
}

// ---- the runs
async function stryker(scope, mutate) {
  const bin = join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js')
  if (!existsSync(bin)) fail('StrykerJS is not installed. Run npm install first.')
  const env = { ...process.env, EXPECT_LLM_MUTATION_SCOPE: scope, EXPECT_LLM_MUTATION_STATIC: withStatic ? '1' : '0' }
  const child = spawn(process.execPath, [bin, 'run', 'test/mutation/stryker.config.mjs', '--mutate', mutate.join(','), ...passThrough], {
    cwd: root,
    env,
    stdio: 'inherit',
  })
  // Stopping this script stops Stryker (which stops its test runners and removes its sandbox).
  const forward = (signal) => child.kill(signal)
  process.on('SIGINT', forward).on('SIGTERM', forward)
  const code = await new Promise((resolve) => child.on('close', (c, signal) => resolve(c ?? signal)))
  process.off('SIGINT', forward).off('SIGTERM', forward)
  if (code !== 0) fail(`stryker run for ${scope} exited with ${code}. See its output above.`)
}

function changedSince(ref) {
  const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  let base
  try {
    base = git('merge-base', ref, 'HEAD').trim()
  } catch {
    fail(`git cannot find a common ancestor of "${ref}" and HEAD. Fetch the ref first (git fetch origin ${ref}:${ref}).`)
  }
  // Committed and uncommitted changes to tracked files, plus new untracked files.
  const files = [...git('diff', '--name-only', '--diff-filter=AMR', base).split('\n'), ...git('ls-files', '--others', '--exclude-standard').split('\n')]
  return [...new Set(files)].filter((f) => /^(src|matchers)\/.+\.ts$/.test(f) && !f.endsWith('.d.ts')).sort()
}

const reportOf = (scope) => join(root, 'reports/mutation', scope, 'mutation.json')
let scopes
if (since) {
  const files = changedSince(since)
  if (files.length === 0) {
    console.log(`No file under src/ or matchers/ changed since ${since}: nothing to mutate.`)
    process.exit(0)
  }
  console.log(`Mutating the ${files.length} file(s) changed since ${since}:\n${files.map((f) => `  ${f}`).join('\n')}`)
  if (!summaryOnly) {
    // A fresh scope each time: the incremental file of an earlier --since run may describe other files.
    rmSync(join(root, 'reports/mutation/since'), { recursive: true, force: true })
    await stryker('since', files)
  }
  scopes = ['since']
} else {
  const folders = chosen.length > 0 ? chosen : FOLDERS
  if (!summaryOnly) for (const f of folders) await stryker(f.slug, f.mutate)
  scopes = (chosen.length > 0 ? chosen : FOLDERS).map((f) => f.slug)
}

// ---- the scores per folder
const byFolder = new Map()
for (const scope of scopes) {
  const file = reportOf(scope)
  if (!existsSync(file)) continue
  const report = JSON.parse(readFileSync(file, 'utf8'))
  for (const [name, result] of Object.entries(report.files)) {
    const folder = folderOf(name)
    // A folder's own scope is authoritative for its files (an older report of another scope is not).
    if (!since && scope !== folder.slug) continue
    if (!byFolder.has(folder.name)) byFolder.set(folder.name, {})
    byFolder.get(folder.name)[name] = result
  }
}
if (byFolder.size === 0) fail('there is no report to summarise yet. Run npm run test:mutation first.')

const rows = []
let belowTarget = false
for (const folder of FOLDERS) {
  const files = byFolder.get(folder.name)
  if (!files) continue
  const m = calculateMetrics(files).metrics
  const score = Number.isNaN(m.mutationScore) ? null : m.mutationScore
  const below = folder.target !== undefined && score !== null && score < folder.target
  belowTarget ||= below
  rows.push([
    folder.name,
    score === null ? 'n/a' : `${score.toFixed(2)}%`,
    folder.target === undefined ? '-' : `${folder.target}%${below ? ' (below)' : ''}`,
    m.killed,
    m.timeout,
    m.survived,
    m.noCoverage,
    m.ignored,
    m.compileErrors + m.runtimeErrors,
    m.totalMutants,
  ])
}
const head = ['folder', 'score', 'target', 'killed', 'timeout', 'survived', 'no cov', 'ignored', 'errors', 'mutants']
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)))
const line = (r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')
console.log(`\nMutation score per folder${since ? ` (files changed since ${since})` : ''}:\n${line(head)}\n${rows.map(line).join('\n')}`)
console.log(
  `Reports: ${scopes
    .filter((s) => existsSync(reportOf(s)))
    .map((s) => `reports/mutation/${s}/index.html`)
    .join(', ')}`,
)
if (belowTarget) {
  console.log(
    `\nA folder scores below its target: open its report, and kill each survivor with a test, or mark an equivalent one where it is: // Stryker disable next-line <Mutator>: <reason>.`,
  )
  process.exit(1)
}
