// Benchmark: the HTML report of a golden suite of 5,000 cases (answers of 200 to 500 characters,
// scored with rougeL, tokenF1 and a keyword check) with 50 runs of history, against the same page for
// 50 cases, in the same process. Reported: the HTML size (target < 5 MB), the time to write it, and
// in headless Chromium (Debian's chromium, driven by playwright-core) the time from navigation start
// until the page is drawn and answers input (data-ready, then a filter applied), median of several
// loads (target < 2 s), with the ratio to the 50-case page.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { validateCases } from '../src/golden/dataset.js'
import type { GoldenReport } from '../src/golden/report.js'
import { seededRandom } from '../src/golden/stats.js'
import { GoldenSuite } from '../src/golden/suite.js'
import type { GoldenOptions } from '../src/golden/types.js'
import { goldenHistoryEntry, type GoldenHistoryEntry } from '../src/report/history.js'
import { renderReportHtml, writeFileAtomic } from '../src/report/html.js'
import { buildPageData } from '../src/report/page-data.js'

const topics = ['refunds', 'shipping', 'returns', 'accounts', 'warranty', 'gift cards', 'invoices', 'passwords']
// 3,000 made-up words picked with a Zipf-like skew: text that gzip compresses no better than English
// (random letters carry more information per character than prose), so the size is not flattered.
const vocabulary = (() => {
  const rand = seededRandom(3)
  return Array.from({ length: 3000 }, () =>
    Array.from({ length: 2 + Math.floor(rand() * 8) }, () => String.fromCharCode(97 + Math.floor(rand() * 26))).join(''),
  )
})()

/** A 5,000-case (or n-case) golden run, scored for real by the suite's own scorers. */
async function goldenRun(n: number, dir: string): Promise<GoldenReport> {
  const rand = seededRandom(7)
  const sentence = (k: number) => Array.from({ length: k }, () => vocabulary[Math.floor(vocabulary.length * rand() ** 3)]).join(' ')
  const dataset = Array.from({ length: n }, (_, i) => ({
    id: `case-${String(i + 1).padStart(5, '0')}`,
    input: `Customer question ${i + 1} about ${topics[i % topics.length]}: ${sentence(12)}?`,
    expected: `About ${topics[i % topics.length]}: ${sentence(30)}. Allow ${(i % 9) + 2} days.`,
    ...(i % 4 === 0 ? { keywords: [`${(i % 9) + 2} days`] } : {}),
    tags: [topics[i % topics.length]!],
  }))
  const suite = new GoldenSuite('support bot at scale', {
    dataset,
    task: (_input: string, c: { expected?: unknown }) => {
      const expected = String(c.expected)
      // About half of the answer is the reference, the rest is other words: scores spread over [0, 1].
      const keep = expected
        .split(' ')
        .filter(() => rand() < 0.6)
        .join(' ')
      return {
        output: `${keep} ${sentence(20 + Math.floor(rand() * 30))}.`,
        latencyMs: 200 + Math.floor(rand() * 900),
        usage: { inputTokens: 150, outputTokens: 60, model: 'gpt-4o-mini' },
      }
    },
    scorers: { rougeL: 0.4, tokenF1: null },
    annotate: false,
    thresholds: { passRate: 0.5, mean: { rougeL: 0.4 } },
    budget: { p95LatencyMs: 2000 },
    report: { dir: join(dir, 'reports'), console: false, history: false },
  } as GoldenOptions<any, any, any>)
  suite.setCases(validateCases(dataset))
  for (const c of suite.cases) await suite.runCase(c)
  return suite.finish({ runner: 'vitest', testPath: join(dir, 'bench.test.ts'), updateMode: 'none', env: {} }).report
}

/** 50 earlier runs: the same cases, a commit a day, means drifting and a few verdicts flipping each time. */
function history(report: GoldenReport, runs: number): GoldenHistoryEntry[] {
  const rand = seededRandom(11)
  const base = goldenHistoryEntry(report)
  return Array.from({ length: runs }, (_, r) => {
    const at = new Date(Date.parse(report.createdAt) - (runs - r) * 86_400_000).toISOString()
    const verdicts = [...base.cases.verdicts].map((v) => (rand() < 0.03 ? (v === 'p' ? 'f' : 'p') : v)).join('')
    const drift = (m: number) => Math.round(Math.min(1, Math.max(0, m + (rand() - 0.5) * 0.1)) * 1e6) / 1e6
    return {
      ...base,
      createdAt: at,
      git: { ...base.git, commit: (0x1000000 + r * 7919).toString(16).padEnd(40, '0') },
      scorers: Object.fromEntries(Object.entries(base.scorers).map(([k, s]) => [k, { ...s, mean: drift(s.mean) }])),
      cases: { ...base.cases, verdicts },
    }
  })
}

function chromiumPath(): string {
  return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim().split('\n')[0]!
}

// The page functions below run in the browser (playwright serializes them); the project's tsconfig has
// no DOM library, so the globals they use are declared here, loosely.
declare const document: {
  activeElement: { id: string; textContent: string | null; getAttribute(name: string): string | null } | null
  getElementById(id: string): { textContent: string | null } | null
  querySelector(selector: string): { textContent: string | null } | null
  documentElement: { scrollWidth: number; clientWidth: number }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

export async function run(): Promise<void> {
  const n = Number(process.env.BENCH_REPORT_N ?? 5000)
  const runs = Number(process.env.BENCH_REPORT_RUNS ?? 50)
  const loads = Number(process.env.BENCH_REPORT_LOADS ?? 5)
  const dir = mkdtempSync(join(tmpdir(), 'expect-llm-bench-report-'))
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] })
  try {
    const pages: Record<string, { file: string; bytes: number; writeMs: number; cases: number }> = {}
    for (const [name, cases] of [
      ['large', n],
      ['small', 50],
    ] as const) {
      const report = await goldenRun(cases, dir)
      const entries = history(report, runs)
      const started = performance.now()
      const file = join(dir, `${name}.html`)
      const data = buildPageData([report], { history: () => entries })
      writeFileAtomic(file, renderReportHtml(data))
      pages[name] = { file, bytes: statSync(file).size, writeMs: performance.now() - started, cases }
    }
    const times: Record<string, number[]> = { large: [], small: [] }
    for (let i = 0; i < loads; i++) {
      for (const name of i % 2 === 0 ? ['large', 'small'] : ['small', 'large']) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
        await page.goto(pathToFileURL(pages[name]!.file).href)
        await page.waitForSelector('html[data-ready=true]')
        // Interactive: the page answers a filter (failures only) and has drawn the result.
        await page.selectOption('[data-grid=cases] select[data-filter=show]', 'failures')
        await page.waitForFunction(() => /^Showing|^No rows/.test(document.querySelector('[data-grid-status=cases]')?.textContent ?? ''))
        times[name]!.push(await page.evaluate(() => performance.now()))
        await page.close()
      }
    }
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(2)} MB`
    const large = pages.large!
    const small = pages.small!
    console.log(`report: a golden suite with ${runs} runs of history, ${loads} loads each in headless Chromium (${chromiumPath()})`)
    console.log(
      `  ${large.cases} cases: HTML ${mb(large.bytes)} (target < 5 MB), written in ${large.writeMs.toFixed(0)} ms; interactive after median ${median(times.large!).toFixed(0)} ms (${times.large!.map((t) => t.toFixed(0)).join(', ')}) (target < 2000 ms)`,
    )
    console.log(
      `  ${small.cases} cases:   HTML ${mb(small.bytes)}, written in ${small.writeMs.toFixed(0)} ms; interactive after median ${median(times.small!).toFixed(0)} ms (${times.small!.map((t) => t.toFixed(0)).join(', ')})`,
    )
    console.log(
      `  ratio ${large.cases} / ${small.cases} cases: size ${(large.bytes / small.bytes).toFixed(1)}x, time to interactive ${(median(times.large!) / median(times.small!)).toFixed(2)}x`,
    )
    if (large.bytes >= 5 * 1024 * 1024) console.log('  ✗ the HTML is over 5 MB')
    if (median(times.large!) >= 2000) console.log('  ✗ the page took 2 s or more to become interactive')
  } finally {
    await browser.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
