/**
 * The shape of the HTML report's data (the JSON block of the page), shared by the builder
 * (`page-data.ts`, in Node) and the page's script (`client/app.ts`, in the browser). No imports, so that
 * the browser build type-checks without the library.
 *
 * @module
 */

/** Who ran, where and when: shared by both kinds of suite. */
export interface PageRunInfo {
  /** Unique in the page: `<test file>#<suite slug>`. */
  key: string
  name: string
  file: string | null
  createdAt: string
  commit: string | null
  branch: string | null
  runner: string
  durationMs: number
  /** Merged from this many shards. */
  shards?: number
  /** A single shard's report: `i/n`. */
  shard?: string
  /** Every check passed (and, for a comparison, its expectation held). */
  ok: boolean
}

/** One check (scorer) over a suite. */
export interface PageCheck {
  name: string
  count: number
  mean: number
  min: number
  max: number
  /** The per-case threshold, `null` when the check only records. */
  threshold: number | null
  /** The gate on the mean (`thresholds.mean`), if any. */
  meanThreshold: number | null
  passRate: number
  ci: [number, number]
  /** Cases per bin: bin i holds scores in [i/10, (i+1)/10), the last one also 1. */
  bins: number[]
  /** The baseline's mean, when the run was compared with one. */
  baseline: number | null
}

/** One case of a golden suite, as the table shows it. */
export interface PageCase {
  id: string
  tags: string[]
  status: 'pass' | 'fail' | 'error'
  flaky: boolean
  /** Failing now but passing in the previous run, or listed as regressed against the baseline. */
  regressed: boolean
  runs: number
  passes: number
  input: string
  expected?: string
  output: string | null
  /** Per check: score `s`, threshold `t`, pass `p`, detail `d` (the judge's reasoning, missing keywords...). */
  scores: Record<string, { s: number; t: number | null; p: boolean; d?: string }>
  diagnosis?: string
  errors?: string[]
  assertError?: string
  latencyMs: number
}

/** A suite's history: one point per run, oldest first. */
export interface PageHistory {
  /** Every case id seen in the runs shown; `runs[j].verdicts[i]` is the verdict of `ids[i]`. */
  ids: string[]
  runs: Array<{
    at: string
    commit: string | null
    branch: string | null
    passRate: number | null
    means: Record<string, number>
    /** One character per id: `p` pass, `f` fail, `e` errored, `-` not in that run. */
    verdicts: string
    /** This is the run the rest of the page shows. */
    current: boolean
  }>
  /** The baseline's mean per check (from the current run's comparison), drawn on the trends. */
  baseline: Record<string, number> | null
  thresholds: Record<string, number | null>
}

/** A `describeGolden` suite in the page. */
export interface PageGolden extends PageRunInfo {
  kind: 'golden'
  summary: {
    cases: number
    ran: number
    passed: number
    failed: number
    errored: number
    flaky: number
    regressed: number
    passRate: number | null
    filteredOut: number
  }
  checks: Array<{ name: string; ok: boolean; message: string }>
  budget: {
    p95LatencyMs: number | null
    p95LatencyLimit: number | null
    totalTokens: number
    tokenLimit: number | null
    costUsd: number | null
    costLimit: number | null
    appCostUsd: number | null
    evaluatorCostUsd: number | null
    unpricedModels: string[]
  }
  scorers: PageCheck[]
  tags: string[]
  cases: PageCase[]
  history: PageHistory | null
  /** Mutation testing of the checks (the report's `mutation` section), when the suite ran it. */
  mutation?: PageMutation
}

/** The mutation testing of a suite's checks, as the page shows it (worst check first). */
export interface PageMutation {
  seed: number
  operators: string[]
  minScore: number | null
  cases: number
  mutants: number
  survivedSuite: number
  checks: Array<{ name: string; mutants: number; rejected: number; score: number | null; blindTo: string[]; errors: number; gate: boolean | null }>
  skipped: Array<{ check: string; reason: string }>
  survivors: Array<{ case: string; operator: string; change: string; text: string; passedBy: string[]; survivedSuite: boolean }>
}

/** A `compareGolden` suite in the page. */
export interface PageCompare extends PageRunInfo {
  kind: 'compare'
  variants: string[]
  cases: number
  passRates: Record<string, number>
  scorers: Array<{
    name: string
    means: Record<string, number>
    pairs: Array<{
      a: string
      b: string
      cases: number
      meanDiff: number
      low: number
      high: number
      confidence: number
      wins: number
      ties: number
      losses: number
    }>
  }>
  mcnemar: Array<{ a: string; b: string; aOnly: number; bOnly: number; pValue: number; method: 'exact' | 'chi-square'; statistic?: number }>
  expectation: null | { better: string; scorer: string; minDelta: number; ok: boolean; message: string }
  /** Every case (or, for a report written before rows were kept, the differing ones). */
  rows: Array<{
    id: string
    input: string
    expected?: string
    tags: string[]
    outputs: Record<string, string | null>
    pass: Record<string, boolean>
    scores: Record<string, Record<string, number>>
    details: Record<string, Record<string, string>>
    differs: boolean
  }>
  /** Only the differing cases are known (an older report without `rows`). */
  differingOnly: boolean
  history: { runs: Array<{ at: string; commit: string | null; means: Record<string, Record<string, number>>; current: boolean }> } | null
}

export type PageSuite = PageGolden | PageCompare

/** Everything the page shows. */
export interface PageData {
  v: 1
  title: string
  generatedAt: string
  suites: PageSuite[]
  /** Problems met while gathering the data (unreadable history lines, ...), shown at the top. */
  notes: string[]
}
