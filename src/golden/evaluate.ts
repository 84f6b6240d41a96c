/**
 * `evaluate`: the checks of a golden suite over a dataset, outside a test runner (a script, a scheduled
 * job, a production evaluation endpoint). The same `GoldenSuite` runs the cases, so scores, gates and the
 * report are those `describeGolden` would give.
 *
 * @module
 */
import { describeValue, formatMessage } from '../errors.js'
import { loadDataset } from './dataset.js'
import type { GoldenReport } from './report.js'
import { GoldenSuite } from './suite.js'
import { mutationCheckFailure, type MutationReport } from '../mutation/run.js'
import type { GoldenOptions, GoldenScorers } from './types.js'

/** Options of {@link evaluate}: those of `describeGolden` except the runner-bound ones, plus a name. */
export type EvaluateOptions<I = unknown, E = unknown, M = Record<string, unknown>, S extends GoldenScorers = GoldenScorers> = Omit<
  GoldenOptions<I, E, M, S>,
  'dataset' | 'annotate' | 'timeout' | 'baseline'
> & {
  /** The report's suite name. Default `'evaluate'`. */
  name?: string
}

/** The report of {@link evaluate}: the golden report, with `ok` and the failed checks' messages. */
export interface EvaluateReport extends GoldenReport {
  /** Every case passed (or `thresholds.passRate` held) and every gate held. */
  ok: boolean
  /** Each failed gate or case, one paragraph each; empty when `ok`. */
  failures: string[]
}

/**
 * Runs `task` on every case of `dataset` and scores each output with `scorers` (built-in checks, named
 * instances, composites and checks from `defineCheck`), then applies `thresholds` and `budget`: the report
 * object `describeGolden` writes, without a test runner. It writes no file unless `report: { dir }` asks.
 * With `mutate`, the checks also score the mutants of the references (the report's `mutation` section); a
 * check below `mutate.minScore` is a failure.
 *
 * @example
 * ```ts
 * import { defineCheck, evaluate } from 'expect-llm'
 *
 * const report = await evaluate('golden/support.jsonl', { task: answer, scorers: { rougeL: null, concise }, thresholds: { mean: { concise: 0.9 } } })
 * console.log(report.scorers.concise.mean, report.ok)
 * ```
 */
export async function evaluate<I = unknown, E = unknown, M = Record<string, unknown>, S extends GoldenScorers = GoldenScorers>(
  dataset: GoldenOptions<I, E, M, S>['dataset'],
  options: EvaluateOptions<I, E, M, S>,
): Promise<EvaluateReport> {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(formatMessage(`Failed to evaluate: the options must be an object, got ${describeValue(options)}. Pass { task, scorers }.`))
  }
  for (const key of ['annotate', 'timeout', 'baseline'] as const) {
    if (key in options) {
      throw new TypeError(
        formatMessage(
          `Failed to evaluate: "${key}" is an option of describeGolden only. ` +
            `${key === 'baseline' ? 'Compare reports yourself, or run the suite with describeGolden for a baseline.' : 'Leave it out.'}`,
        ),
      )
    }
  }
  const { name = 'evaluate', ...rest } = options
  const suite = new GoldenSuite(name, { ...rest, dataset, report: rest.report ?? false } as GoldenOptions<any, any, any>)
  suite.setCases(await loadDataset(dataset as never))
  await Promise.all(suite.cases.map((c) => suite.runCase(c)))
  // With `mutate`: the checks on the mutants, after the cases (as describeGolden's mutation block).
  const mutation = suite.mutation ? await suite.runMutation() : undefined
  const outcome = suite.finish({
    runner: 'evaluate',
    testPath: undefined,
    // Stryker disable next-line StringLiteral: updateMode is read only for a baseline, which evaluate refuses (and it has no testPath)
    updateMode: 'none',
  })
  const caseFailures = suite.cases.flatMap((c) => {
    const r = suite.results.get(c.id)
    const message = r ? suite.caseFailure(r) : undefined
    return message ? [message] : []
  })
  const mutationFailures = (mutation?.checks ?? []).flatMap((c) => mutationCheckFailure(mutation as MutationReport, c.check) ?? [])
  const failures = [...caseFailures, ...outcome.failures, ...mutationFailures]
  return { ...outcome.report, ok: failures.length === 0, failures }
}
