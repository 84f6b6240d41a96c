// `expect-llm report` without --merge: the page from the reports and their history, pruning, and the
// exit codes of its errors.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { resetLedger } from '../../src/ledger.js'
import { runReportCli } from '../../src/report/cli.js'
import { historyPath, readHistory } from '../../src/report/history.js'
import { readPageData } from '../../src/report/html.js'
import { makeCases, runGolden } from './helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'report-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(() => resetLedger())

const cli = async (args: string[]) => {
  const out: string[] = []
  const err: string[] = []
  const code = await runReportCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('expect-llm report', () => {
  const root = join(dir, 'project')
  const testPath = join(root, 'bot.test.ts')
  const history = join(root, '.expect-llm', 'history')

  test('the page of the latest run, with every run of its history; --keep and --max-age prune first', async () => {
    for (let i = 0; i < 3; i++)
      await runGolden({
        dir: join(root, '.expect-llm'),
        testPath,
        cases: makeCases(4),
        options: { baseline: undefined, report: { dir: join(root, '.expect-llm', 'reports'), console: false, history: { dir: history } } },
      })
    const file = historyPath(history, testPath, 'support bot')
    expect(readHistory(file).entries).toHaveLength(3)
    const page = await cli(['--root', root, '--title', 'Nightly'])
    expect(page).toMatchObject({ code: 0, out: 'HTML report of 1 suite: ' + join(root, '.expect-llm', 'report.html').replace(`${process.cwd()}/`, '') })
    const data = readPageData(readFileSync(join(root, '.expect-llm', 'report.html'), 'utf8'))
    expect(data.title).toBe('Nightly')
    expect(data.suites[0]!.kind === 'golden' && data.suites[0]!.history!.runs.map((r) => r.current)).toEqual([false, false, true])
    const pruned = await cli(['--root', root, '--keep', '2', '--out', join(root, 'kept.html')])
    expect(pruned.out).toContain('pruned 1 old run of "support bot" from its history')
    expect(readHistory(file).entries).toHaveLength(2)
    expect((await cli(['--root', root, '--max-age', '0ms', '--out', join(root, 'aged.html')])).out).toContain('pruned 2 old runs')
    expect(readHistory(file).entries).toHaveLength(0)
    expect((await cli(['--root', root, '--no-history', '--out', join(root, 'none.html')])).code).toBe(0)
    const none = readPageData(readFileSync(join(root, 'none.html'), 'utf8')).suites[0]!
    expect(none.kind === 'golden' && none.history!.runs).toHaveLength(1)
  })

  test.each([
    [['--keep', '0'], 2, '[expect-llm] Failed to run expect-llm report: --keep "0" is not a whole number >= 1. Pass for example --keep 50'],
    [['--max-age', 'soon'], 2, '[expect-llm] Failed to run expect-llm report: --max-age "soon" is not an age. Use a number with a unit, e.g. 90d, 12h or 30m'],
    [
      ['--no-history', '--keep', '3'],
      2,
      '[expect-llm] Failed to run expect-llm report: --no-history cannot be combined with --history, --keep or --max-age. Drop one of them',
    ],
    [['--colour'], 2, '[expect-llm] Failed to run "expect-llm report --colour": Unknown option \'--colour\'. See the options above'],
  ])('%j exits %i', async (args, code, message) => {
    const run = await cli(args)
    expect(run.code).toBe(code)
    expect(run.err.split('\n').at(-1)).toBe(message)
  })

  test('no report: exit 1 and what to do; a named file that is not a report: exit 1, the page still written', async () => {
    const empty = await cli(['--root', join(dir, 'empty')])
    expect(empty.code).toBe(1)
    expect(empty.err.split('\n')[0]).toMatch(/^\[expect-llm\] .*empty\/\.expect-llm\/reports does not exist$/)
    expect(empty.err.split('\n')[1]).toMatch(
      /^\[expect-llm\] Failed to write the HTML report: no describeGolden or compareGolden report under .*empty\/\.expect-llm\/reports\. Run the golden suites first \(they write \.expect-llm\/reports\/\), or name the folder or files$/,
    )
    const bad = await cli(['--root', root, join(root, '.expect-llm', 'reports'), join(root, 'kept.html'), '--out', join(root, 'bad.html')])
    expect(bad.code).toBe(1)
    expect(bad.err).toContain('kept.html is not valid JSON')
    expect(existsSync(join(root, 'bad.html'))).toBe(true)
  })
})
