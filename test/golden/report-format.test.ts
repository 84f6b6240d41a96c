// The golden report's edges: the console summary of a report (every kind of case and line), where a report
// goes, the git state it records (a .git folder, a worktree's .git file, packed refs, a detached HEAD, CI
// variables), and money formatting.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import {
  fmtUsd,
  formatGoldenSummary,
  readGitInfo,
  reportPath,
  tokenAndCostChecks,
  writeReport,
  type GoldenReport,
  type ReportCase,
} from '../../src/golden/report.js'

const dir = mkdtempSync(join(tmpdir(), 'golden-report-format-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(() => vi.unstubAllEnvs())

const totals = (over: Partial<GoldenReport['usage']['app']> = {}) => ({
  calls: 1,
  inputTokens: 1200,
  outputTokens: 300,
  totalTokens: 1500,
  costUsd: 0.0042,
  unpricedModels: [],
  ...over,
})

function reportCase(id: string, over: Partial<ReportCase> = {}): ReportCase {
  return {
    id,
    input: `question ${id}`,
    output: `answer ${id}`,
    pass: true,
    runs: 1,
    passes: 1,
    flaky: false,
    scores: { rougeL: { score: 1, threshold: 0.5, pass: true } },
    latencyMs: 100,
    usage: { inputTokens: 1, outputTokens: 1, costUsd: 0 },
    ...over,
  }
}

function report(over: Partial<GoldenReport> = {}): GoldenReport {
  return {
    schemaVersion: 1,
    kind: 'golden',
    suite: 'support bot',
    file: 'test/bot.test.ts',
    runner: 'vitest',
    createdAt: '2026-01-01T00:00:00.000Z',
    durationMs: 10,
    git: { commit: null, branch: null },
    models: { app: [], judge: [], embedding: [] },
    options: { repeat: 1, passAt: 1, concurrency: 1, scorers: { rougeL: 0.5 } },
    summary: { cases: 1, ran: 1, filteredOut: 0, passed: 1, failed: 0, errored: 0, passRate: 1, flaky: 0 },
    scorers: {},
    checks: [],
    baseline: null,
    usage: {
      app: totals(),
      evaluator: { ...totals({ calls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 }), byKind: {} as never },
      total: totals(),
      latencyMs: { p50: 100, p95: 12_345, p99: null, sources: {} },
    },
    cases: [reportCase('a')],
    ...over,
  }
}

describe('formatGoldenSummary', () => {
  test('failing cases first, each with its scores, input, expected, actual, details, diagnosis and errors; then the table and totals', () => {
    const text = formatGoldenSummary(
      report({
        summary: { cases: 5, ran: 4, filteredOut: 1, passed: 1, failed: 3, errored: 1, passRate: 0.25, flaky: 1 },
        options: { repeat: 3, passAt: 2, concurrency: 1, scorers: { rougeL: 0.5, judge: null } },
        cases: [
          reportCase('ok'),
          reportCase('wrong', {
            pass: false,
            runs: 3,
            passes: 0,
            expected: 'the reference',
            scores: {
              rougeL: { score: 0.2, threshold: 0.5, pass: false, detail: 'too different' },
              judge: { score: 0.4, threshold: null, pass: false },
            },
            diagnosis: 'retrieval',
          }),
          reportCase('flaky', { pass: false, runs: 3, passes: 1, flaky: true, diagnosis: 'generation', assertError: 'expected polite' }),
          reportCase('broken', { pass: false, output: null, scores: {}, error: 'the task threw: down', errors: ['the task threw: down'] }),
        ],
        scorers: {
          rougeL: { count: 4, mean: 0.8, min: 0.2, max: 1, threshold: 0.5, passRate: 0.75, ci: {} as never },
          judge: { count: 1, mean: 0.4, min: 0.4, max: 0.4, threshold: null, passRate: 0, ci: {} as never },
        },
        usage: {
          app: totals({ costUsd: null, unpricedModels: ['local-model'] }),
          evaluator: { ...totals({ calls: 2, inputTokens: 10, outputTokens: 5, totalTokens: 15, costUsd: 0 }), byKind: {} as never },
          total: totals({ costUsd: 12.5 }),
          latencyMs: { p50: 100, p95: 12_345, p99: null, sources: { recorded: 3, measured: 1 } },
        },
        checks: [
          { name: 'passRate', ok: false, message: 'pass rate 1/4 = 25.0% < 90.0%' },
          { name: 'mean.rougeL', ok: true, message: 'mean rougeL 0.80 >= 0.50' },
        ],
      }),
      { reportFile: join(process.cwd(), '.expect-llm/reports/bot.json') },
    )
    expect(text).toMatchInlineSnapshot(`
      "golden › support bot (4 cases, 1 filtered out, repeat 3, passAt 2)
        ✗ wrong (0/3)  rougeL 0.20<0.50  judge 0.40
            input:    question wrong
            expected: the reference
            actual:   answer wrong
            rougeL: too different
            diagnosis: retrieval missed the relevant documents
        ✗ flaky (flaky 1/3)  rougeL 1
            input:    question flaky
            actual:   answer flaky
            diagnosis: the relevant documents were retrieved; the answer misused them
            assert: expected polite
        ! broken  
            input:    question broken
            actual:   (no output)
            error: the task threw: down
        ✓ ok  rougeL 1
            input:    question ok
            actual:   answer ok

        scorer   mean  min   max   threshold  passing
        rougeL   0.80  0.20  1     0.50       3/4
        judge    0.40  0.40  0.40  record     0/1

        pass rate: 1/4 (25.0%), 1 errored
        flaky: flaky (1/3)
        latency: P50 100 ms · P95 12.3 s · P99 n/a (recorded 3, measured 1)
        app:       1,500 tokens (in 1,200 / out 300), unknown (no price for local-model)
        evaluator: 15 tokens (in 10 / out 5), $0
        total:     1,500 tokens (in 1,200 / out 300), $12.50
        ✗ pass rate 1/4 = 25.0% < 90.0%
        ✓ mean rougeL 0.80 >= 0.50
        report: .expect-llm/reports/bot.json"
    `)
  })

  test('one case is "1 case"; no pass rate when nothing ran; a failed case with an error but an output is ✗, not !', () => {
    const one = formatGoldenSummary(report())
    expect(one.split('\n')[0]).toBe('golden › support bot (1 case)')
    expect(one).toContain('\n  pass rate: 1/1 (100.0%)\n')
    expect(one).toContain('\n  latency: P50 100 ms · P95 12.3 s · P99 n/a\n')
    const none = formatGoldenSummary(
      report({ summary: { cases: 0, ran: 0, filteredOut: 0, passed: 0, failed: 0, errored: 0, passRate: null, flaky: 0 }, cases: [] }),
    )
    expect(none).toContain('\n  pass rate: 0/0\n')
    const scorerError = formatGoldenSummary(report({ cases: [reportCase('e', { pass: false, error: 'scorer judge failed: 401' })] }))
    expect(scorerError).toContain('\n  ✗ e  rougeL 1\n')
    expect(scorerError).toContain('\n      error: scorer judge failed: 401')
  })

  test('a mutation run: its summary between blank lines, before the checks', () => {
    const mutation = {
      seed: 7,
      operators: [],
      minScore: null,
      cases: 1,
      mutants: 2,
      byOperator: {},
      survivedSuite: 0,
      checks: [],
      skipped: [],
      survivors: [],
      weak: [],
    }
    const text = formatGoldenSummary(report({ mutation, checks: [{ name: 'passRate', ok: true, message: 'pass rate 1/1' }] }))
    expect(text.split('\n').slice(-4)).toEqual(['', '  mutation (seed 7): 2 mutants of 1 case, 0 operators', '', '  ✓ pass rate 1/1'])
  })

  test('past maxCases: how many more, and how many of them fail, or that all pass', () => {
    const cases = [reportCase('f1', { pass: false }), reportCase('p1'), reportCase('p2'), reportCase('f2', { pass: false })]
    const failing = formatGoldenSummary(report({ cases }), { maxCases: 1 })
    expect(failing).toContain('\n  … 3 more cases (1 failing): see the JSON report\n')
    expect(failing).toContain('✗ f1')
    expect(failing).not.toContain('✗ f2')
    const passing = formatGoldenSummary(report({ cases }), { maxCases: 3 })
    expect(passing).toContain('\n  … 1 more case (all passing): see the JSON report\n')
    expect(formatGoldenSummary(report({ cases }), { maxCases: 4 })).not.toContain('more case')
  })

  test('more than 20 flaky cases: the first 20, then how many more', () => {
    const cases = Array.from({ length: 22 }, (_, i) => reportCase(`c${i}`, { flaky: true, runs: 2, passes: 1 }))
    const text = formatGoldenSummary(report({ cases }))
    const line = text.split('\n').find((l) => l.startsWith('  flaky: '))!
    expect(line.split(', ').slice(0, 2)).toEqual(['  flaky: c0 (1/2)', 'c1 (1/2)'])
    expect(line.endsWith('c19 (1/2), … 2 more')).toBe(true)
  })

  test('a compared baseline: each scorer against the baseline, the regressed and improved cases (15 at most)', () => {
    const regressed = Array.from({ length: 17 }, (_, i) => ({ id: `r${i}`, scorer: 'rougeL', baseline: 1, current: 0.5 }))
    const text = formatGoldenSummary(
      report({
        baseline: {
          path: '/x/b.json',
          status: 'compared',
          comparison: {
            scorers: [
              { scorer: 'rougeL', baseline: 0.9, current: 0.7, delta: -0.2, tolerance: 0.05, cases: 17 },
              { scorer: 'exact', baseline: 0.5, current: 0.6, delta: 0.1, tolerance: 0.05, cases: 17 },
            ],
            regressions: [],
            regressedCases: regressed,
            improvedCases: [{ id: 'up', scorer: 'pass', baseline: 0, current: 1 }],
            newCases: [],
          },
        },
      }),
    )
    expect(text).toContain('\n  baseline: rougeL 0.70 vs 0.90 (-0.200), exact 0.60 vs 0.50 (+0.100)\n')
    const regressedLine = text.split('\n').find((l) => l.startsWith('    regressed: '))!
    expect(regressedLine.startsWith('    regressed: r0 rougeL 1→0.50, r1 rougeL 1→0.50')).toBe(true)
    expect(regressedLine.endsWith('r14 rougeL 1→0.50, … 2 more')).toBe(true)
    expect(text).toContain('\n    improved: up pass 0→1')
    const empty = formatGoldenSummary(
      report({
        baseline: { path: '/x/b.json', status: 'compared', comparison: { scorers: [], regressions: [], regressedCases: [], improvedCases: [], newCases: [] } },
      }),
    )
    expect(empty).toContain('\n  baseline: no common scores')
    expect(empty).not.toContain('regressed:')
  })

  test('a written baseline shows its status and path relative to the working directory', () => {
    const text = formatGoldenSummary(report({ baseline: { path: join(process.cwd(), 'test/__golden__/b.json'), status: 'created' } }))
    expect(text).toContain('\n  baseline: created test/__golden__/b.json')
  })
})

describe('tokenAndCostChecks', () => {
  const checksOf = (budget: { maxCostUsd: number }, total: GoldenReport['usage']['total']) => {
    const out: unknown[][] = []
    const app = totals({ costUsd: 0.25 })
    tokenAndCostChecks(budget, { app, evaluator: totals({ costUsd: 0.5 }), total }, (...args) => out.push(args))
    return out
  }

  test('the cost within the budget, then over it: total, bound, app and evaluator', () => {
    expect(checksOf({ maxCostUsd: 0.75 }, totals({ costUsd: 0.75 }))).toEqual([['budget.maxCostUsd', true, 'cost $0.75 <= $0.75 (app $0.25, evaluator $0.50)']])
    expect(checksOf({ maxCostUsd: 0.5 }, totals({ costUsd: 0.75 }))).toEqual([['budget.maxCostUsd', false, 'cost $0.75 > $0.50 (app $0.25, evaluator $0.50)']])
  })

  test('an unknown cost fails and names every model without a price', () => {
    expect(checksOf({ maxCostUsd: 1 }, totals({ costUsd: null, unpricedModels: ['local-a', 'local-b'] }))).toEqual([
      [
        'budget.maxCostUsd',
        false,
        'cost unknown: no price for local-a, local-b',
        "the cost cannot be checked against the budget of $1.00: no price for local-a, local-b. Add them with configure({ pricing: { '<model>': { inputPerMTok, outputPerMTok } } }).",
      ],
    ])
  })
})

describe('where reports go', () => {
  test('<dir>/<test file relative to the working directory>/<slug>.json; outside it, without the leading ../', () => {
    expect(reportPath('out', join(process.cwd(), 'test/a.test.ts'), 'bot')).toBe(resolve('out', 'test/a.test.ts', 'bot.json'))
    expect(reportPath('out', undefined, 'bot')).toBe(resolve('out', 'unknown-file', 'bot.json'))
    expect(reportPath('out', resolve(process.cwd(), '../../elsewhere/b.test.ts'), 'bot')).toBe(resolve('out', 'elsewhere/b.test.ts', 'bot.json'))
  })

  test('a folder under the working directory whose name starts with .. keeps its path, and so do later names ending in ..', () => {
    expect(reportPath('out', join(process.cwd(), '..drafts/v2../a.test.ts'), 'bot')).toBe(resolve('out', '..drafts/v2../a.test.ts', 'bot.json'))
  })

  test('writeReport writes pretty JSON with a final newline, atomically (no temporary file left), creating folders', () => {
    const path = join(dir, 'r', 'deep', 'bot.json')
    const r = report()
    writeReport(path, r)
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify(r, null, 2)}\n`)
    expect(readdirSync(join(dir, 'r', 'deep'))).toEqual(['bot.json'])
  })

  test('fmtUsd: $0, four decimals under a cent, two from a cent on, unknown for null', () => {
    expect([fmtUsd(0), fmtUsd(0.0042), fmtUsd(0.00999), fmtUsd(0.01), fmtUsd(12.5), fmtUsd(null)]).toEqual([
      '$0',
      '$0.0042',
      '$0.0100',
      '$0.01',
      '$12.50',
      'unknown',
    ])
  })
})

describe('readGitInfo', () => {
  const sha = (c: string) => c.repeat(40)
  let n = 0
  /** A folder with a .git and a working folder below it, outside any real repository (git rev-parse fails there). */
  function repoWith(files: Record<string, string>, gitFile?: string): string {
    const root = join(dir, `git${++n}`)
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(root, rel, '..'), { recursive: true })
      writeFileSync(join(root, rel), text)
    }
    mkdirSync(join(root, 'work', 'sub'), { recursive: true })
    if (gitFile !== undefined) writeFileSync(join(root, 'work', '.git'), gitFile)
    return root
  }
  const noCi = () => {
    for (const key of ['GITHUB_SHA', 'CI_COMMIT_SHA', 'GITHUB_HEAD_REF', 'GITHUB_REF_NAME', 'CI_COMMIT_REF_NAME']) vi.stubEnv(key, undefined)
  }

  test('a branch and its commit from .git, found from a folder below', () => {
    noCi()
    const root = repoWith({ 'work/.git/HEAD': 'ref: refs/heads/feature/x\n', 'work/.git/refs/heads/feature/x': `${sha('a')}\n` })
    expect(readGitInfo(join(root, 'work', 'sub'))).toEqual({ commit: sha('a'), branch: 'feature/x' })
  })

  test('a commit from packed refs', () => {
    noCi()
    const root = repoWith({
      'work/.git/HEAD': 'ref: refs/heads/main',
      'work/.git/packed-refs': `# pack-refs with: peeled\n${sha('b')} refs/heads/other\n${sha('c')} refs/heads/main\n`,
    })
    expect(readGitInfo(join(root, 'work'))).toEqual({ commit: sha('c'), branch: 'main' })
  })

  test("a worktree: .git is a file pointing at the worktree's folder, whose commondir holds the refs", () => {
    noCi()
    const root = repoWith(
      {
        'main/.git/worktrees/w/HEAD': 'ref: refs/heads/topic\n',
        'main/.git/worktrees/w/commondir': '../..\n',
        'main/.git/refs/heads/topic': `${sha('d')}\n`,
      },
      `gitdir: ${join(dir, `git${n + 1}`, 'main/.git/worktrees/w')}\n`,
    )
    expect(readGitInfo(join(root, 'work', 'sub'))).toEqual({ commit: sha('d'), branch: 'topic' })
  })

  test('a detached HEAD gives the commit and no branch', () => {
    noCi()
    const root = repoWith({ 'work/.git/HEAD': `${sha('e')}\n` })
    expect(readGitInfo(join(root, 'work'))).toEqual({ commit: sha('e'), branch: null })
  })

  test('without git, the CI variables (GitHub first, then GitLab); a pull request head ref before the ref name', () => {
    noCi()
    const root = repoWith({ 'work/placeholder': '' })
    expect(readGitInfo(join(root, 'work'))).toEqual({ commit: null, branch: null })
    vi.stubEnv('CI_COMMIT_SHA', sha('f'))
    vi.stubEnv('CI_COMMIT_REF_NAME', 'gitlab-branch')
    expect(readGitInfo(join(root, 'work'))).toEqual({ commit: sha('f'), branch: 'gitlab-branch' })
    vi.stubEnv('GITHUB_SHA', sha('1'))
    vi.stubEnv('GITHUB_REF_NAME', '12/merge')
    expect(readGitInfo(join(root, 'work'))).toEqual({ commit: sha('1'), branch: '12/merge' })
    vi.stubEnv('GITHUB_HEAD_REF', 'pr-branch')
    expect(readGitInfo(join(root, 'work')).branch).toBe('pr-branch')
  })

  test('a .git that cannot be read (a socket) ends the search: the .git of a folder above is not read', async () => {
    noCi()
    const root = repoWith({ 'work/placeholder': '', '.git/HEAD': `${sha('7')}\n` })
    const socket = createServer()
    await new Promise<void>((done) => socket.listen(join(root, 'work', '.git'), done))
    try {
      expect(readGitInfo(join(root, 'work'))).toEqual({ commit: null, branch: null })
    } finally {
      await new Promise((done) => socket.close(done))
    }
  })

  test('a HEAD on a ref outside refs/heads keeps the whole ref: only a leading refs/heads/ is dropped', () => {
    noCi()
    const root = repoWith({ 'work/.git/HEAD': 'ref: refs/tags/refs/heads/v1\n', 'work/.git/refs/tags/refs/heads/v1': `${sha('2')}\n` })
    expect(readGitInfo(join(root, 'work'))).toEqual({ commit: sha('2'), branch: 'refs/tags/refs/heads/v1' })
  })

  test('a ref found neither in the worktree folder nor its packed refs is read from the common folder', () => {
    noCi()
    const root = repoWith(
      {
        'main/.git/worktrees/w/HEAD': 'ref: refs/heads/topic\n',
        'main/.git/worktrees/w/commondir': '../..\n',
        'main/.git/worktrees/w/packed-refs': `${sha('3')} refs/heads/other\n`,
        'main/.git/packed-refs': `${sha('4')} refs/heads/topic\n`,
      },
      `gitdir: ${join(dir, `git${n + 1}`, 'main/.git/worktrees/w')}\n`,
    )
    expect(readGitInfo(join(root, 'work', 'sub'))).toEqual({ commit: sha('4'), branch: 'topic' })
  })

  test('no .git above the folder but git knows the repository (GIT_DIR): the commit from git rev-parse', () => {
    noCi()
    const elsewhere = repoWith({ 'repo.git/HEAD': 'ref: refs/heads/main\n', 'repo.git/refs/heads/main': `${sha('5')}\n`, 'repo.git/objects/.keep': '' })
    const root = repoWith({ 'work/placeholder': '' })
    vi.stubEnv('GIT_DIR', join(elsewhere, 'repo.git'))
    expect(readGitInfo(join(root, 'work'))).toEqual({ commit: sha('5'), branch: null })
  })

  test("without git, git rev-parse's complaint is not printed", () => {
    noCi()
    const root = repoWith({ 'work/placeholder': '' })
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      expect(readGitInfo(join(root, 'work'))).toEqual({ commit: null, branch: null })
      expect(write).not.toHaveBeenCalled()
    } finally {
      write.mockRestore()
    }
  })

  test('a branch whose ref cannot be found keeps the branch; the commit comes from CI', () => {
    noCi()
    vi.stubEnv('GITHUB_SHA', sha('9'))
    const root = repoWith({ 'work/.git/HEAD': 'ref: refs/heads/unborn\n' })
    expect(readGitInfo(join(root, 'work'))).toEqual({ commit: sha('9'), branch: 'unborn' })
  })
})
