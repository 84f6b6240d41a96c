// readReportArgs (src/report/cli.ts): the arguments of `expect-llm report` read into settings, a pure step.
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { readReportArgs } from '../../src/report/cli.js'

describe('readReportArgs', () => {
  test('defaults under --root', () => {
    const root = resolve('proj')
    expect(readReportArgs(['--root', 'proj'])).toEqual({
      root,
      merge: false,
      keep: undefined,
      maxAgeMs: undefined,
      historyDir: resolve(root, '.expect-llm/history'),
      out: resolve(root, '.expect-llm/report.html'),
      inputs: [resolve(root, '.expect-llm/reports')],
      reportsDir: resolve(root, '.expect-llm/reports'),
      title: undefined,
    })
  })

  test('--merge with inputs, --keep, --max-age and a title', () => {
    const s = readReportArgs(['--merge', 'a/', 'b.json', '--keep', '5', '--max-age', '2h', '--title', 'T'])
    expect(s).toMatchObject({ merge: true, inputs: ['a/', 'b.json'], keep: 5, maxAgeMs: 2 * 3600_000, title: 'T' })
  })

  test('--no-history: no history folder', () => {
    expect(readReportArgs(['--no-history'])).toMatchObject({ historyDir: false })
  })

  test('-h is help', () => {
    expect(readReportArgs(['-h'])).toBe('help')
  })

  test('usage errors: a bad --keep, a bad --max-age, --no-history with --keep, an unknown option (with the help)', () => {
    expect(readReportArgs(['--keep', '0'])).toEqual({
      action: 'run expect-llm report',
      reason: '--keep "0" is not a whole number >= 1',
      fix: 'Pass for example --keep 50',
      help: false,
    })
    expect(readReportArgs(['--max-age', 'soon'])).toMatchObject({ reason: '--max-age "soon" is not an age', help: false })
    expect(readReportArgs(['--no-history', '--keep', '3'])).toMatchObject({ reason: '--no-history cannot be combined with --history, --keep or --max-age' })
    expect(readReportArgs(['--colour'])).toMatchObject({ action: 'run "expect-llm report --colour"', help: true })
  })
})
