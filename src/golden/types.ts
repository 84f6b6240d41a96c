/**
 * Types of golden datasets, tasks, scorers and suite options, shared by the runner-agnostic core
 * (`src/golden/*`) and the Vitest and Jest bindings.
 *
 * @module
 */
import type { EmbedderLike } from '../embedders/types.js'
import type { JudgeLike, JudgeScale } from '../judges/types.js'
import type { RetrievedItem } from '../metrics/retrieval.js'
import type { RougeTokenizer } from '../metrics/rouge.js'
import type { ChrFOptions } from '../metrics/chrf.js'
import type { TerOptions } from '../metrics/ter.js'
import type { SchemaLike } from '../schema.js'
import type { ModerationOptions } from '../safety/moderation.js'
import type { ExpectedTools, ExpectedToolsInput } from '../agents/expected.js'
import type { JudgeLike as GoalJudge } from '../judges/types.js'
import type { MutateOptions } from '../mutation/types.js'

export type { ExpectedTools, ExpectedToolsInput, ExpectedToolCall } from '../agents/expected.js'

/**
 * One case of a golden dataset, after loading and validation. `I`, `E` and `M` keep the user's types of
 * `input`, `expected` and `metadata`.
 */
export interface GoldenCase<I = unknown, E = unknown, M = Record<string, unknown>> {
  /** Stable identifier: given in the dataset, or derived from a hash of `input` (`case-<8 hex>`). */
  id: string
  /** What the task receives: a string or an object. */
  input: I
  /** The answer a good system gives (a reference for the lexical, semantic and judge scorers). */
  expected?: E
  /**
   * Other acceptable answers; reference scorers take the best one (ROUGE as rouge-score's
   * `score_multi`; BLEU, chrF and TER with sacrebleu's multi-reference rules).
   */
  acceptable?: string[]
  /** Context documents the answer must be faithful to (used by `faithfulness` when the task returns none). */
  context?: string[]
  /** Document ids retrieval must find (turns on the `retrieval` scorer). */
  relevant?: string[]
  /** Facts the answer must state (turns on the `keywords` scorer). */
  keywords?: string[]
  /** `false`: the right answer is a refusal (turns on the `refusal` scorer). */
  answerable?: boolean
  /** What the judge checks for this case (turns on the `judge` scorer). */
  criteria?: string
  /** Labels for `filter`. */
  tags?: string[]
  /**
   * The tool calls the agent must make (turns on the `toolF1`, `toolOrder` and, when a call gives
   * arguments, `toolArguments` scorers): names, optional partial arguments, the order mode and whether
   * other calls are allowed, as `toCallTools(list, { order, extra })`. An empty list: no tool call.
   */
  expectedTools?: ExpectedTools
  /**
   * A conversation instead of a single input (`input` is then these messages, which the task receives).
   * The last message is the user's; with a {@link turnByTurn} task each user message is one turn.
   */
  messages?: ConversationMessage[]
  /** Anything else, passed through to `task`, `assert` and the report. */
  metadata?: M
  /** Where the case came from: `file:line` for files, `dataset[i]` for arrays. */
  source?: string
}

/**
 * A case as written in a dataset: `id` is optional, `context` may be one string, `expectedTools` may be a
 * plain list, and a case with `messages` has no `input`.
 */
export type GoldenCaseInput<I = unknown, E = unknown, M = Record<string, unknown>> = Omit<
  GoldenCase<I, E, M>,
  'id' | 'context' | 'source' | 'expectedTools' | 'input' | 'messages'
> & {
  id?: string | number
  context?: string | string[]
  expectedTools?: ExpectedToolsInput
} & ({ input: I; messages?: undefined } | { messages: ConversationMessage[]; input?: undefined })

/** One message of a case's conversation (`messages`), in the OpenAI chat shape most SDKs accept. */
export interface ConversationMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/**
 * A dataset: a file path (`.jsonl`, `.json`, `.yaml`/`.yml`, `.csv`; relative paths resolve against the
 * current working directory), an array of cases, or a function returning either (possibly async).
 */
export type DatasetSource<I = unknown, E = unknown, M = Record<string, unknown>> =
  | string
  | URL
  | ReadonlyArray<GoldenCaseInput<I, E, M>>
  | (() => string | URL | ReadonlyArray<GoldenCaseInput<I, E, M>> | Promise<string | URL | ReadonlyArray<GoldenCaseInput<I, E, M>>>)

/** Token usage of the application under test, as a task may report it. */
export interface TaskUsage {
  inputTokens: number
  outputTokens?: number
  /** The model that answered, for pricing. */
  model?: string
  /** Cost in USD, when you know it better than the pricing table. */
  costUsd?: number
}

/** What a task returns when it has more to say than the text. */
export interface TaskResult {
  /** The answer text, scored by the scorers. Default, with a `trajectory`: its final assistant text. */
  output?: string
  /**
   * An agent run, scored by the tool and goal checks: anything `readTrajectory` reads (an OpenAI
   * completion or messages array, an AI SDK result or its steps, an Anthropic response or conversation,
   * LangChain messages, plain items). A task may also return such a value directly.
   */
  trajectory?: unknown
  /**
   * The tool definitions the task's request declared (any format `toHaveValidToolArguments` takes):
   * `toolArguments` checks every call against their schemas.
   */
  tools?: unknown
  /** The context documents the answer was generated from (checked by `faithfulness`). */
  context?: string | string[]
  /** What retrieval returned, best first or with scores (checked by `retrieval` against the case's `relevant`). */
  retrieved?: RetrievedItem[]
  /** Token usage; default: read from the model responses the task received (recorded usage on replay). */
  usage?: TaskUsage
  /** Latency in ms; default: the recorded latency of the task's model calls on replay, else wall time. */
  latencyMs?: number
}

/**
 * The application under test: from a case's input (for a conversation: its messages) to an answer: the
 * text, a {@link TaskResult}, or for an agent what the SDK returned (read by `readTrajectory`; the text
 * checks score its final assistant text). See `turnByTurn` for a task called once per user turn.
 */
export type GoldenTask<I = unknown, E = unknown, M = Record<string, unknown>> = (input: I, c: GoldenCase<I, E, M>) => unknown

/** A threshold, or `null` to record the score without ever failing on it. */
export type Threshold = number | null

/** Options of the reference-based lexical scorers. */
export interface LexicalScorerOptions {
  threshold?: Threshold
}

/** Options of the ROUGE scorers. */
export interface RougeScorerOptions extends LexicalScorerOptions {
  /** Porter stemming as rouge-score's `use_stemmer=True`. */
  stemmer?: boolean
  tokenizer?: RougeTokenizer
  /** Which ROUGE value is the score. Default `'f'`. */
  measure?: 'f' | 'precision' | 'recall'
}

/** Options of the `rougeL` scorer. */
export interface RougeLScorerOptions extends RougeScorerOptions {
  /** `'rougeLsum'`: summary-level LCS, one sentence per line (as `toHaveRougeLAbove`). Default `'rougeL'`. */
  variant?: 'rougeL' | 'rougeLsum'
}

/** Options of the `chrF` scorer: a threshold and sacrebleu's `CHRF` options (`wordOrder: 2` is chrF++). */
export interface ChrFScorerOptions extends LexicalScorerOptions, ChrFOptions {}

/**
 * Options of the `ter` scorer: sacrebleu's `TER` options and a threshold. The score of the check is
 * 1 - TER (floored at 0), so that higher is better as for every other check; `maxTer` gives the
 * threshold as a TER instead (`{ maxTer: 0.3 }` is `{ threshold: 0.7 }`).
 */
export interface TerScorerOptions extends LexicalScorerOptions, TerOptions {
  /** Fail a case whose TER is above this (the same as `threshold: 1 - maxTer`). */
  maxTer?: number | null
}

/** Options of the `semantic` scorer. */
export interface SemanticScorerOptions {
  /** Minimum cosine similarity. Default 0.8 (`DEFAULT_SIMILARITY_THRESHOLD`). */
  threshold?: Threshold
  embedder?: EmbedderLike
}

/** Options of the `judge` scorer (a case's `criteria` are added to these). */
export interface JudgeScorerOptions {
  criteria?: string
  scale?: JudgeScale
  /** Default 0.7 (`DEFAULT_JUDGE_THRESHOLD`). */
  threshold?: Threshold
  template?: string
  judge?: JudgeLike
  /** Ask n times, or ask each judge of a list once (a panel; replaces `judge`); the majority decides. */
  samples?: number | JudgeLike[]
  /** Compare with the case's `expected` answer (the correctness template). Default `true` when the case has one. */
  useReference?: boolean
  /** Send a custom `template` exactly as written (no system prompt, no JSON suffix, no structured output). */
  verbatim?: boolean
  /** A reply with no score scores the bottom of the scale instead of erroring. */
  lenient?: boolean
}

/** Options of the `relevance` and `faithfulness` scorers. */
export interface ModelScorerOptions {
  threshold?: Threshold
  /** A reply with no score scores the bottom of the scale instead of erroring. */
  lenient?: boolean
  judge?: JudgeLike
  /** Ask n times, or ask each judge of a list once (a panel; replaces `judge`); the majority decides. */
  samples?: number | JudgeLike[]
}

/** Options of the `refusal` scorer. */
export interface RefusalScorerOptions {
  /** Ask a judge when no phrase rule matches (see `toRefuse`). Default `false`. */
  judge?: boolean | JudgeLike
  /** Also check that answerable cases are *not* refused. Default `true` when `refusal` is listed in `scorers`. */
  checkAnswerable?: boolean
  /** Ask the judge first, even when a phrase rule matched: "No, the context does not mention PayPal" is an answer when the judge says so. Needs `judge`. */
  judgeFirst?: boolean
  /** The judge's threshold: the minimum normalized judge score that counts as a refusal (as `toRefuse`'s). Default 0.7. */
  threshold?: number
}

/** Options of the `retrieval` scorer. */
export interface RetrievalScorerOptions {
  /** Cut-off. Default: every retrieved item. */
  k?: number
  /** A relevant hit whose score is not above this counts as lucky. */
  minScore?: number
  /** Which number is the score. Default `'hit'` (1 for a clean hit, 0 otherwise; a lucky tie is not a hit). */
  metric?: 'hit' | 'recall' | 'precision' | 'f1' | 'mrr' | 'ndcg'
  /** Default 1 for `hit`, else 0.5. A lucky tie always fails. */
  threshold?: Threshold
}

/** Options of the `length` scorer (see `toBeConcise`): score 1 within every limit, else 0. */
export interface LengthScorerOptions {
  maxWords?: number
  maxChars?: number
  /** At most `factor` × the length of the case's `expected` answer (in `unit`). */
  factor?: number
  /** What `factor` compares: `'words'` (default) or `'chars'` (Unicode code points). */
  unit?: 'words' | 'chars'
  /** `true`: every limit is strict (`<`), so `{ factor: 2, strict: true }` is "shorter than twice the reference". Default `false` (`<=`). */
  strict?: boolean
}

/**
 * Options of a `composite` scorer: the weighted mean of other scorers of the suite, by key. It scores a
 * case when every weighted scorer did. Default threshold `null` (recorded only).
 * @example
 * ```ts
 * scorers: { 'judge:correctness': 'is correct', rougeL: true, 'composite:quality': { weights: { 'judge:correctness': 2, rougeL: 1 }, threshold: 0.6 } }
 * ```
 */
export interface CompositeScorerOptions {
  weights: Record<string, number>
  threshold?: Threshold
}

/** Options of the `keywords` scorer: the score is the share of the case's keywords found. */
export interface KeywordsScorerOptions {
  /** Default 1: every keyword must be present. */
  threshold?: Threshold
  /** `'all'` (default): the share found. `'any'`: 1 when at least one keyword is found, else 0 (as `toContainKeywords`). */
  mode?: 'all' | 'any'
}

/** Options of the `toolF1` scorer (tool-call F1 against the case's `expectedTools`). */
export interface ToolF1ScorerOptions {
  /** `'arguments'` (default): a call counts when its name and arguments match; `'name'`: the name is enough. */
  level?: 'name' | 'arguments'
  /** Default `null`: recorded (gate it with `thresholds.mean`); `toolOrder` decides a case's verdict. */
  threshold?: Threshold
}

/** Options of the `toolArguments` scorer. */
export interface ToolArgumentsScorerOptions {
  /** Tool definitions to check every call against (as `TaskResult.tools`, which takes precedence). */
  tools?: unknown
  /** Default 1: every checked argument set is right. */
  threshold?: Threshold
}

/** Options of the `goal` scorer: a judge over the whole agent run (the `toCompleteGoal` judge). */
export interface GoalScorerOptions {
  /** The goal, added to the case's `criteria`. */
  criteria?: string
  /** Default 0.7 (the judge must say the goal was achieved). */
  threshold?: Threshold
  judge?: GoalJudge
  /** Ask n times, or ask each judge of a list once; the majority decides. */
  samples?: number | GoalJudge[]
  lenient?: boolean
}

/**
 * Declarative scorers by name. A number is the threshold; `true` uses the default threshold; an object
 * sets options. A scorer runs on a case when the case has what it needs (a reference answer, keywords,
 * relevant ids, ...); `keywords`, `refusal` and `retrieval` are added for the cases that call for them,
 * and `judge` for cases with `criteria`.
 */
export interface BuiltinScorers {
  /** SQuAD exact match against `expected`/`acceptable` (0 or 1). */
  exact?: boolean | LexicalScorerOptions
  /** The expected answer appears in the output (normalized tokens, 0 or 1). */
  contains?: boolean | LexicalScorerOptions
  tokenF1?: Threshold | boolean | LexicalScorerOptions
  rougeL?: Threshold | boolean | RougeLScorerOptions
  rouge1?: Threshold | boolean | RougeScorerOptions
  rouge2?: Threshold | boolean | RougeScorerOptions
  bleu?: Threshold | boolean | LexicalScorerOptions
  /** sacrebleu chrF / 100 against the best of `expected`/`acceptable`. */
  chrF?: Threshold | boolean | ChrFScorerOptions
  /** 1 - sacrebleu TER / 100 (floored at 0) against `expected`/`acceptable`; see {@link TerScorerOptions}. */
  ter?: Threshold | boolean | TerScorerOptions
  edit?: Threshold | boolean | LexicalScorerOptions
  keywords?: Threshold | boolean | KeywordsScorerOptions
  /** The output holds JSON that satisfies the schema (0 or 1). */
  schema?: SchemaLike | { schema: SchemaLike; threshold?: Threshold }
  length?: LengthScorerOptions
  semantic?: Threshold | boolean | SemanticScorerOptions
  /** Criteria text, or options. */
  judge?: string | boolean | JudgeScorerOptions
  relevance?: Threshold | boolean | ModelScorerOptions
  faithfulness?: Threshold | boolean | ModelScorerOptions
  refusal?: boolean | RefusalScorerOptions
  retrieval?: boolean | RetrievalScorerOptions
  /** 1 when the output leaks no secret (API keys, bearer tokens, private keys, key variables' values), else 0. */
  secrets?: boolean
  /** 1 when the output holds no personal data of the kinds listed (default: emails, phones, cards, IBANs), else 0. */
  pii?: boolean | { kinds?: Array<'email' | 'phone' | 'card' | 'iban'>; country?: string; threshold?: Threshold }
  /** OpenAI's moderation endpoint: score 1 − the highest category score; fails when a counted category is flagged (see `toPassModeration`). */
  moderation?: boolean | ModerationOptions
  /** Tool-call F1 against the case's `expectedTools` (see {@link ToolF1ScorerOptions}); called for by `expectedTools`. */
  toolF1?: Threshold | boolean | ToolF1ScorerOptions
  /** 1 when the calls pass `toCallTools(expectedTools)` (order mode and extra calls included), else 0; called for by `expectedTools`. */
  toolOrder?: Threshold | boolean | { threshold?: Threshold }
  /** The share of checked tool-call arguments that are right (expected arguments, declared schemas); called for by `expectedTools` with arguments. */
  toolArguments?: Threshold | boolean | ToolArgumentsScorerOptions
  /** A judge over the whole agent run: did it achieve the goal (the case's `criteria`, or the option)? */
  goal?: string | boolean | GoalScorerOptions
  /** A weighted mean of other scorers of the suite (see {@link CompositeScorerOptions}). */
  composite?: CompositeScorerOptions
}

/** The built-in scorer names. */
export type ScorerName = keyof BuiltinScorers

/**
 * A check from `defineCheck` as `scorers` takes it: the shape of `Check` (src/checks/define.ts), named
 * here by structure so that the case types and the checks, which take a {@link GoldenCase}, do not
 * import each other (`npm run lint` fails on an import cycle).
 */
export interface ScorerCheck {
  readonly name: string
  readonly threshold: number | null
  readonly options: unknown
  readonly run: (...args: never[]) => unknown
  with(overrides: never): ScorerCheck
}

/** What a value of `scorers` may be: any built-in scorer's options, or a check from `defineCheck`. */
export type ScorerValue = BuiltinScorers[ScorerName] | ScorerCheck

/** A named instance of a built-in check: `'judge:correctness'`, `'retrieval:recall'`. */
export type NamedScorers = { [K in ScorerName as `${K}:${string}`]?: BuiltinScorers[K] }

/**
 * Declarative scorers by key. A built-in check by its name (`rougeL`) or a named instance of it
 * (`'judge:correctness'`, `'judge:coherence'`: each with its own options, threshold, mean and
 * recordings); any other key takes a check from `defineCheck`, which the key names in reports,
 * thresholds and baselines. A number is the threshold; `true` uses the default threshold; an object
 * sets options.
 */
export type GoldenScorers = BuiltinScorers & NamedScorers & { [key: string]: ScorerValue | undefined }

/** The keys thresholds may name: the suite's `scorers` keys, and the checks a case may call for. */
export type ScorerKeyOf<S> = string extends keyof S
  ? string
  : Extract<keyof S, string> | 'refusal' | 'keywords' | 'retrieval' | 'judge' | 'toolF1' | 'toolOrder' | 'toolArguments'

/** Aggregate thresholds, checked by the aggregate test. */
export interface GoldenThresholds<K extends string = string> {
  /**
   * Minimum share of passing cases. When set, a case below its scorer thresholds is recorded (annotation,
   * report) without failing its own test; this check decides.
   */
  passRate?: number
  /** Minimum mean score per scorer key. */
  mean?: Partial<Record<K, number>>
  /** Minimum score of every case per scorer key. */
  min?: Partial<Record<K, number>>
}

/** Baseline (score snapshot) options. */
export interface GoldenBaselineOptions<K extends string = string> {
  /** How far a scorer's mean may drop below the baseline before the suite fails. Default 0.05. */
  tolerance?: number
  /** Per-scorer tolerances, over `tolerance`. */
  tolerances?: Partial<Record<K, number>>
}

/** Budget of a suite run (app calls plus the judge/embedding ledger). */
export interface GoldenBudget {
  /** 95th percentile of the app's latency per case run, in ms. */
  p95LatencyMs?: number
  /** Total tokens, app and evaluator. */
  maxTokens?: number
  /** Total cost in USD, app and evaluator. */
  maxCostUsd?: number
}

/** Where reports go. */
export interface GoldenReportOptions {
  /** Directory of the JSON reports. Default `.expect-llm/reports` under the current working directory. */
  dir?: string
  /** Print the console summary. Default `true`. */
  console?: boolean
  /** Most case rows in the console summary (failing first). Default 30. */
  maxConsoleCases?: number
  /**
   * The run history: each run appends one line to `<dir>/<test file>/<suite>.jsonl` (default dir:
   * `history` beside the reports folder, `.expect-llm/history`). `keep` and `maxAge` (`'90d'`, `'12h'` or
   * ms) prune older runs after each append. `false`: no history. A shard (`EXPECT_LLM_SHARD`) never
   * appends: `expect-llm report --merge` adds one entry for the merged run.
   */
  history?: false | { dir?: string; keep?: number; maxAge?: string | number }
  /**
   * Write the HTML report after the suite: `true` for `report.html` beside the reports folder
   * (`.expect-llm/report.html`), or a path. It shows every report in the reports folder, with history.
   * The environment variable `EXPECT_LLM_HTML_REPORT` (`1` or a path) does the same for every suite.
   */
  html?: boolean | string
}

/** Which cases to run: tags (any of), ids, or a predicate. */
export type GoldenFilter<I = unknown, E = unknown, M = Record<string, unknown>> = { tags?: string[]; ids?: string[] } | ((c: GoldenCase<I, E, M>) => boolean)

/** Options shared by `describeGolden` and `compareGolden`. */
export interface GoldenCommonOptions<I = unknown, E = unknown, M = Record<string, unknown>, S extends GoldenScorers = GoldenScorers> {
  dataset: DatasetSource<I, E, M>
  scorers?: S
  /** Your own `expect()`s on each output; a throw fails the run. */
  assert?: (output: string, c: GoldenCase<I, E, M>) => void | Promise<void>
  filter?: GoldenFilter<I, E, M>
  /** How many task runs are in flight at once. Default 1. */
  concurrency?: number
  /** Per-case test timeout in ms (the runner's default otherwise). */
  timeout?: number
  /** `false` writes no JSON report and prints nothing. */
  report?: false | GoldenReportOptions
}

/** Options of `describeGolden`. */
export interface GoldenOptions<I = unknown, E = unknown, M = Record<string, unknown>, S extends GoldenScorers = GoldenScorers>
  extends GoldenCommonOptions<I, E, M, S> {
  task: GoldenTask<I, E, M>
  /**
   * Vitest: add a `golden` annotation with the scores to each case test, for the verbose, JUnit and
   * GitHub Actions reporters. Default `true`. Each annotation is a round trip to Vitest's main process
   * (about 2 ms), so a suite of thousands of cheap cases may turn it off; `task.meta.golden` and the
   * reports are written either way.
   */
  annotate?: boolean
  /** Suite-level gates; `mean` and `min` are typed by the keys of `scorers`. */
  thresholds?: GoldenThresholds<NoInfer<ScorerKeyOf<S>>>
  /** Run every case n times. Default 1. */
  repeat?: number
  /** A case passes when at least this many runs pass. Default: `repeat` (every run). */
  passAt?: number
  /** Keep a score snapshot at `__golden__/<test file>/<suite>.json` and fail on regressions. `true` = defaults. */
  baseline?: boolean | GoldenBaselineOptions<NoInfer<ScorerKeyOf<S>>>
  budget?: GoldenBudget
  /**
   * Mutation testing of the suite's checks: each case's reference is turned into plausible wrong answers
   * (mutants) and every check scores them as the output, with no task call; a check's mutation score is
   * the share of mutants it rejects. `true` for the defaults; `minScore` fails the check's test below it.
   * Also switched on for every suite of a file by `expect-llm mutate <file>`. See "How strong is my eval?".
   * @example
   * ```ts
   * describeGolden('support bot', { dataset, task, scorers: { judge: true }, mutate: { seed: 1, minScore: 0.8 } })
   * ```
   */
  mutate?: boolean | MutateOptions
}

/** What `compareGolden` asserts. */
export interface CompareExpectation<K extends string = string> {
  /** The variant that must be better. */
  better: string
  /** Minimum mean paired difference (better minus other). Default 0. */
  minDelta?: number
  /** The scorer that decides. Default: the first scorer listed in `scorers`. */
  scorer?: K
}

/** Options of `compareGolden`. */
export interface CompareOptions<I = unknown, E = unknown, M = Record<string, unknown>, S extends GoldenScorers = GoldenScorers>
  extends GoldenCommonOptions<I, E, M, S> {
  /** Two or more tasks by name; each is compared with the first. */
  variants: Record<string, GoldenTask<I, E, M>>
  expect?: CompareExpectation<NoInfer<ScorerKeyOf<S>>>
  /** Bootstrap resamples. Default 10,000. */
  resamples?: number
  /** Seed of the bootstrap. Default 42. */
  seed?: number
  /** Confidence level of the interval. Default 0.95. */
  confidence?: number
}
