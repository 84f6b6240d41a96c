// The HTML report in a real browser. A golden suite and a comparison (test/report/child/report.golden.ts)
// run in a child Vitest against a local OpenAI-compatible server, recording; the server stops and a
// second run replays them (with two references changed, so two verdicts change). `expect-llm report`
// draws the page from the replayed reports and their history, and headless Chromium (Debian's
// `chromium`, driven by playwright-core) opens it from disk: the figures on the page are the reports'
// figures, the filters filter, the keyboard reaches everything, a model output holding `<script>` is
// shown as text and never runs, a 3,000-character word does not widen the page. Screenshots go to
// test-results/report/ (ignored by git; CI can upload them).
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { CompareReport, GoldenReport } from '../../src/golden/report.js'
import { readHistory } from '../../src/report/history.js'
import { histogram } from '../../src/report/page-data.js'
import { runReportCli } from '../../src/report/cli.js'
import { renderReportHtml, writeFileAtomic } from '../../src/report/html.js'
import { buildPageData } from '../../src/report/page-data.js'
import { repo, runVitest, vitestSandbox } from '../golden/helpers.js'
import { startOpenAIServer } from '../helpers/openai-server.js'
import { makeCases, runGolden } from './helpers.js'

/** Debian's chromium, or a clear failure: `.ci/run` installs it, so CI never skips this test. */
export function chromiumPath(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim().split('\n')[0]!
  } catch {
    throw new Error('[expect-llm] Failed to start the browser test: chromium is not installed. Run: sudo apt-get install -y chromium (.ci/run does it in CI).')
  }
}

// The page functions below run in the browser (playwright serializes them); the project's tsconfig has
// no DOM library, so the globals they use are declared here, loosely.
declare const document: {
  activeElement: { id: string; textContent: string | null; getAttribute(name: string): string | null } | null
  getElementById(id: string): { textContent: string | null } | null
  querySelector(selector: string): { textContent: string | null } | null
  documentElement: { scrollWidth: number; clientWidth: number }
}
declare const window: { __injected?: string }

const shots = join(repo, 'test-results', 'report')
const dir = vitestSandbox(['report.golden.ts'], 'test/report/child')
const reportsDir = join(dir, '.expect-llm', 'reports', 'report.golden.ts')
const pageFile = join(dir, 'report.html')

const INJECTED = '<script>window.__injected = "script"</script><img src="x" onerror="window.__injected = \'img\'"> Refunds take 30 days.'
const LONG_WORD = 'a'.repeat(3000)
// v1 answers from the handbook; v2 says it does not know for three of the questions v1 answers.
const right: Record<string, string> = {
  'refund window': 'Refunds are accepted within 30 days of purchase.',
  'shipping cost': 'Shipping costs five dollars on every order.',
  'ship to canada': 'We ship to Canada in 5 to 7 business days.',
  'warranty length': 'Every product has a two year warranty.',
  'exchange a size': 'You can exchange a size for free within 60 days.',
  'gift card expiry': 'Gift cards never expire.',
  'reset password': 'Reset your password from the sign-in page with the forgot password link.',
  'invoice copy': 'Please contact support.',
  'html in the answer': INJECTED,
  'long answer': `Our warranty covers parts and labour for two years. ${LONG_WORD}`,
  'track my order': 'Track your order from the link in the shipping email.',
  'cancel an order': 'Call us to cancel an order.',
}
const v2DoesNotKnow = new Set(['refund window', 'warranty length', 'gift card expiry'])

let golden: GoldenReport
let compare: CompareReport
let browser: Browser
let page: Page
const pageErrors: string[] = []

beforeAll(async () => {
  const server = await startOpenAIServer({
    reply: (req) => {
      const system = String((req.body.messages as Array<{ content: string }> | undefined)?.[0]?.content ?? '')
      if (system.includes('prompt v2') && v2DoesNotKnow.has(req.lastUserText)) return { text: "I don't know.", usage: { input: 30, output: 4 } }
      return { text: right[req.lastUserText] ?? '?', latencyMs: 20, usage: { input: 30, output: 12 } }
    },
  })
  const env = { CHILD_ORIGIN: server.origin, CHILD_BASE_URL: server.baseURL, EXPECT_LLM_ALLOW_RECORD_IN_CI: '1' }
  try {
    const recorded = await runVitest(dir, { ...env, EXPECT_LLM_REPLAY: 'record', REPORT_RUN: '1' })
    expect(recorded.json.numPassedTests, recorded.output).toBeGreaterThan(0)
  } finally {
    await server.close()
  }
  server.reset()
  const replayed = await runVitest(dir, { ...env, EXPECT_LLM_REPLAY: 'replay', REPORT_RUN: '2' })
  expect(server.requests, replayed.output).toHaveLength(0)
  golden = JSON.parse(readFileSync(join(reportsDir, 'support-answers.json'), 'utf8'))
  compare = JSON.parse(readFileSync(join(reportsDir, 'prompt-v1-vs-v2.json'), 'utf8'))
  const lines: string[] = []
  const code = await runReportCli(['--root', dir, '--out', pageFile], { out: (l) => lines.push(l), err: (l) => lines.push(l) })
  expect(code, lines.join('\n')).toBe(0)
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] })
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.on('pageerror', (e) => pageErrors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text())
  })
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) pageErrors.push(`request to ${r.url()}`)
  })
  await page.goto(pathToFileURL(pageFile).href)
  await page.waitForSelector('html[data-ready=true]')
  mkdirSync(shots, { recursive: true })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  rmSync(dir, { recursive: true, force: true })
})

const text = (selector: string) => page.locator(selector).first().innerText()
const rowIds = () => page.locator('[data-grid=cases] tbody tr[data-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row')))
const gotoSuite = async (key: string) => {
  await page.click(`[data-suite-link="${key}"]`)
  await page.waitForSelector(`article[data-suite="${key}"]`)
}
const goldenKey = 'report.golden.ts#support-answers'
const compareKey = 'report.golden.ts#prompt-v1-vs-v2'

describe('a replayed golden suite', () => {
  test('the reports came from the replay, with two runs of history', () => {
    expect(golden.cases).toHaveLength(12)
    expect(golden.usage.latencyMs.sources).toEqual({ recorded: 12 })
    expect(readHistory(join(dir, '.expect-llm', 'history', 'report.golden.ts', 'support-answers.jsonl')).entries).toHaveLength(2)
    expect(statSync(pageFile).size).toBeGreaterThan(10_000)
  })

  test("summary cards, checks table and distributions show the report's numbers", async () => {
    await gotoSuite(goldenKey)
    const s = golden.summary
    expect(await text('[data-card=passRate] dd')).toBe(`${(s.passRate! * 100).toFixed(1)}% (${s.passed}/${s.ran})`)
    expect(await text('[data-card=failed] dd')).toBe(String(s.failed))
    expect(await text('[data-card=tokens] dd')).toBe(`${golden.usage.total.totalTokens.toLocaleString('en-US')} of 100,000`)
    for (const name of ['rougeL', 'tokenF1'] as const) {
      const sc = golden.scorers[name]!
      expect(await text(`tr[data-check-row=${name}] [data-field=mean]`)).toBe(sc.mean.toFixed(2))
      expect(await text(`tr[data-check-row=${name}] [data-field=passing]`)).toBe(`${Math.round(sc.passRate * sc.count)}/${sc.count}`)
      const bars = await page.locator(`svg.histogram[data-check=${name}] rect.bar`).evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-count'))))
      expect(bars).toEqual(histogram(golden.cases.map((c) => c.scores[name]!.score)))
    }
    expect(await page.locator('svg.histogram[data-check=rougeL] .threshold').count()).toBe(1)
    expect(await text('[data-gate="mean.rougeL"]')).toContain(golden.checks.find((c) => c.name === 'mean.rougeL')!.message)
  })

  test('every chart has a text alternative: a title and a description with its figures', async () => {
    const charts = await page.locator('svg.chart').evaluateAll((svgs) =>
      svgs.map((svg) => ({
        role: svg.getAttribute('role'),
        labelled: (svg.getAttribute('aria-labelledby') ?? '').split(' ').map((id: string) => document.getElementById(id)?.textContent ?? ''),
      })),
    )
    expect(charts.length).toBeGreaterThanOrEqual(4)
    for (const c of charts) {
      expect(c.role).toBe('img')
      expect(c.labelled).toHaveLength(2)
      expect(c.labelled[1]).toMatch(/\d/)
    }
    // ... and its data as a table beside it (in a <details>), on the comparison's interval chart too.
    expect(await page.locator('figure.chart-figure:not(:has(details.chart-data table))').count()).toBe(0)
    await gotoSuite(compareKey)
    expect(await page.locator('figure.chart-figure').count()).toBeGreaterThan(0)
    expect(await page.locator('figure.chart-figure:not(:has(details.chart-data table))').count()).toBe(0)
  })

  test('filters: failures, a tag, a search; the status line counts what is shown', async () => {
    await gotoSuite(goldenKey)
    expect(await rowIds()).toEqual(golden.cases.map((c) => c.id))
    await page.selectOption('[data-grid=cases] select[data-filter=show]', 'failures')
    const failing = golden.cases.filter((c) => !c.pass).map((c) => c.id)
    expect(failing.length).toBeGreaterThan(1)
    expect(await rowIds()).toEqual(failing)
    expect(await text('[data-grid-status=cases]')).toBe(`Showing 1–${failing.length} of ${failing.length} (12 in all)`)
    await page.selectOption('[data-grid=cases] select[data-filter=show]', 'all')
    await page.selectOption('[data-grid=cases] select[data-filter=tag]', 'shipping')
    expect(await rowIds()).toEqual(['shipping', 'canada', 'tracking'])
    await page.selectOption('[data-grid=cases] select[data-filter=tag]', '')
    await page.fill('[data-grid=cases] input[data-filter=search]', 'gift card')
    await expect.poll(rowIds).toEqual(['giftcard'])
    await page.fill('[data-grid=cases] input[data-filter=search]', '')
    await expect.poll(rowIds).toHaveLength(12)
  })

  test('an output holding <script> and an onerror handler is shown as text and runs nothing', async () => {
    await gotoSuite(goldenKey)
    await page.click('button[data-expand=injected]')
    const shown = await page.locator('tr[data-detail=injected] pre.text').allInnerTexts()
    expect(shown).toContain(INJECTED)
    expect(await page.locator('tr[data-detail=injected] script, tr[data-detail=injected] img').count()).toBe(0)
    expect(await page.evaluate(() => window.__injected)).toBeUndefined()
    expect(pageErrors).toEqual([])
  })

  test('a 3,000-character word does not widen the page', async () => {
    await gotoSuite(goldenKey)
    await page.click('button[data-expand=long]')
    await page.locator('tr[data-detail=long] pre.text').first().waitFor()
    const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }))
    expect(scroll).toBeLessThanOrEqual(client)
    await page.screenshot({ path: join(shots, 'golden-suite.png'), fullPage: true })
  })

  test('keyboard: skip link to the report, sort by a column, open a case, all without a mouse', async () => {
    await page.goto('about:blank')
    await page.goto(`${pathToFileURL(pageFile).href}#suite=${encodeURIComponent(goldenKey)}`)
    await page.waitForSelector('html[data-ready=true]')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the report')
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main')
    await page.focus('button[data-sort=id]')
    await page.keyboard.press('Enter')
    expect(await page.getAttribute('th:has(button[data-sort=id])', 'aria-sort')).toBe('ascending')
    expect(await rowIds()).toEqual(golden.cases.map((c) => c.id).sort())
    await page.keyboard.press('Enter')
    expect(await rowIds()).toEqual(
      golden.cases
        .map((c) => c.id)
        .sort()
        .reverse(),
    )
    await page.focus('button[data-expand=refund]')
    await page.keyboard.press('Space')
    expect(await page.getAttribute('button[data-expand=refund]', 'aria-expanded')).toBe('true')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-expand'))).toBe('refund')
    expect(await text('tr[data-detail=refund] pre.text')).toBe(golden.cases.find((c) => c.id === 'refund')!.input as string)
  })

  test('history: a trend per check with the baseline marked, and the cases whose verdict changed', async () => {
    await gotoSuite(goldenKey)
    expect(await text('#history-h')).toBe('History (2 runs)')
    const trend = page.locator('svg.trend[data-title="mean rougeL"]')
    expect(await trend.locator('.point').count()).toBe(2)
    expect(await trend.locator('.baseline').count()).toBeGreaterThan(0)
    expect(await trend.locator('.point.current').getAttribute('data-value')).toBe(String(Math.round(golden.scorers.rougeL!.mean * 1e6) / 1e6))
    const changed = await page
      .locator('[data-changed]')
      .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-changed'), ...[...r.querySelectorAll('td')].slice(1).map((td) => td.textContent)]))
    expect(changed).toEqual([
      ['tracking', 'pass', 'fail'],
      ['cancel', 'fail', 'pass'],
    ])
    expect(await text('[data-changes-summary]')).toBe('2 cases changed: 1 now failing, 1 now passing, 0 added, removed or errored.')
    await page.selectOption('select[data-run=from]', '1')
    expect(await text('[data-changes-summary]')).toBe('No case changed its verdict between these runs.')
    await page.selectOption('select[data-run=from]', '0')
    await page.click('[data-changed=tracking] button')
    await expect.poll(rowIds).toEqual(['tracking'])
  })
})

describe('a replayed comparison', () => {
  test('means per variant and the paired difference with its interval, as in the report', async () => {
    await gotoSuite(compareKey)
    const sc = compare.scorers.find((s) => s.scorer === 'rougeL')!
    const pair = sc.pairs[0]!
    expect(await text('[data-compare-stats] tr[data-check-row=rougeL] [data-variant=v1]')).toBe(sc.means.v1!.toFixed(2))
    expect(await text('[data-compare-stats] tr[data-check-row=rougeL] [data-variant=v2]')).toBe(sc.means.v2!.toFixed(2))
    const signed = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(3)}`
    expect(pair.meanDiff).toBeLessThan(0)
    expect(await text('[data-compare-stats] tr[data-check-row=rougeL] [data-field=diff]')).toBe(signed(pair.meanDiff))
    expect(await page.locator('[data-compare-stats] tr[data-check-row=rougeL] td').nth(3).innerText()).toBe(`[${signed(pair.ci.low)}, ${signed(pair.ci.high)}]`)
    expect(await text('[data-gate=expectation]')).toContain(compare.expectation!.message)
  })

  test('only the cases that differ, when asked', async () => {
    await gotoSuite(compareKey)
    const ids = () => page.locator('[data-grid=compare] tbody tr[data-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row')))
    expect(await ids()).toHaveLength(8)
    await page.check('[data-grid=compare] input[data-filter=differing]')
    expect(await ids()).toEqual(compare.differing.map((d) => d.id))
    expect((await ids()).sort()).toEqual(['giftcard', 'refund', 'warranty'])
    await page.screenshot({ path: join(shots, 'comparison.png'), fullPage: true })
  })
})

describe('many cases', () => {
  test('the table shows a page at a time: only that page is in the DOM, Next and Previous by keyboard keep focus', async () => {
    const { report } = await runGolden({
      dir: join(dir, 'many'),
      testPath: join(dir, 'many.test.ts'),
      cases: makeCases(120),
      options: { baseline: undefined, report: false },
    })
    const file = join(dir, 'many.html')
    writeFileAtomic(file, renderReportHtml(buildPageData([report])))
    await page.goto(pathToFileURL(file).href)
    await page.waitForSelector('html[data-ready=true]')
    expect(await text('[data-grid-status=cases]')).toBe('Showing 1–50 of 120 (120 in all)')
    expect(await rowIds()).toEqual(report.cases.slice(0, 50).map((c) => c.id))
    await page.focus('[data-grid=cases] button[data-page=next]')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    expect(await text('[data-grid-status=cases]')).toBe('Showing 101–120 of 120 (120 in all)')
    expect(await rowIds()).toEqual(report.cases.slice(100).map((c) => c.id))
    // Next is disabled on the last page: focus moves to Previous rather than being lost.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-page'))).toBe('prev')
    await page.keyboard.press('Enter')
    expect(await text('[data-grid-status=cases]')).toBe('Showing 51–100 of 120 (120 in all)')
    await page.selectOption('[data-grid=cases] select[aria-label="Rows per page"]', '250')
    expect(await rowIds()).toHaveLength(120)
  })
})
