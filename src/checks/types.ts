/**
 * The shape of a check: one definition per check, shared by the golden suites (which plan, run and
 * aggregate it) and the matchers (which keep only their message). See `docs/architecture.md`,
 * "Adding a check".
 *
 * @module
 */
import type { GoldenCase } from '../golden/types.js'
import type { RetrievedItem } from '../metrics/retrieval.js'
import type { Trajectory } from '../agents/types.js'

/** One check's verdict on one output. */
export interface CheckResult {
  /** In [0, 1]. */
  score: number
  /** `null`: recorded only, never fails. */
  threshold: number | null
  pass: boolean
  /** Why, in a few words (missing keywords, the judge's reason, the rank of the relevant document...). */
  detail?: string
  /** A panel of judges (`samples` listing them): each judge's score and verdict. */
  judges?: Array<{ judge: string; score: number; pass: boolean }>
  /** A panel's agreement: the share of judges that agree with the majority verdict. */
  agreement?: number
  /** A retrieval check's counts at k (summed over the runs of a case), for the dataset-level averages. */
  retrieval?: { found: number; k: number; relevant: number }
}

/** A check's result with the check's own data (n-gram statistics, edit counts...), for a matcher's message. */
export interface CheckOutcome<D = unknown> extends CheckResult {
  data?: D
}

/** What a check sees of one case. */
export interface CheckInput {
  output: string
  c: GoldenCase
  /** The case's string references: `expected` (when a non-empty string), then `acceptable`. */
  references: string[]
  /** Context documents: the task's, else the case's. */
  context?: string[]
  retrieved?: RetrievedItem[]
  /** The input as text (for judges). */
  inputText: string
  /** The scores of the other checks on this case (what a composite check combines). */
  scores?: Readonly<Record<string, CheckResult>>
  /** The agent run the task returned (the last turn, or the whole conversation), for the tool and goal checks. */
  trajectory?: Trajectory
  /** The tool definitions the task declared (`TaskResult.tools`). */
  tools?: unknown
}

/** Per-suite state of the checks, by scorer key, created once per suite (embedding order, see `SemanticEmbeddings`). */
export type CheckEnv = Record<string, unknown>

/** A check listed in `scorers`, its options resolved. */
export interface ScorerPlan {
  /** The key in `scorers` (`'rougeL'`, `'judge:correctness'`, `'short'`): reports, means, thresholds and baselines use it. */
  key: string
  /** The built-in check's name (`'judge'` for `'judge:correctness'`), or the user check's `name`. */
  name: string
  threshold: number | null
  options: Record<string, unknown>
  /** Listed by the user (as opposed to added because a case calls for it). */
  explicit: boolean
  /** The definition that runs it. */
  check: CheckDefinition
}

/** How a value in `scorers` that is not an options object is read. */
export interface CheckShorthands {
  /** Refuse a bare threshold, with this fix (checks that take options only). */
  noNumber?: string
  /** A string sets this option (`judge: 'is polite'` is `{ criteria: 'is polite' }`). */
  stringOption?: string
  /** An object without the option keys is this option's value (`schema: zodSchema`). */
  bareObject?: (raw: object) => Record<string, unknown> | undefined
}

/**
 * One check: its name, options, default threshold, which cases it applies to, and a `run` that scores
 * one output. Built-in checks live in `src/checks/<name>.ts`; user checks are made by `defineCheck`.
 */
export interface CheckDefinition {
  name: string
  /** The threshold for `true` (and when the options set none). */
  defaultThreshold: number | null
  /** Option keys accepted in `scorers` (besides `threshold`, when listed). */
  optionKeys: readonly string[]
  shorthands?: CheckShorthands
  /** Checks the resolved options (after the generic checks); may change the threshold. */
  resolve?: (plan: { key: string; threshold: number | null; options: Record<string, unknown> }, raw: unknown) => number | null
  /** Whether the check scores this case (a reference check needs a reference, ...). Default: every case. */
  appliesTo?: (c: GoldenCase, plan: ScorerPlan, references: readonly string[]) => boolean
  /** Whether a case calls for this check when `scorers` does not list it (`keywords` for a case with keywords). */
  calledFor?: (c: GoldenCase) => boolean
  /** Built-in checks that a case no longer calls for when this check is listed (`goal` judges a case's `criteria` instead of `judge`). */
  supersedes?: readonly string[]
  /** Runs after the other checks of the case, on their scores (composite). */
  after?: boolean
  /** Creates the per-suite state this check needs (embeddings). */
  setup?: (plan: ScorerPlan, cases: () => readonly GoldenCase[], env: CheckEnv) => void
  /** Scores one output. Usage and model errors throw. `undefined`: no score for this case (a composite missing a part, no tool call to check). */
  run: (input: CheckInput, plan: ScorerPlan, env: CheckEnv) => CheckOutcome | undefined | Promise<CheckOutcome | undefined>
}
