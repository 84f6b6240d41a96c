// A folder's mutation score, measured in parts and accumulated (used by run.mjs; tested by parts.test.ts).
//
// A folder's first full Stryker run takes hours on two cores, and Stryker keeps nothing of a run that is
// stopped; its incremental file and report hold only the files of the last run's `--mutate`. So a folder can
// be measured in parts: each part (`--files`, `--missing`) is a scope of its own under
// reports/mutation/<folder>/parts/<name>/ with its own incremental file and reports, and no run discards
// another's results. The folder's score is assembled per file: for every file of the folder, its newest
// result across the whole-folder report and the parts whose recorded source is the file as it is today.
//
// - A file of the folder: a .ts file (not .d.ts) under it that has at least one mutant. A file without
//   mutable code (types only, re-exports) never appears in a Stryker report, so it is recognised by running
//   Stryker's own instrumenter on it (milliseconds, no test run) and listed as having no mutants.
// - A result whose recorded source differs from the file today is stale: it is not counted.
// - A folder with a file missing or stale is partial: the summary lists those files and never shows the
//   measured files' score as the folder's score.
// - run.json, next to each report, records what run.mjs knows and Stryker's report does not: the tests the
//   run was narrowed to (EXPECT_LLM_MUTATION_TESTS) and when it finished, with the hash of the report it
//   describes. A folder's score is a lower bound of the full suite's when any counted result comes from a
//   narrowed run, or from a report without a matching run.json (its tests are not known): fewer tests can only
//   kill fewer mutants.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, matchesGlob, relative, sep } from 'node:path'
import { calculateMetrics } from 'mutation-testing-metrics'

/** The mutation score every named folder must reach (Stryker's definition), in percent. */
export const TARGET = 90

/** Where the scopes keep their incremental files and reports, relative to the repository root. */
export const REPORTS = 'reports/mutation'

/** The file next to a scope's mutation.json that records how run.mjs ran it. */
export const RUN_FILE = 'run.json'

/** The folders scored separately, in the order they run. */
export const FOLDERS = [
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

/**
 * The arguments of run.mjs. Throws an Error whose message completes "Failed to run mutation testing: ".
 * Arguments it does not know go to `stryker run` (passThrough); the value of Stryker's --mutate (-m) goes
 * with it, so `src/judges --mutate src/judges/ai-sdk.ts` is a folder and Stryker's option, not two folders.
 */
export function parseArgs(args) {
  const o = { help: false, since: undefined, summaryOnly: false, withStatic: false, equivalent: false, write: false, record: false }
  Object.assign(o, { filesArg: undefined, missing: false, limit: undefined, part: undefined, chosen: [], passThrough: [] })
  const fail = (message) => {
    throw new Error(message)
  }
  const valueAt = (flag, i, example) => {
    const value = args[i]
    if (value === undefined || value.startsWith('--')) fail(`${flag} needs a value. Pass for example ${flag} ${example}.`)
    return value
  }
  const folderNamed = (a) => FOLDERS.find((f) => f.name === a.replace(/\/$/, ''))
  // Help wins over everything else: `--help` after a folder must print the usage, not start an hours-long run.
  if (args.includes('--help') || args.includes('-h')) return { ...o, help: true }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === '--since') {
      o.since = args[++i]
      if (!o.since || o.since.startsWith('--')) fail('--since needs a git ref. Pass for example --since main.')
    } else if (a.startsWith('--since=')) o.since = a.slice('--since='.length)
    else if (a === '--summary') o.summaryOnly = true
    else if (a === '--static') o.withStatic = true
    else if (a === '--equivalent') o.equivalent = true
    else if (a === '--write') o.write = true
    else if (a === '--record') o.record = true
    else if (a === '--files') o.filesArg = valueAt('--files', ++i, 'src/metrics/lcs.ts')
    else if (a.startsWith('--files=')) o.filesArg = a.slice('--files='.length)
    else if (a === '--missing') o.missing = true
    else if (a === '--limit' || a.startsWith('--limit=')) {
      const value = a === '--limit' ? valueAt('--limit', ++i, '3') : a.slice('--limit='.length)
      o.limit = Number(value)
      if (!Number.isInteger(o.limit) || o.limit < 1)
        fail(`--limit is the number of files per run, a whole number from 1, got "${value}". Pass for example --limit 3.`)
    } else if (a === '--part') o.part = checkPartName(valueAt('--part', ++i, 'lcs'))
    else if (a.startsWith('--part=')) o.part = checkPartName(a.slice('--part='.length))
    else if ((a === '--mutate' || a === '-m') && args[i + 1] !== undefined && !args[i + 1].startsWith('-')) o.passThrough.push(a, args[++i])
    else if (!a.startsWith('-') && folderNamed(a)) o.chosen.push(folderNamed(a))
    else if (!a.startsWith('-') && (a.startsWith('src') || a.startsWith('matchers'))) {
      fail(`"${a}" is not a folder of the mutation run. Pass one of ${FOLDERS.map((f) => f.name).join(', ')}, or --since <ref>.`)
    } else o.passThrough.push(a)
  }
  if (o.since && o.chosen.length > 0) fail('pass either folders or --since, not both.')
  if (o.write && !o.equivalent) fail('--write writes the list of equivalent mutants: pass it with --equivalent.')
  const partRun = o.filesArg !== undefined || o.missing
  if (o.record && (o.equivalent || o.since || o.chosen.length > 0 || o.summaryOnly || o.withStatic || partRun || o.passThrough.length > 0)) {
    fail('--record writes the committed records from the local reports and runs nothing: pass it alone.')
  }
  if (o.equivalent && (o.since || o.chosen.length > 0 || o.summaryOnly || o.withStatic || partRun || o.passThrough.length > 0)) {
    fail('--equivalent lists the marks of every folder and runs nothing: pass it alone (or with --write).')
  }
  if (partRun) {
    const flag = o.filesArg !== undefined ? '--files' : '--missing'
    if (o.filesArg !== undefined && o.missing) fail('pass either --files or --missing, not both.')
    if (o.chosen.length !== 1 || o.since) {
      fail(`${flag} runs a part of one folder: pass exactly one folder, for example src/metrics ${flag}${o.missing ? '' : ' src/metrics/lcs.ts'}.`)
    }
    if (o.summaryOnly) fail(`${flag} runs a part; --summary runs nothing: pass one of them.`)
    if (o.passThrough.some((a) => a === '--mutate' || a === '-m' || a.startsWith('--mutate=')))
      fail(`${flag} chooses the files to mutate: pass it without --mutate.`)
  }
  if (o.limit !== undefined && !o.missing) fail('--limit is the number of files of a --missing run: pass it with --missing.')
  if (o.part !== undefined && !partRun) fail('--part names a part: pass it with --files or --missing.')
  return o
}

/** The folder a source file (relative to the root, `/` separators) belongs to: src/rest for the rest of src/. */
export function folderOf(file) {
  const named = FOLDERS.find((f) => f.name !== 'src/rest' && (file === f.name || file.startsWith(`${f.name}/`)))
  return named ?? FOLDERS.at(-1)
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex')
const toPosix = (path) => path.split(sep).join('/')

/** Every .ts source file (no .d.ts) under src/ and matchers/, relative to the root, sorted. */
export function sourceFiles(root) {
  const out = []
  const walk = (dir) => {
    if (!existsSync(join(root, dir))) return
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path)
    }
  }
  walk('src')
  walk('matchers')
  return out.sort()
}

/** The .ts source files of a folder (files without mutants included: see assessFolder), sorted. */
export function folderFiles(root, folder) {
  return sourceFiles(root).filter((file) => folderOf(file).name === folder.name)
}

/**
 * The files of `folder` that the `--files` globs name. A glob is relative to the repository root, or to the
 * folder when it does not start with src/ or matchers/ (`lcs.ts` in src/metrics). Throws when a glob names no
 * file or a file of another folder.
 */
export function resolveFiles(root, folder, globs) {
  const all = sourceFiles(root)
  const chosen = new Set()
  for (const glob of globs) {
    const pattern = /^(src|matchers)(\/|$)/.test(glob) ? glob.replace(/\/$/, '') : `${folder.name === 'src/rest' ? 'src' : folder.name}/${glob}`
    // A folder name matches its files, as it does for Stryker's --mutate.
    const matched = all.filter((file) => matchesGlob(file, pattern) || file.startsWith(`${pattern}/`))
    if (matched.length === 0) throw new Error(`--files ${glob} names no .ts file under src/ or matchers/. Pass a path or glob such as ${folder.name}/x.ts.`)
    const outside = matched.filter((file) => folderOf(file).name !== folder.name)
    if (outside.length > 0) {
      throw new Error(
        `--files ${glob} names ${outside[0]}, which belongs to ${folderOf(outside[0]).name}, not ${folder.name}. Run it as a part of its own folder.`,
      )
    }
    for (const file of matched) chosen.add(file)
  }
  return [...chosen].sort()
}

/**
 * The name of a part: readable from what it mutates (the globs of --files, or the files --missing chose),
 * stable for the same list so that a re-run reuses the part's incremental file.
 */
export function partName(folder, items) {
  const prefix = `${folder.name === 'src/rest' ? 'src' : folder.name}/`
  const readable = items
    .map((item) => (item.startsWith(prefix) ? item.slice(prefix.length) : item))
    .map((item) =>
      item
        .replace(/\.ts$/, '')
        .replace(/\*\*/g, 'all')
        .replace(/\*/g, 'x')
        .replace(/[^A-Za-z0-9._-]+/g, '-'),
    )
    .join('+')
    .replace(/^[.-]+/, '')
  if (readable.length > 0 && readable.length <= 60) return readable
  const hash = sha256(items.join('\n')).slice(0, 8)
  return `${readable.slice(0, 40).replace(/[+.-]+$/, '')}-and-more-${hash}`.replace(/^-/, '')
}

/** A --part name: letters, digits, `.`, `_`, `+` and `-`, starting with a letter or a digit. */
export function checkPartName(name) {
  if (!/^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(name) || name.length > 80) {
    throw new Error(`--part "${name}" is not a usable name. Use letters, digits, ".", "_", "+" and "-" (at most 80), for example --part lcs.`)
  }
  return name
}

/** The scope (folder under reports/mutation/) of a folder's part. */
export const partScope = (folder, name) => `${folder.slug}/parts/${name}`

/**
 * Records how run.mjs ran a scope, next to the report Stryker just wrote (after a successful run only, so
 * it always describes that report: the report's hash is in it). Written atomically.
 */
export function writeRun(root, scope, { folder, part, mutate, tests, withStatic, finishedAt = new Date() }) {
  const dir = join(root, REPORTS, scope)
  const report = readFileSync(join(dir, 'mutation.json'), 'utf8')
  const run = {
    folder,
    part: part ?? null,
    mutate,
    // The test globs of EXPECT_LLM_MUTATION_TESTS, or null for the whole suite of the mutation run.
    tests: tests && tests.trim() !== '' ? tests : null,
    static: withStatic,
    finishedAt: finishedAt.toISOString(),
    report: sha256(report),
  }
  const tmp = join(dir, `${RUN_FILE}.${process.pid}.tmp`)
  writeFileSync(tmp, `${JSON.stringify(run, null, 2)}\n`)
  renameSync(tmp, join(dir, RUN_FILE))
  return run
}

/**
 * The results of one folder on disk: its whole-folder report and every part's, each with when it finished and
 * the tests it ran (`null` for the whole suite, a string of globs when narrowed, `undefined` when not recorded).
 */
export function readResults(root, folder) {
  const scopes = [folder.slug]
  const partsDir = join(root, REPORTS, folder.slug, 'parts')
  if (existsSync(partsDir)) {
    for (const entry of readdirSync(partsDir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) scopes.push(partScope(folder, entry.name))
    }
  }
  return scopes.flatMap((scope) => readScope(root, scope, scope === folder.slug ? null : scope.slice(`${folder.slug}/parts/`.length)))
}

/** One scope's report as a result (with `run`, its run.json when that describes the report); [] when it has none. */
function readScope(root, scope, part) {
  const file = join(root, REPORTS, scope, 'mutation.json')
  if (!existsSync(file)) return []
  const text = readFileSync(file, 'utf8')
  let report
  try {
    report = JSON.parse(text)
  } catch (error) {
    throw new Error(`${toPosix(relative(root, file))} is not a readable report (${error.message}). Delete it and run that scope again.`)
  }
  let run
  const runFile = join(root, REPORTS, scope, RUN_FILE)
  if (existsSync(runFile)) {
    try {
      const recorded = JSON.parse(readFileSync(runFile, 'utf8'))
      if (recorded.report === sha256(text)) run = recorded
    } catch {
      // An unreadable run.json describes nothing: the report counts with its tests not recorded.
    }
  }
  return [
    {
      scope,
      part,
      time: run ? Date.parse(run.finishedAt) : statSync(file).mtimeMs,
      tests: run ? run.tests : undefined,
      files: report.files ?? {},
      run,
    },
  ]
}

// ---- committed records: the results that outlive the machine
//
// Reports and incremental files stay local (gitignored), so a result measured on one machine was lost with
// it, and a folder whose full run takes longer than one sitting could never be finished. So after each run,
// run.mjs writes one small record per file it measured to test/mutation/results/<file>.json, which is
// committed: the hash of the source it measured, when and with which tests, the count of each status, and
// every mutant no test detected (where, which mutator, what replacement). A record counts like a report's
// result of that file: while the file's source hashes the same, and unless a newer current result exists.

/** Where the committed records live, relative to the repository root: one `<file>.json` per source file. */
export const RECORDS = 'test/mutation/results'

/** The statuses of a record's list of mutants no test detected. */
const UNDETECTED = ['Survived', 'NoCoverage']

/** Whether a result (a report's file, or a record's) is of this source text. */
const sameSource = (result, source) => (result.source !== undefined ? result.source === source : result.sourceSha256 === sha256(source))

/** The record of one file's result in a report. `run` is the scope's run.json, or undefined when it has none. */
export function recordOf(path, fileResult, { scope, run, commit, finishedAt }) {
  const counts = {}
  for (const m of fileResult.mutants) counts[m.status] = (counts[m.status] ?? 0) + 1
  const sortedCounts = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)))
  const undetected = fileResult.mutants
    .filter((m) => UNDETECTED.includes(m.status))
    .map((m) => ({
      line: m.location.start.line,
      column: m.location.start.column,
      // The end of the span the mutant replaces: to apply it by hand, replace exactly that text.
      endLine: m.location.end.line,
      endColumn: m.location.end.column,
      mutator: m.mutatorName,
      replacement: m.replacement ?? null,
      status: m.status,
    }))
    .sort((a, b) => a.line - b.line || a.column - b.column || a.mutator.localeCompare(b.mutator))
  const record = { file: path, sourceSha256: sha256(fileResult.source), scope, commit: commit ?? null }
  record.finishedAt = (run ? new Date(run.finishedAt) : finishedAt).toISOString()
  // null: the whole suite; a string: the globs it was narrowed to. Left out when not recorded (no run.json).
  if (run) record.tests = run.tests
  record.static = run ? run.static : null
  record.counts = sortedCounts
  record.undetected = undetected
  return record
}

/** The path of a file's record, relative to the root. */
export const recordPath = (file) => `${RECORDS}/${file}.json`

/** Writes a record atomically (a temporary file renamed over it). */
function writeRecord(root, record) {
  const file = join(root, recordPath(record.file))
  mkdirSync(dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`)
  renameSync(tmp, file)
}

/** Reads the record of a file; undefined when there is none. Throws with the fix when it is unreadable. */
export function readRecord(root, file) {
  const path = join(root, recordPath(file))
  if (!existsSync(path)) return undefined
  let record
  try {
    record = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`${recordPath(file)} is not a readable record (${error.message}). Delete it and run that file's part again.`)
  }
  if (record?.file !== file || typeof record.sourceSha256 !== 'string' || typeof record.counts !== 'object' || record.counts === null) {
    throw new Error(`${recordPath(file)} is not a record of ${file}. Delete it and run that file's part again.`)
  }
  return record
}

/**
 * Writes the record of every file in a scope's report (after run.mjs ran it): each replaces the file's older
 * record. Returns the paths written.
 */
export function writeRecords(root, scope, { commit } = {}) {
  const [result] = readScope(root, scope, null)
  if (!result) return []
  const run = result.run
  const written = []
  for (const [path, fileResult] of Object.entries(result.files).sort(([a], [b]) => a.localeCompare(b))) {
    writeRecord(root, recordOf(path, fileResult, { scope, run, commit, finishedAt: new Date(result.time) }))
    written.push(recordPath(path))
  }
  return written
}

/**
 * Brings the records up to date with the local reports (`--record`): for each file of each folder, its newest
 * current local result is written when it is newer than the file's record or the record is not current.
 * Records of files that no longer exist are deleted. Returns what it wrote and deleted.
 */
export function syncRecords(root, { commit } = {}) {
  const written = []
  const deleted = []
  for (const folder of FOLDERS) {
    const results = readResults(root, folder).sort((a, b) => b.time - a.time || a.scope.localeCompare(b.scope))
    for (const path of folderFiles(root, folder)) {
      const source = readFileSync(join(root, path), 'utf8')
      const local = results.find((r) => r.files[path] && r.files[path].source === source)
      if (!local) continue
      const record = readRecord(root, path)
      const recordCurrent = record !== undefined && record.sourceSha256 === sha256(source)
      if (recordCurrent && Date.parse(record.finishedAt) >= local.time) continue
      writeRecord(root, recordOf(path, local.files[path], { scope: local.scope, run: local.run, commit, finishedAt: new Date(local.time) }))
      written.push(recordPath(path))
    }
  }
  const existing = new Set(sourceFiles(root))
  const walk = (dir) => {
    if (!existsSync(join(root, dir))) return
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.ts.json') && !existing.has(path.slice(RECORDS.length + 1, -'.json'.length))) {
        rmSync(join(root, path))
        deleted.push(path)
      }
    }
  }
  walk(RECORDS)
  return { written, deleted }
}

/** The committed records of a folder's files, as results (scope `record`), newest-wins with the reports. */
export function readRecords(root, folder) {
  const results = []
  for (const path of folderFiles(root, folder)) {
    const record = readRecord(root, path)
    if (!record) continue
    const mutants = []
    for (const [status, n] of Object.entries(record.counts)) {
      for (let i = 0; i < n; i++)
        mutants.push({ id: `${status}-${i}`, mutatorName: 'recorded', status, location: { start: { line: 0, column: 0 }, end: { line: 0, column: 0 } } })
    }
    results.push({
      scope: recordPath(path),
      part: null,
      record: true,
      time: Date.parse(record.finishedAt),
      tests: 'tests' in record ? record.tests : undefined,
      files: { [path]: { language: 'typescript', sourceSha256: record.sourceSha256, mutants } },
    })
  }
  return results
}

/** A folder's local reports and its committed records. */
export const readAllResults = (root, folder) => [...readResults(root, folder), ...readRecords(root, folder)]

/**
 * Counts the mutants Stryker would make in a file, with Stryker's own instrumenter (the one
 * @stryker-mutator/core runs, same version), without running any test: how a file without mutable code is
 * told apart from one never measured.
 */
export async function createMutantCounter() {
  const { Instrumenter } = await import('@stryker-mutator/instrumenter')
  const quiet = () => {}
  const no = () => false
  const logger = { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet, fatal: quiet }
  Object.assign(logger, { isTraceEnabled: no, isDebugEnabled: no, isInfoEnabled: no, isWarnEnabled: no, isErrorEnabled: no, isFatalEnabled: no })
  const instrumenter = new Instrumenter(logger)
  // test/mutation/stryker.config.mjs sets no mutator plugins, excluded mutators or ignorers.
  const options = { plugins: null, excludedMutations: [], ignorers: [] }
  return async (name, content) => (await instrumenter.instrument([{ name, content, mutate: true }], options)).mutants.length
}

/**
 * Where a folder stands: for each of its files (path → today's source), the newest result whose recorded
 * source is today's. `countMutants(path, source)` is asked only about files without such a result.
 */
export async function assessFolder({ folder, sources, results, countMutants }) {
  const newestFirst = [...results].sort((a, b) => b.time - a.time || a.scope.localeCompare(b.scope))
  const files = []
  const counted = {}
  const countedFrom = new Map()
  for (const [path, source] of [...sources].sort(([a], [b]) => a.localeCompare(b))) {
    const withFile = newestFirst.filter((r) => r.files[path])
    const current = withFile.find((r) => sameSource(r.files[path], source))
    if (current && current.files[path].mutants.length === 0) {
      // Stryker leaves such a file out of its report; an entry without mutants says the same.
      files.push({ path, state: 'no-mutants', mutants: 0 })
      continue
    }
    if (current) {
      counted[path] = current.files[path]
      countedFrom.set(current.scope, current)
      files.push({ path, state: 'measured', scope: current.scope, mutants: current.files[path].mutants.length })
      continue
    }
    const mutants = await countMutants(path, source)
    if (mutants === 0) files.push({ path, state: 'no-mutants', mutants: 0 })
    else if (withFile.length > 0) files.push({ path, state: 'stale', scope: withFile[0].scope, mutants })
    else files.push({ path, state: 'missing', mutants })
  }
  const m = calculateMetrics(counted).metrics
  const measuredScore = Number.isNaN(m.mutationScore) ? null : m.mutationScore
  const complete = files.every((f) => f.state === 'measured' || f.state === 'no-mutants')
  const narrowed = [...countedFrom.values()].filter((r) => r.tests !== null).map((r) => ({ scope: r.scope, tests: r.tests }))
  return {
    folder,
    files,
    metrics: m,
    complete,
    // The folder's score only when every file with mutants has a current result.
    score: complete ? measuredScore : null,
    measuredScore,
    lowerBound: narrowed.length > 0,
    narrowed,
  }
}

/**
 * The files a --missing run mutates: the folder's files with mutants and no current result (never measured,
 * or stale), in path order, at most `limit`; `left` are the ones for the runs after it.
 */
export function nextPart(assessment, limit) {
  const todo = assessment.files.filter((f) => f.state === 'missing' || f.state === 'stale')
  const n = limit ?? todo.length
  return { files: todo.slice(0, n), left: todo.slice(n) }
}

/** The same shape for the files of one report (the --since scope): no partial or stale logic, no files list. */
export function assessReport(folder, reportFiles, tests) {
  const m = calculateMetrics(reportFiles).metrics
  const score = Number.isNaN(m.mutationScore) ? null : m.mutationScore
  const narrowed = tests === null ? [] : [{ scope: 'since', tests }]
  return { folder, files: [], metrics: m, complete: true, score, measuredScore: score, lowerBound: narrowed.length > 0, narrowed }
}

/** Reads a folder's sources and results and assesses it; undefined when the folder has no result at all. */
export async function summariseFolder(root, folder, countMutants) {
  const results = readAllResults(root, folder)
  if (results.length === 0) return undefined
  const sources = new Map(folderFiles(root, folder).map((file) => [file, readFileSync(join(root, file), 'utf8')]))
  return assessFolder({ folder, sources, results, countMutants })
}

const plural = (n, word) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`

/** Whether an assessed folder fails its target: only a complete folder can (a partial one has no score). */
export const isBelowTarget = (a) => a.complete && a.folder.target !== undefined && a.score !== null && a.score < a.folder.target

/**
 * The table of scores, and under it what makes a folder partial or its score a lower bound. `command` is
 * how to run more of a folder, for the hint under a partial one.
 */
export function formatSummary(assessments, { title = 'Mutation score per folder', notMeasured = [], hint = true } = {}) {
  const rows = []
  const notes = []
  for (const a of assessments) {
    const { folder, metrics: m } = a
    const below = isBelowTarget(a)
    let score
    if (!a.complete) score = 'partial'
    else if (a.score === null) score = 'n/a'
    else score = `${a.score.toFixed(2)}%${a.lowerBound ? ' (lower bound)' : ''}`
    const withMutants = a.files.filter((f) => f.state !== 'no-mutants')
    const measured = withMutants.filter((f) => f.state === 'measured')
    rows.push([
      folder.name,
      score,
      folder.target === undefined ? '-' : `${folder.target}%${below ? ' (below)' : ''}`,
      a.files.length === 0 ? '-' : `${measured.length}/${withMutants.length}`,
      m.killed,
      m.timeout,
      m.survived,
      m.noCoverage,
      m.ignored,
      m.compileErrors + m.runtimeErrors,
      m.totalMutants,
    ])
    if (!a.complete) {
      const missing = withMutants.filter((f) => f.state === 'missing')
      const stale = withMutants.filter((f) => f.state === 'stale')
      const left = [...missing, ...stale].reduce((n, f) => n + f.mutants, 0)
      const share = a.measuredScore === null ? '' : `; ${a.measuredScore.toFixed(2)}% of those, which is not the folder's score`
      notes.push(
        `${folder.name} is partial: ${measured.length} of ${plural(withMutants.length, 'file')} measured (${plural(m.totalMutants, 'mutant')}${share}), ` +
          `${plural(left, 'mutant')} in ${plural(missing.length + stale.length, 'file')} to go.`,
      )
      const name = (f) => `${f.path.slice(folder.name === 'src/rest' ? 4 : folder.name.length + 1)} (${f.mutants})`
      const list = (files) => (files.length <= 12 ? files.map(name).join(', ') : `${files.slice(0, 12).map(name).join(', ')} and ${files.length - 12} more`)
      if (missing.length > 0) notes.push(`  never measured: ${list(missing)}`)
      if (stale.length > 0) notes.push(`  stale (changed since their result): ${list(stale)}`)
      if (hint) notes.push(`  next part: npm run test:mutation -- ${folder.name} --missing --limit 3`)
    }
    for (const n of a.narrowed) {
      const record = n.scope.startsWith(`${RECORDS}/`)
      let how = `its tests were narrowed to ${n.tests}`
      if (n.tests === undefined) how = record ? 'it does not say which tests ran' : 'its tests are not recorded (no run.json of run.mjs matches that report)'
      notes.push(`${folder.name} is ${a.complete ? '' : 'partial and '}a lower bound: ${record ? n.scope : `${REPORTS}/${n.scope}`} counts, and ${how}.`)
    }
    const fromRecords = a.files.filter((f) => f.state === 'measured' && f.scope?.startsWith(`${RECORDS}/`)).length
    if (fromRecords > 0)
      notes.push(`${folder.name}: ${plural(fromRecords, 'file')} counted from committed records (${RECORDS}/), not from a report on this machine.`)
  }
  const head = ['folder', 'score', 'target', 'files', 'killed', 'timeout', 'survived', 'no cov', 'ignored', 'errors', 'mutants']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)))
  const line = (r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')
  const out = [`${title}:`, line(head), ...rows.map(line)]
  if (notMeasured.length > 0) out.push(`Not measured yet: ${notMeasured.join(', ')}.`)
  if (notes.length > 0) out.push('', ...notes)
  if (assessments.some((a) => a.lowerBound)) {
    out.push(
      'A lower bound: fewer tests can only kill fewer mutants, so the full suite scores at least that. Re-run those parts without EXPECT_LLM_MUTATION_TESTS for the score.',
    )
  }
  return out.join('\n')
}
