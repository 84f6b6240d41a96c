/**
 * The `expect-llm` command: `expect-llm fixtures ls | verify | prune`.
 * @packageDocumentation
 */
import { realpathSync } from 'node:fs'
import { readFile, stat, unlink } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { formatAge, parseAge } from './age.js'
import { parseFixture } from './fixture.js'
import { relPath } from './engine.js'
import { scanForSecrets, scanStreamText } from './secrets.js'
import { listFixtureFiles, listStaleTempFiles, modifiedAt, resolveLayout, tempFileOwner, type StoreLayout } from './store.js'
import { readUsageRecords } from './summary.js'
import type { Fixture } from './types.js'
import { runReportCli } from '../report/cli.js'

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
    typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (typeof p === 'string' ? p : typeof (p as { text?: unknown })?.text === 'string' ? (p as { text: string }).text : '')).join(' ') : ''
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
function parseCliArgs(argv: string[]): { positional: string[]; flags: Map<string, string | true> } | { error: string } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
    const flags = new Map<string, string | true>()
    for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== false) flags.set(name, value)
    return { positional: positionals, flags }
  } catch (error) {
    // Node adds advice about positionals after the first sentence; the first sentence is the problem.
    return { error: (error as Error).message.split(/\.(?:\s|$)/)[0]! }
  }
}

async function loadAll(layout: StoreLayout): Promise<Array<{ file: string; size: number; fixture?: Fixture; error?: string }>> {
  const files = await listFixtureFiles(layout)
  return Promise.all(
    files.map(async (file) => {
      const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)])
      try {
        return { file, size: info.size, fixture: parseFixture(text, file) }
      } catch (error) {
        return { file, size: info.size, error: (error as { reason?: string }).reason ?? (error as Error).message }
      }
    }),
  )
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
  const parsed = parseCliArgs(argv)
  if ('error' in parsed) {
    io.err(`[expect-llm] Failed to run "expect-llm ${argv.join(' ')}": ${parsed.error}. Options: --root <dir>, --dir <dir>, --max-age <age>, --dry-run, --json, --help.`)
    return 2
  }
  const { positional, flags } = parsed
  if (flags.has('help')) {
    io.out(HELP)
    return 0
  }
  const [group, command] = positional
  // A missing command is a usage error: print the help (so the user sees the commands) and exit 2.
  if (positional.length === 0 || (group === 'fixtures' && command === undefined)) {
    io.out(HELP)
    io.err(`[expect-llm] Failed to run "${['expect-llm', ...positional].join(' ')}": a command is missing. Use one of: expect-llm fixtures ls | verify | prune (help above).`)
    return 2
  }
  if (group !== 'fixtures' || !['ls', 'verify', 'prune'].includes(command ?? '') || positional.length > 2) {
    io.err(`[expect-llm] Failed to run "expect-llm ${positional.join(' ')}": unknown command. Use one of: expect-llm fixtures ls | verify | prune.`)
    return 2
  }
  const root = typeof flags.get('root') === 'string' ? (flags.get('root') as string) : process.cwd()
  const layout = resolveLayout(resolve(root), typeof flags.get('dir') === 'string' ? (flags.get('dir') as string) : undefined)
  const rel = (f: string): string => relPath(layout.rootDir, f)

  if (command === 'ls') {
    const all = await loadAll(layout)
    const rows = all.map(({ file, size, fixture, error }) => ({
      file: rel(file),
      endpoint: fixture?.meta.endpoint ?? '?',
      model: fixture?.meta.model ?? '',
      message: error ? `CORRUPT: ${error}` : fixture ? firstUserMessage(fixture) : '',
      age: fixture ? formatAge(now - Date.parse(fixture.meta.recordedAt)) : '',
      size: formatSize(size),
    }))
    if (flags.has('json')) {
      io.out(JSON.stringify(rows, null, 2))
      return 0
    }
    if (rows.length === 0) {
      io.out(`No fixtures under ${layout.dir ?? layout.rootDir}.`)
      return 0
    }
    const cols = ['endpoint', 'model', 'message', 'age', 'size', 'file'] as const
    const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)))
    io.out(cols.map((c, i) => c.toUpperCase().padEnd(widths[i]!)).join('  ').trimEnd())
    for (const r of rows) io.out(cols.map((c, i) => r[c].padEnd(widths[i]!)).join('  ').trimEnd())
    io.out(`${rows.length} fixture(s), ${formatSize(all.reduce((s, r) => s + r.size, 0))}`)
    return 0
  }

  if (command === 'verify') {
    const maxAgeFlag = flags.get('max-age')
    const maxAge = typeof maxAgeFlag === 'string' ? parseAge(maxAgeFlag) : undefined
    if (typeof maxAgeFlag === 'string' && maxAge === undefined) {
      io.err(`[expect-llm] Failed to verify fixtures: --max-age ${JSON.stringify(maxAgeFlag)} is not an age. Use a number with a unit, e.g. 30d, 12h or 90m.`)
      return 1
    }
    const all = await loadAll(layout)
    let problems = 0
    for (const tmp of await listStaleTempFiles(layout)) {
      problems++
      io.err(`${rel(tmp)}: leftover: a temporary file of a write that was interrupted (process ${tempFileOwner(tmp)} is gone); not a fixture. Delete it, or run expect-llm fixtures prune`)
    }
    for (const { file, fixture, error } of all) {
      if (error) {
        problems++
        io.err(`${rel(file)}: corrupt: ${error}`)
        continue
      }
      const findings = scanForSecrets(fixture)
      for (const [i, r] of (fixture!.responses ?? [fixture!.response]).entries()) {
        if (r?.sse) findings.push(...scanStreamText(r.sse, fixture!.responses ? `/responses/${i}/sse` : '/response/sse'))
      }
      for (const f of findings) {
        problems++
        io.err(`${rel(file)}: secret: ${f.what} at ${f.path}`)
      }
      if (maxAge !== undefined) {
        const age = now - Date.parse(fixture!.meta.recordedAt)
        if (!(age <= maxAge)) {
          problems++
          io.err(`${rel(file)}: stale: recorded ${formatAge(age)} ago (max age ${maxAgeFlag}); record it again with EXPECT_LLM_REPLAY=rerecord`)
        }
      }
    }
    io.out(problems === 0 ? `${all.length} fixture(s) verified: no problems.` : `${all.length} fixture(s) checked: ${problems} problem(s).`)
    return problems === 0 ? 0 : 1
  }

  // prune
  const records = await readUsageRecords(layout.rootDir)
  const used = new Set(records.flatMap((r) => [...r.used, ...r.created]))
  const byFolderRecord = new Map(records.map((r) => [r.folder, r]))
  const files = await listFixtureFiles(layout)
  const byFolder = new Map<string, string[]>()
  for (const f of files) {
    const folder = rel(dirname(f))
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), f])
  }
  const dryRun = flags.has('dry-run')
  let deleted = 0
  const skipReason = { filtered: 'its last run was filtered or skipped tests; run the full suite first', failed: 'its last run had failing tests; prune after a green run' }
  for (const [folder, list] of [...byFolder.entries()].sort()) {
    const record = byFolderRecord.get(folder)
    if (!record?.complete) {
      io.out(`skip ${folder}: ${record ? skipReason[record.reason ?? 'filtered'] : 'no run of its test file was recorded; run the full suite first'}`)
      continue
    }
    const finished = Date.parse(record.finishedAt)
    for (const f of list.filter((x) => !used.has(rel(x)))) {
      // A corrupt fixture is the file a failing test's message says to fix by hand: never delete it.
      const corrupt = await readFile(f, 'utf8').then(
        (text) => {
          try {
            parseFixture(text, f)
            return undefined
          } catch (error) {
            return (error as { reason?: string }).reason ?? (error as Error).message
          }
        },
        (error: Error) => error.message,
      )
      if (corrupt !== undefined) {
        io.out(`keep ${rel(f)}: it is corrupt (${corrupt}); fix it by hand or delete it yourself`)
        continue
      }
      // Added or changed after that run (a checkout, a recording since): the run could not have used it.
      const changed = await modifiedAt(f)
      if (changed !== undefined && Number.isFinite(finished) && changed > finished) {
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

const invokedDirectly = (() => {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
})()

if (invokedDirectly) {
  runCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      console.error(`[expect-llm] Failed to run the command: ${(error as Error).message}`)
      process.exitCode = 1
    },
  )
}

