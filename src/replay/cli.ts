/**
 * The `expect-llm` command: `expect-llm fixtures ls | verify | prune`.
 * @packageDocumentation
 */
import { readFile, stat, unlink } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { joinNegativeValues } from '../cli-args.js'
import { formatAge, parseAge } from './age.js'
import { parseFixture } from './fixture.js'
import { relPath } from './engine.js'
import { fixtureSecrets } from './record-steps.js'
import { listFixtureFiles, listStaleTempFiles, modifiedAt, resolveLayout, tempFileOwner, type StoreLayout } from './store.js'
import { readUsageRecords, type UsageRecord } from './summary.js'
import type { Fixture } from './types.js'
import { runReportCli } from '../report/cli.js'
import { runMutateCli } from '../mutation/cli.js'

const HELP = `Usage: expect-llm fixtures <command> [options]

Commands:
  ls       List fixtures: endpoint, model, first user message, age, size
  verify   Check every fixture: schema, hash, secrets, age (with --max-age), and temporary files left by
           an interrupted write; exits 1 on a problem
  prune    Delete fixtures that the last complete, green, unfiltered run of their test file did not use
           (never a corrupt one, nor one changed since that run), and leftover temporary files

Options:
  --root <dir>      Project root (default: the current directory)
  --dir <dir>       Central fixture directory, if configure({ replay: { dir } }) sets one
  --max-age <age>   verify: fixtures older than this are stale, e.g. 30d, 12h, 90m
  --dry-run         prune: only list what would be deleted
  --json            ls: print JSON
  -h, --help        Print this help

Exit codes:
  0  done (verify: every fixture is fine)
  1  verify found a problem, or a command failed
  2  usage error: a missing or unknown command or option (the help is printed for a missing command)
`

/** Where the CLI writes. */
export interface CliIo {
  out: (line: string) => void
  err: (line: string) => void
}

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`
}

/** The first user message of a chat, Responses or embeddings request, shortened. */
export function firstUserMessage(fixture: Fixture): string {
  const body = fixture.key.body as Record<string, unknown> | null
  const text = (c: unknown): string =>
    typeof c === 'string'
      ? c
      : Array.isArray(c)
        ? c.map((p) => (typeof p === 'string' ? p : typeof (p as { text?: unknown })?.text === 'string' ? (p as { text: string }).text : '')).join(' ')
        : ''
  let found = ''
  if (body && Array.isArray(body.messages)) found = text((body.messages as Array<{ role?: string; content?: unknown }>).find((m) => m.role === 'user')?.content)
  else if (body && typeof body.input === 'string') found = body.input
  else if (body && Array.isArray(body.input)) {
    const first = (body.input as unknown[])[0]
    found = typeof first === 'string' ? first : text((first as { content?: unknown })?.content)
  }
  const oneLine = found.replace(/\s+/g, ' ').trim()
  return oneLine.length > 50 ? `${oneLine.slice(0, 49)}…` : oneLine
}

const OPTIONS = {
  root: { type: 'string' },
  dir: { type: 'string' },
  'max-age': { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/**
 * Parses the command line strictly (node's `util.parseArgs`): an unknown option or a missing value is an
 * error, never ignored, since `prune` deletes files and must not run with options it did not understand.
 */
export function parseCliArgs(argv: readonly string[]): { positional: string[]; flags: Map<string, string | true> } | { error: string } {
  try {
    const { values, positionals } = parseArgs({ args: joinNegativeValues(argv, OPTIONS), options: OPTIONS, allowPositionals: true, strict: true })
    // Strict, with no defaults and no negated options, parseArgs gives only the options given: a string, or true for a flag.
    const flags = new Map(Object.entries(values) as Array<[string, string | true]>)
    return { positional: positionals, flags }
  } catch (error) {
    // Node adds advice about positionals after the first sentence; the first sentence is the problem.
    return { error: (error as Error).message.split(/\.\s/)[0]! }
  }
}

export async function loadAll(layout: StoreLayout): Promise<Array<{ file: string; size: number; fixture?: Fixture; error?: string }>> {
  const files = await listFixtureFiles(layout)
  return Promise.all(
    files.map(async (file) => {
      // Stryker disable next-line StringLiteral: equivalent, without an encoding readFile gives a Buffer, which JSON.parse reads as the same UTF-8
      const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)])
      try {
        return { file, size: info.size, fixture: parseFixture(text, file) }
      } catch (error) {
        return { file, size: info.size, error: (error as { reason?: string }).reason ?? (error as Error).message }
      }
    }),
  )
}

/** A command line that names a command to run, with its options. */
export interface CliCommand {
  command: 'ls' | 'verify' | 'prune'
  root: string
  dir: string | undefined
  flags: ReadonlyMap<string, string | true>
}

/** A command line that ends before any command runs: help, or a usage error. */
export interface CliExit {
  code: number
  out: string[]
  err: string[]
}

/**
 * What a parsed command line asks for: a command to run, or the help / a usage error and its exit code.
 *
 * @example
 * ```ts
 * planCommand(['fixtures'], parseCliArgs(['fixtures']), '/repo') // { code: 2, out: [HELP], err: ['[expect-llm] ... a command is missing ...'] }
 * ```
 */
export function planCommand(argv: readonly string[], parsed: ReturnType<typeof parseCliArgs>, cwd: string): CliCommand | CliExit {
  if ('error' in parsed) {
    const options = '--root <dir>, --dir <dir>, --max-age <age>, --dry-run, --json, --help'
    const err = `[expect-llm] Failed to run "expect-llm ${argv.join(' ')}": ${parsed.error}. Options: ${options}.`
    return { code: 2, out: [], err: [err] }
  }
  const { positional, flags } = parsed
  if (flags.has('help')) return { code: 0, out: [HELP], err: [] }
  const [group, command] = positional
  // A missing command is a usage error: print the help (so the user sees the commands) and exit 2.
  if (positional.length === 0 || (group === 'fixtures' && command === undefined)) {
    const line = ['expect-llm', ...positional].join(' ')
    const err = `[expect-llm] Failed to run "${line}": a command is missing. Use one of: expect-llm fixtures ls | verify | prune (help above).`
    return { code: 2, out: [HELP], err: [err] }
  }
  if (group !== 'fixtures' || (command !== 'ls' && command !== 'verify' && command !== 'prune') || positional.length > 2) {
    const err = `[expect-llm] Failed to run "expect-llm ${positional.join(' ')}": unknown command. Use one of: expect-llm fixtures ls | verify | prune.`
    return { code: 2, out: [], err: [err] }
  }
  const root = flags.get('root')
  const dir = flags.get('dir')
  // --dir takes a value: flags holds its string, or nothing.
  return { command, root: typeof root === 'string' ? root : cwd, dir: dir as string | undefined, flags }
}

/**
 * Runs the CLI with `argv` (without `node` and the script) and returns the exit code.
 *
 * @example
 * ```ts
 * await runCli(['fixtures', 'verify', '--max-age', '90d'], { out: console.log, err: console.error })
 * ```
 */
export async function runCli(argv: string[], io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) }, now = Date.now()): Promise<number> {
  if (argv[0] === 'report') return runReportCli(argv.slice(1), io)
  if (argv[0] === 'mutate') return runMutateCli(argv.slice(1), io)
  const parsed = parseCliArgs(argv)
  const plan = planCommand(argv, parsed, process.cwd())
  if ('code' in plan) {
    plan.out.forEach((line) => io.out(line))
    plan.err.forEach((line) => io.err(line))
    return plan.code
  }
  const layout = resolveLayout(resolve(plan.root), plan.dir)
  if (plan.command === 'ls') return listCommand(layout, plan.flags, io, now)
  if (plan.command === 'verify') return verifyCommand(layout, plan.flags, io, now)
  return pruneCommand(layout, plan.flags, io)
}

type Loaded = Awaited<ReturnType<typeof loadAll>>[number]

/** One row of `fixtures ls`. */
export interface FixtureRow {
  file: string
  endpoint: string
  model: string
  message: string
  age: string
  size: string
}

/**
 * The rows of `fixtures ls`, one per fixture file (a corrupt one says so in its message column).
 *
 * @example
 * ```ts
 * fixtureRows(await loadAll(layout), (f) => relPath(root, f), Date.now())
 * ```
 */
export function fixtureRows(all: readonly Loaded[], rel: (file: string) => string, now: number): FixtureRow[] {
  return all.map(({ file, size, fixture, error }) => ({
    file: rel(file),
    endpoint: fixture?.meta.endpoint ?? '?',
    model: fixture?.meta.model ?? '',
    message: error ? `CORRUPT: ${error}` : fixture ? firstUserMessage(fixture) : '',
    age: fixture ? formatAge(now - Date.parse(fixture.meta.recordedAt)) : '',
    size: formatSize(size),
  }))
}

/**
 * The table of `fixtures ls`: a header, one padded line per row.
 *
 * @example
 * ```ts
 * fixtureTable(rows) // ['ENDPOINT  MODEL  ...', 'chat.completions  gpt-4o-mini  ...']
 * ```
 */
export function fixtureTable(rows: readonly FixtureRow[]): string[] {
  const cols = ['endpoint', 'model', 'message', 'age', 'size', 'file'] as const
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)))
  const line = (cell: (c: (typeof cols)[number]) => string) =>
    cols
      .map((c, i) => cell(c).padEnd(widths[i]!))
      .join('  ')
      .trimEnd()
  return [line((c) => c.toUpperCase()), ...rows.map((r) => line((c) => r[c]))]
}

async function listCommand(layout: StoreLayout, flags: ReadonlyMap<string, string | true>, io: CliIo, now: number): Promise<number> {
  const all = await loadAll(layout)
  const rows = fixtureRows(all, (f) => relPath(layout.rootDir, f), now)
  if (flags.has('json')) {
    io.out(JSON.stringify(rows, null, 2))
    return 0
  }
  if (rows.length === 0) {
    io.out(`No fixtures under ${layout.dir ?? layout.rootDir}.`)
    return 0
  }
  fixtureTable(rows).forEach((line) => io.out(line))
  io.out(`${rows.length} fixture(s), ${formatSize(all.reduce((s, r) => s + r.size, 0))}`)
  return 0
}

/**
 * The problems `fixtures verify` reports for one fixture file: corrupt, each secret, stale (when `age` is given).
 *
 * @example
 * ```ts
 * fixtureProblems(loaded, 'test/__llm_fixtures__/a.json', { now: Date.now(), maxAge: 30 * 86400e3, maxAgeText: '30d' })
 * ```
 */
export function fixtureProblems(
  loaded: Pick<Loaded, 'fixture' | 'error'>,
  relFile: string,
  age?: { now: number; maxAge: number; maxAgeText: string },
): string[] {
  const { fixture, error } = loaded
  if (error || !fixture) return [`${relFile}: corrupt: ${error ?? 'unreadable'}`]
  const problems = fixtureSecrets(fixture).map((f) => `${relFile}: secret: ${f.what} at ${f.path}`)
  if (age !== undefined) {
    const recorded = age.now - Date.parse(fixture.meta.recordedAt)
    if (!(recorded <= age.maxAge)) {
      problems.push(`${relFile}: stale: recorded ${formatAge(recorded)} ago (max age ${age.maxAgeText}); record it again with EXPECT_LLM_REPLAY=rerecord`)
    }
  }
  return problems
}

async function verifyCommand(layout: StoreLayout, flags: ReadonlyMap<string, string | true>, io: CliIo, now: number): Promise<number> {
  const rel = (f: string): string => relPath(layout.rootDir, f)
  const maxAgeFlag = flags.get('max-age')
  let age: Parameters<typeof fixtureProblems>[2]
  if (typeof maxAgeFlag === 'string') {
    const maxAge = parseAge(maxAgeFlag)
    if (maxAge === undefined) {
      io.err(`[expect-llm] Failed to verify fixtures: --max-age ${JSON.stringify(maxAgeFlag)} is not an age. Use a number with a unit, e.g. 30d, 12h or 90m.`)
      return 1
    }
    age = { now, maxAge, maxAgeText: maxAgeFlag }
  }
  const all = await loadAll(layout)
  const problems: string[] = []
  for (const tmp of await listStaleTempFiles(layout)) {
    const owner = tempFileOwner(tmp)
    problems.push(
      `${rel(tmp)}: leftover: a temporary file of a write that was interrupted (process ${owner} is gone); ` +
        `not a fixture. Delete it, or run expect-llm fixtures prune`,
    )
  }
  for (const loaded of all) problems.push(...fixtureProblems(loaded, rel(loaded.file), age))
  problems.forEach((line) => io.err(line))
  io.out(problems.length === 0 ? `${all.length} fixture(s) verified: no problems.` : `${all.length} fixture(s) checked: ${problems.length} problem(s).`)
  return problems.length === 0 ? 0 : 1
}

/**
 * Why `prune` leaves a folder alone, or `undefined` when the last run of its test file was complete and green.
 *
 * @example
 * ```ts
 * pruneSkipReason({ complete: false, reason: 'failed' }) // 'its last run had failing tests; prune after a green run'
 * ```
 */
export function pruneSkipReason(record: Pick<UsageRecord, 'complete' | 'reason'> | undefined): string | undefined {
  if (!record) return 'no run of its test file was recorded; run the full suite first'
  if (record.complete) return undefined
  if (record.reason === 'failed') return 'its last run had failing tests; prune after a green run'
  return 'its last run was filtered or skipped tests; run the full suite first'
}

/**
 * The fixture files of each folder (relative to the root), folders sorted by name.
 *
 * @example
 * ```ts
 * fixturesByFolder(['/r/test/__llm_fixtures__/a.json'], (f) => relative('/r', f)) // [['test/__llm_fixtures__', ['/r/test/...']]]
 * ```
 */
export function fixturesByFolder(files: readonly string[], rel: (file: string) => string): Array<[string, string[]]> {
  const byFolder = new Map<string, string[]>()
  for (const f of files) {
    const folder = rel(dirname(f))
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), f])
  }
  return [...byFolder.entries()].sort()
}

/** Why a fixture file cannot be parsed, or `undefined` when it can (read errors count as corrupt). */
async function corruptReason(file: string): Promise<string | undefined> {
  // Stryker disable next-line StringLiteral: equivalent, without an encoding readFile gives a Buffer, which JSON.parse reads as the same UTF-8
  return readFile(file, 'utf8').then(
    (text) => {
      try {
        parseFixture(text, file)
        return undefined
      } catch (error) {
        return (error as { reason?: string }).reason ?? (error as Error).message
      }
    },
    (error: Error) => error.message,
  )
}

async function pruneCommand(layout: StoreLayout, flags: ReadonlyMap<string, string | true>, io: CliIo): Promise<number> {
  const rel = (f: string): string => relPath(layout.rootDir, f)
  const records = await readUsageRecords(layout.rootDir)
  const used = new Set(records.flatMap((r) => [...r.used, ...r.created]))
  const byFolderRecord = new Map(records.map((r) => [r.folder, r]))
  const dryRun = flags.has('dry-run')
  let deleted = 0
  for (const [folder, list] of fixturesByFolder(await listFixtureFiles(layout), rel)) {
    const record = byFolderRecord.get(folder)
    const skip = pruneSkipReason(record)
    if (skip !== undefined || !record) {
      io.out(`skip ${folder}: ${skip}`)
      continue
    }
    const finished = Date.parse(record.finishedAt)
    for (const f of list.filter((x) => !used.has(rel(x)))) {
      // A corrupt fixture is the file a failing test's message says to fix by hand: never delete it.
      const corrupt = await corruptReason(f)
      if (corrupt !== undefined) {
        io.out(`keep ${rel(f)}: it is corrupt (${corrupt}); fix it by hand or delete it yourself`)
        continue
      }
      // Added or changed after that run (a checkout, a recording since): the run could not have used it. A time that
      // cannot be read counts as unchanged, and so does a run time that cannot be parsed (NaN: no time is after it).
      const changed = (await modifiedAt(f)) ?? 0
      if (changed > finished) {
        io.out(`keep ${rel(f)}: it changed after the last run of its test file; run the suite again first`)
        continue
      }
      deleted++
      io.out(`${dryRun ? 'would delete' : 'delete'} ${rel(f)}`)
      if (!dryRun) await unlink(f)
    }
  }
  const temps = await listStaleTempFiles(layout)
  for (const tmp of temps) {
    io.out(`${dryRun ? 'would delete' : 'delete'} ${rel(tmp)} (temporary file of an interrupted write)`)
    if (!dryRun) await unlink(tmp).catch(() => undefined)
  }
  io.out(`${dryRun ? 'Would delete' : 'Deleted'} ${deleted} unused fixture(s)${temps.length > 0 ? ` and ${temps.length} temporary file(s)` : ''}.`)
  return 0
}
