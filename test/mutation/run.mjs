// Mutation testing of the library's own suite with StrykerJS: `npm run test:mutation`.
//
//   npm run test:mutation                         every folder, one Stryker run per folder
//   npm run test:mutation -- src/golden matchers  only these folders (src/replay, src/golden, src/metrics,
//                                                 src/judges, matchers, src/rest = the rest of src/)
//   npm run test:mutation -- --since main         only the files changed since main (committed or not):
//                                                 the CI-friendly mode
//   npm run test:mutation -- src/metrics --files src/metrics/lcs.ts[,<glob>...]
//                                                 a part of a folder: only those files, in a scope of its own
//                                                 (reports/mutation/<folder>/parts/<name>/; --part <name> names it)
//   npm run test:mutation -- src/metrics --missing [--limit 3]
//                                                 a part of the folder's files that have no current result
//                                                 (never measured, or changed since): repeat it to finish a folder
//   npm run test:mutation -- --help               print this usage, run nothing
//   npm run test:mutation -- --summary            print the table of the last reports and records, run nothing
//   npm run test:mutation -- --record             write the committed records (test/mutation/results/) from
//                                                 the local reports: for reports made before run.mjs wrote them
//   npm run test:mutation -- --static             also test static mutants (slow: the whole suite each)
//   npm run test:mutation -- --equivalent         list the equivalent mutants: every `Stryker disable` mark
//                                                 in src/ and matchers/ (file:line, mutators, reason); exits 1
//                                                 when a mark has no reason, an unknown mutator or `all`
//   npm run test:mutation -- --equivalent --write also write that list to docs/equivalent-mutants.md
//
// Any other argument goes to `stryker run` unchanged, e.g. `-- src/golden --concurrency 1`.
//
// Each folder, each part of a folder and the --since run is a scope with its own incremental file and reports
// under reports/mutation/<scope>/ (gitignored): open reports/mutation/<scope>/index.html for the mutants. The
// incremental files stay local rather than committed: they hold every mutant's result and every test's
// location (megabytes), change on every run and would conflict between any two branches. The first run
// of a folder tests all its mutants; later runs re-test only the mutants whose code or covering tests
// changed, which takes minutes. CI needs no history: --since mutates only the changed files.
// What is committed instead is a small record per measured file (test/mutation/results/<file>.json, written
// after every run: the source's hash, the counts per status and the undetected mutants), so a folder measured
// over several sittings or machines still adds up, and a fresh clone's --summary shows the scores.
//
// At the end it prints the mutation score per folder (Stryker's definition: killed and timed-out
// mutants over all valid mutants, so survivors and mutants no test covers count against it), assembled per
// file from the folder's report and its parts (parts.mjs: a folder with a file never measured or changed since
// its result is partial and has no score; one measured with narrowed tests has a lower bound), and exits
// 1 when a complete folder with a target scores below it. Equivalent mutants are marked where they are, with the
// reason (`// Stryker disable next-line <Mutator>: <reason>`), and so count as ignored, outside the score.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkMarks, EQUIVALENT_FILE, findMarks, formatMarks, renderMarkdown } from './equivalent.mjs'
import {
  assessFolder,
  assessReport,
  createMutantCounter,
  FOLDERS,
  folderFiles,
  folderOf,
  formatSummary,
  isBelowTarget,
  nextPart,
  parseArgs,
  partName,
  partScope,
  REPORTS,
  RECORDS,
  readAllResults,
  readResults,
  resolveFiles,
  syncRecords,
  summariseFolder,
  writeRecords,
  writeRun,
} from './parts.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))

function fail(message) {
  console.error(`[expect-llm] Failed to run mutation testing: ${message}`)
  process.exit(2)
}

// ---- arguments
let options
try {
  options = parseArgs(process.argv.slice(2))
} catch (error) {
  fail(error.message)
}
// ---- the usage: this file's opening comment (runs nothing)
if (options.help) {
  const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n')
  const usage = lines.slice(
    0,
    lines.findIndex((line) => !line.startsWith('//')),
  )
  console.log(usage.map((line) => line.replace(/^\/\/ ?/, '')).join('\n'))
  process.exit(0)
}
const { since, summaryOnly, withStatic, equivalent, write, record, filesArg, missing, limit, part, chosen, passThrough } = options
const partRun = filesArg !== undefined || missing

// ---- the list of equivalent mutants (runs nothing)
if (equivalent) {
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

// ---- the committed records from the local reports (runs nothing)
/** The commit the working tree is at, with "+changes" when src/, matchers/ or test/ differ from it. */
function headCommit() {
  const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
  try {
    const sha = git('rev-parse', 'HEAD')
    return git('status', '--porcelain', '--', 'src', 'matchers', 'test') === '' ? sha : `${sha}+changes`
  } catch {
    return null
  }
}

if (record) {
  let synced
  try {
    synced = syncRecords(root, { commit: headCommit() })
  } catch (error) {
    fail(error.message)
  }
  for (const path of synced.written) console.log(`wrote   ${path}`)
  for (const path of synced.deleted) console.log(`deleted ${path} (its file no longer exists)`)
  console.log(
    synced.written.length + synced.deleted.length === 0
      ? `The records in ${RECORDS}/ are up to date with the local reports.`
      : `${synced.written.length} record(s) written, ${synced.deleted.length} deleted: commit ${RECORDS}/.`,
  )
  process.exit(0)
}

// ---- the runs
// The tests the runs are narrowed to (test/mutation/vitest.config.ts reads the same variable), recorded with
// each report: a score from fewer tests is a lower bound.
const tests = process.env.EXPECT_LLM_MUTATION_TESTS

async function stryker(scope, mutate) {
  const bin = join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js')
  if (!existsSync(bin)) fail('StrykerJS is not installed. Run npm install first.')
  const env = { ...process.env, EXPECT_LLM_MUTATION_SCOPE: scope, EXPECT_LLM_MUTATION_STATIC: withStatic ? '1' : '0' }
  // Each run keeps its sandbox in a folder of its own under .stryker-tmp/, removed below however Stryker
  // ends: stopped by a signal, Stryker 10 saves the mutants tested so far to the incremental file (a re-run
  // of the same scope resumes from them) but leaves the sandbox (hundreds of megabytes) behind.
  const ownTemp = passThrough.some((a) => a === '--tempDirName' || a.startsWith('--tempDirName='))
  const tempDir = join('.stryker-tmp', `run-${process.pid}`)
  const tempArgs = ownTemp ? [] : ['--tempDirName', tempDir]
  // Stryker runs in a process group of its own, so a Ctrl-C in the terminal reaches it once, through this
  // script, rather than three times (from the terminal, from npm, from here): Stryker takes a second SIGINT
  // as "stop now, without saving".
  const args = [bin, 'run', 'test/mutation/stryker.config.mjs', '--mutate', mutate.join(','), ...tempArgs, ...passThrough]
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit', detached: true })
  // Stopping this script stops Stryker. The same signal arriving twice within a second (the terminal's and
  // npm's copy of one Ctrl-C) is forwarded once; a second Ctrl-C later is forwarded, and Stryker then stops at once.
  const lastForwarded = new Map()
  const forward = (signal) => {
    const now = Date.now()
    if (now - (lastForwarded.get(signal) ?? Number.NEGATIVE_INFINITY) < 1000) return
    lastForwarded.set(signal, now)
    child.kill(signal)
  }
  process.on('SIGINT', forward).on('SIGTERM', forward)
  const code = await new Promise((resolve) => child.on('close', (c, signal) => resolve(c ?? signal)))
  process.off('SIGINT', forward).off('SIGTERM', forward)
  // A stopped Stryker can leave a test worker behind that is stuck in a mutant's endless loop (one spun a core
  // for an hour and a half here): every process still in Stryker's group goes with it.
  try {
    process.kill(-child.pid, 'SIGKILL')
  } catch {
    // The group is empty: nothing was left behind.
  }
  if (!ownTemp) removeTemp(tempDir)
  if (code !== 0) fail(`stryker run for ${scope} exited with ${code}. See its output above.`)
}

/** Removes a run's sandbox folder, and .stryker-tmp/ when no other run's folder is left in it. */
function removeTemp(dir) {
  rmSync(join(root, dir), { recursive: true, force: true })
  try {
    rmdirSync(join(root, '.stryker-tmp'))
  } catch {
    // Another run's sandbox is still there (or the folder is gone already).
  }
}

/** The --mutate a run really used: a later --mutate among the pass-through flags overrides run.mjs's (Stryker takes the last). */
function effectiveMutate(mutate) {
  let last = mutate
  for (let i = 0; i < passThrough.length; i++) {
    const a = passThrough[i]
    if ((a === '--mutate' || a === '-m') && passThrough[i + 1] !== undefined) last = passThrough[i + 1].split(',')
    else if (a.startsWith('--mutate=')) last = a.slice('--mutate='.length).split(',')
  }
  return last
}

/** Runs one scope and records how (run.json next to its report). */
async function runScope(scope, folderName, partLabel, mutate) {
  const commit = headCommit()
  await stryker(scope, mutate)
  writeRun(root, scope, { folder: folderName, part: partLabel, mutate: effectiveMutate(mutate), tests, withStatic })
  const written = writeRecords(root, scope, { commit })
  if (written.length > 0) console.log(`Recorded the results of ${written.length} file(s) in ${RECORDS}/: commit them, so the scores outlive this machine.`)
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

let countMutants
const counter = async (path, source) => {
  countMutants ??= await createMutantCounter()
  return countMutants(path, source)
}

if (since) {
  const files = changedSince(since)
  if (files.length === 0) {
    console.log(`No file under src/ or matchers/ changed since ${since}: nothing to mutate.`)
    process.exit(0)
  }
  console.log(`Mutating the ${files.length} file(s) changed since ${since}:\n${files.map((f) => `  ${f}`).join('\n')}`)
  if (!summaryOnly) {
    // A fresh scope each time: the incremental file of an earlier --since run may describe other files.
    rmSync(join(root, REPORTS, 'since'), { recursive: true, force: true })
    await runScope('since', null, null, files)
  }
  // The scores of the changed files, per folder (the --since scope is not a folder's score: nothing is partial).
  let recorded
  try {
    recorded = readResults(root, { slug: 'since' })[0]
  } catch (error) {
    fail(error.message)
  }
  if (!recorded) fail('there is no report to summarise yet. Run npm run test:mutation first.')
  const byFolder = new Map()
  for (const [name, result] of Object.entries(recorded.files)) {
    const folder = folderOf(name)
    if (!byFolder.has(folder)) byFolder.set(folder, {})
    byFolder.get(folder)[name] = result
  }
  const assessments = FOLDERS.filter((f) => byFolder.has(f)).map((f) => assessReport(f, byFolder.get(f), recorded?.tests))
  finish(assessments, { title: `Mutation score per folder (files changed since ${since})`, reports: ['since'] })
} else {
  const folders = chosen.length > 0 ? chosen : FOLDERS
  if (partRun) {
    const folder = chosen[0]
    let files
    let name
    if (filesArg !== undefined) {
      const globs = filesArg.split(',').filter((g) => g.length > 0)
      if (globs.length === 0) fail('--files needs at least one path or glob. Pass for example --files src/metrics/lcs.ts.')
      try {
        files = resolveFiles(root, folder, globs)
      } catch (error) {
        fail(error.message)
      }
      // A file without mutants makes Stryker test nothing (and a run of only such files would still run the suite once).
      const withMutants = []
      for (const file of files) if ((await counter(file, readFileSync(join(root, file), 'utf8'))) > 0) withMutants.push(file)
      const skipped = files.filter((f) => !withMutants.includes(f))
      if (skipped.length > 0) console.log(`No mutants in ${skipped.join(', ')}: nothing to test there.`)
      files = withMutants
      name = part ?? partName(folder, globs)
    } else {
      const assessment = await assessFolder({ folder, sources: sourcesOf(folder), results: readAllResults(root, folder), countMutants: counter })
      const next = nextPart(assessment, limit)
      files = next.files.map((f) => f.path)
      if (files.length > 0) {
        const mutants = next.files.reduce((n, f) => n + f.mutants, 0)
        console.log(
          `${files.length + next.left.length} file(s) of ${folder.name} have no current result; mutating ${files.length} of them (${mutants} mutants)${
            next.left.length > 0 ? `, ${next.left.length} left for the next run` : ''
          }:\n${files.map((f) => `  ${f}`).join('\n')}`,
        )
      } else console.log(`Every file of ${folder.name} with mutants has a current result: nothing to run.`)
      name = part ?? partName(folder, files)
    }
    if (files.length > 0) await runScope(partScope(folder, name), folder.name, name, files)
  } else if (!summaryOnly) {
    if (effectiveMutate([]).length > 0) {
      console.log('--mutate replaces the whole-folder report with the results of those files only; --files <files> keeps them in a part instead.')
    }
    for (const f of folders) await runScope(f.slug, f.name, null, f.mutate)
  }
  // ---- the scores per folder: each file's newest current result across the folder's report and its parts
  const assessments = []
  const notMeasured = []
  for (const folder of folders) {
    let assessment
    try {
      assessment = await summariseFolder(root, folder, counter)
    } catch (error) {
      fail(error.message)
    }
    if (assessment) assessments.push(assessment)
    else notMeasured.push(folder.name)
  }
  if (assessments.length === 0) fail('there is no report to summarise yet. Run npm run test:mutation first.')
  finish(assessments, { notMeasured })
}

function sourcesOf(folder) {
  return new Map(folderFiles(root, folder).map((file) => [file, readFileSync(join(root, file), 'utf8')]))
}

function finish(assessments, { title, notMeasured = [], reports }) {
  console.log(`\n${formatSummary(assessments, { title, notMeasured })}`)
  const scopes = reports ?? assessments.flatMap((a) => readResults(root, a.folder).map((r) => r.scope))
  if (scopes.length > 0) console.log(`Reports: ${scopes.map((s) => `${REPORTS}/${s}/index.html`).join(', ')}`)
  if (assessments.some(isBelowTarget)) {
    console.log(
      `\nA folder scores below its target: open its report, and kill each survivor with a test, or mark an equivalent one where it is: // Stryker disable next-line <Mutator>: <reason>.`,
    )
    process.exit(1)
  }
}
