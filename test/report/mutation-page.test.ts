// The HTML report's mutation section in a real browser (Debian's chromium through playwright-core, as in
// browser.test.ts): a suite with mutation on, run through the core with operators of its own, drawn by
// the page: each check's score worst first, what it let pass and is blind to, the gate, the skipped checks
// and the surviving mutants, the same figures as the JSON report.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { validateCases } from '../../src/golden/dataset.js'
import type { GoldenReport } from '../../src/golden/report.js'
import { GoldenSuite } from '../../src/golden/suite.js'
import { renderReportHtml } from '../../src/report/html.js'
import { buildPageData } from '../../src/report/page-data.js'
import { double, negate } from '../mutation/user-operators.js'
import { execFileSync } from 'node:child_process'

// Debian's chromium, as browser.test.ts finds it (importing that file would run its tests here).
const chromiumPath = () => execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim().split('\n')[0]!

const dir = mkdtempSync(join(tmpdir(), 'mutation-page-'))
let browser: Browser
let page: Page
let report: GoldenReport
const pageErrors: string[] = []

beforeAll(async () => {
  const cases = [
    { id: 'refund', input: 'How long for a refund?', expected: 'You can ask for a refund within 30 days.', keywords: ['refund', '30 days'] },
    { id: 'cancel', input: 'Can I cancel?', expected: 'You can cancel within 2 hours of ordering.', keywords: ['cancel'], relevant: ['orders'] },
  ]
  const suite = new GoldenSuite('mutated bot', {
    dataset: cases,
    task: (_i: unknown, c: { expected?: unknown }) => ({ output: String(c.expected), retrieved: ['orders'] }),
    scorers: { keywords: true, exact: true, retrieval: true },
    mutate: { operators: [negate, double], minScore: 0.5 },
    report: { dir: join(dir, 'reports'), console: false, history: false },
  })
  suite.setCases(validateCases(cases))
  for (const c of suite.cases) await suite.runCase(c)
  await suite.runMutation()
  report = suite.finish({ runner: 'vitest', testPath: join(dir, 'bot.test.ts'), updateMode: 'new', env: {} }).report
  const file = join(dir, 'report.html')
  writeFileSync(file, renderReportHtml(buildPageData([report])))
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] })
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.on('pageerror', (e) => pageErrors.push(e.message))
  await page.goto(pathToFileURL(file).href)
  await page.waitForSelector('html[data-ready=true]')
}, 120_000)

afterAll(async () => {
  await browser?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('the section shows each check worst first with the JSON report figures, the gate, the skipped checks and the survivors', async () => {
  expect(report.mutation?.checks.map((c) => [c.check, c.score])).toEqual([
    ['keywords', 0.25],
    ['exact', 1],
  ])
  const section = page.locator('[data-section=mutation]')
  await expect(section.locator('h3').innerText()).resolves.toBe('How strong is this eval?')
  const rows = await section
    .locator('tr[data-mutation-row]')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => (cell as { innerText: string }).innerText.trim())))
  expect(rows).toEqual([
    ['keywords', '0.25', '3 of 4', 'my-negation', '< 0.50'],
    ['exact', '1', '0 of 4', '–', '≥ 0.50'],
  ])
  await expect(section.locator('.note').innerText()).resolves.toBe('Skipped: retrieval (it scores what retrieval returned, not the output).')
  const survivors = await section.locator('li[data-survivor]').allInnerTexts()
  expect(survivors).toEqual([
    'refund my-negation (can → cannot): “You cannot ask for a refund within 30 days.” passed by keywords',
    'cancel my-negation (can → cannot): “You cannot cancel within 2 hours of ordering.” passed by keywords',
    'cancel my-number (2 → 4): “You can cancel within 4 hours of ordering.” passed by keywords',
  ])
  expect(pageErrors).toEqual([])
})

test('a report without a mutation section has no such section', async () => {
  const { mutation: _m, ...plain } = report
  const file = join(dir, 'plain.html')
  writeFileSync(file, renderReportHtml(buildPageData([plain as GoldenReport])))
  const other = await browser.newPage()
  await other.goto(pathToFileURL(file).href)
  await other.waitForSelector('html[data-ready=true]')
  await expect(other.locator('[data-section=mutation]').count()).resolves.toBe(0)
  await other.close()
})
