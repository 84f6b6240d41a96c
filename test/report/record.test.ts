// What a suite does after its JSON report: the HTML page when asked (report.html, EXPECT_LLM_HTML_REPORT),
// with every report of the folder; and the page's colours, readable in light and dark mode.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest'
import { resetLedger } from '../../src/ledger.js'
import { readPageData, REPORT_CSS } from '../../src/report/html.js'
import { makeCases, runCompare, runGolden } from './helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'report-record-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeEach(() => resetLedger())
afterEach(() => {
  delete process.env.EXPECT_LLM_HTML_REPORT
})

describe('the HTML page after a run', () => {
  test('report.html: true writes report.html beside the reports folder with every suite of it, and says where', async () => {
    const root = join(dir, 'on')
    const reports = join(root, 'reports')
    await runCompare({ dir: root, testPath: join(root, 'c.test.ts'), cases: makeCases(6) })
    const run = await runGolden({
      dir: root,
      testPath: join(root, 'g.test.ts'),
      cases: makeCases(6),
      options: { baseline: undefined, report: { dir: reports, console: false, html: true } },
    })
    const page = join(root, 'report.html')
    expect(run.summary).toContain('  html: ')
    expect(
      readPageData(readFileSync(page, 'utf8'))
        .suites.map((s) => [s.name, s.kind])
        .sort(),
    ).toEqual([
      ['support bot', 'golden'],
      ['v1 vs v2', 'compare'],
    ])
  })

  test('report.html as a path writes there; without it and without EXPECT_LLM_HTML_REPORT nothing is written', async () => {
    const root = join(dir, 'path')
    const out = join(root, 'out', 'golden.html')
    await runGolden({
      dir: root,
      testPath: join(root, 'g.test.ts'),
      cases: makeCases(3),
      options: { baseline: undefined, report: { dir: join(root, 'reports'), console: false, html: out } },
    })
    expect(readPageData(readFileSync(out, 'utf8')).suites).toHaveLength(1)
    await runGolden({ dir: root, testPath: join(root, 'g.test.ts'), cases: makeCases(3), options: { baseline: undefined } })
    expect(existsSync(join(root, 'report.html'))).toBe(false)
  })

  test('EXPECT_LLM_HTML_REPORT=1 writes the default page, a path writes there; report.html: false wins', async () => {
    const root = join(dir, 'env')
    process.env.EXPECT_LLM_HTML_REPORT = '1'
    await runGolden({ dir: root, testPath: join(root, 'g.test.ts'), cases: makeCases(3), options: { baseline: undefined } })
    expect(existsSync(join(root, 'report.html'))).toBe(true)
    process.env.EXPECT_LLM_HTML_REPORT = join(root, 'elsewhere.html')
    await runGolden({ dir: root, testPath: join(root, 'g.test.ts'), cases: makeCases(3), options: { baseline: undefined } })
    expect(existsSync(join(root, 'elsewhere.html'))).toBe(true)
    rmSync(join(root, 'elsewhere.html'))
    await runGolden({
      dir: root,
      testPath: join(root, 'g.test.ts'),
      cases: makeCases(3),
      options: { baseline: undefined, report: { dir: join(root, 'reports'), console: false, html: false } },
    })
    expect(existsSync(join(root, 'elsewhere.html'))).toBe(false)
  })

  test('a page that cannot be written fails the suite with the reason, the run is not lost', async () => {
    const root = join(dir, 'blocked')
    // The output path is an existing folder: the rename onto it fails.
    const run = await runGolden({
      dir: root,
      testPath: join(root, 'g.test.ts'),
      cases: makeCases(3),
      options: { baseline: undefined, report: { dir: join(root, 'reports'), console: false, html: root } },
    })
    expect(run.failures.join('\n')).toMatch(
      /the HTML report could not be written to .*blocked: .*Check that the folder is writable, or pass report: \{ html: false \}\./,
    )
    expect(existsSync(join(root, 'reports'))).toBe(true)
  })
})

/** WCAG 2 relative luminance and contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5]
      .map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

describe('colours', () => {
  const schemes = {
    light: /:root\{([^}]*)\}/.exec(REPORT_CSS)![1]!,
    dark: /prefers-color-scheme:dark\)\{:root\{([^}]*)\}/.exec(REPORT_CSS)![1]!,
  }
  test.each(Object.keys(schemes))('%s: text, links, verdicts and chart series have at least 4.5:1 contrast on their backgrounds', (scheme) => {
    const vars = Object.fromEntries(
      [...schemes[scheme as keyof typeof schemes].matchAll(/--([\w-]+):#([0-9a-f]{6}|[0-9a-f]{3})\b/g)].map((m) => [
        m[1],
        `#${m[2]!.length === 3 ? [...m[2]!].map((c) => c + c).join('') : m[2]}`,
      ]),
    )
    expect(Object.keys(vars)).toHaveLength(16)
    const pairs: Array<[string, string]> = [
      ['fg', 'bg'],
      ['fg', 'panel'],
      ['muted', 'bg'],
      ['muted', 'panel'],
      ['accent', 'bg'],
      ['accent', 'panel'],
      ['good', 'good-bg'],
      ['bad', 'bad-bg'],
      ['warn', 'warn-bg'],
      ['bad', 'bg'],
      ['good', 'bg'],
      ['warn', 'bg'],
      ['fg', 'warn-bg'],
      ['s0', 'panel'],
      ['s1', 'panel'],
      ['s2', 'panel'],
      ['s3', 'panel'],
      ['bad', 'panel'],
      ['warn', 'panel'],
    ]
    const low = pairs.map(([f, b]) => [f, b, contrast(vars[f]!, vars[b]!)] as const).filter(([, , r]) => r < 4.5)
    expect(low).toEqual([])
  })
})
