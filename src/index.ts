/**
 * expect-llm core: runner-agnostic configuration, metric functions and types. Matchers live in
 * `expect-llm/matchers`; the runner setup files are `expect-llm/vitest` and `expect-llm/jest`.
 * @packageDocumentation
 */

// Configuration
export { configure, getConfig, resetConfig } from './config.js'
export type { ExpectLlmConfig } from './config.js'

// Errors
export { formatMessage } from './errors.js'

// Metrics
export {
  rouge,
  rougeL,
  rougeN,
  rougeMulti,
  rougeTokenize,
  porterStem,
  normalizeAnswer,
  exactMatch,
  tokenF1,
  tokenF1Details,
  squadTokens,
  bleu,
  bleuDetails,
  bleuFromStatistics,
  bleuTokenize,
  corpusBleu,
  corpusBleuDetails,
  tokenize13a,
  chrF,
  chrFDetails,
  corpusChrF,
  corpusChrFDetails,
  ter,
  terDetails,
  terTokenize,
  corpusTer,
  corpusTerDetails,
  gleu,
  corpusGleu,
  editSimilarity,
  levenshteinDistance,
  cosineSimilarity,
  retrievalScores,
  containsAnswer,
  findKeywords,
  measureLength,
} from './metrics/index.js'
export type {
  RougeOptions,
  RougeScore,
  RougeType,
  RougeMultiOptions,
  RougeMultiScore,
  BleuDetails,
  BleuOptions,
  BleuSmoothMethod,
  BleuStatistics,
  BleuTokenizer,
  ChrFDetails,
  ChrFOptions,
  TerDetails,
  TerOptions,
  GleuOptions,
} from './metrics/index.js'

// Checks of your own (golden `scorers` values and `toPassCheck`)
export { defineCheck } from './checks/define.js'
export type { Check, CheckSpec, CheckContext, CheckReturn } from './checks/define.js'
export { evaluate } from './golden/evaluate.js'
export type { EvaluateOptions, EvaluateReport } from './golden/evaluate.js'
export { findPII } from './safety/pii.js'
export type { PIIFinding, PIIKind, PIIOptions } from './safety/pii.js'
export { moderate } from './safety/moderation.js'
export type { ModerationOptions, ModerationVerdict } from './safety/moderation.js'

// Structured output
export { extractJson, validateSchema } from './schema.js'
export type { SchemaLike } from './schema.js'

// Agents: trajectories and tool calls
export { readTrajectory, toolCalls, toolSchemas, checkToolArguments, transcript, TrajectoryError } from './agents/index.js'
export type { Trajectory, TrajectoryItem, TrajectorySource, UserItem, TextItem, ToolCallItem, ToolResultItem, ArgumentCheck } from './agents/index.js'

// Judges (model-backed matchers)
export {
  openAIJudge,
  anthropicJudge,
  aiSdkJudge,
  DEFAULT_ANTHROPIC_JUDGE_MODEL,
  functionJudge,
  resolveJudge,
  parseJudgeReply,
  normalizeScore,
  JudgeReplyError,
  renderPrompt,
  checkTemplate,
  PLACEHOLDERS,
  BUILT_IN_TEMPLATES,
  DEFAULT_JUDGE_MODEL,
  DEFAULT_JUDGE_THRESHOLD,
  DEFAULT_FAITHFULNESS_THRESHOLD,
} from './judges/index.js'
export type {
  AiSdkJudgeOptions,
  AiSdkLanguageModel,
  AnthropicClientLike,
  AnthropicJudgeOptions,
  OpenAIJudgeOptions,
  BuiltInTemplate,
  Claim,
  Judge,
  JudgeFunction,
  JudgeFunctionResult,
  JudgeLike,
  JudgeOptions,
  JudgeRequest,
  JudgeResult,
  JudgeScale,
  JudgeSpec,
  JudgeUsage,
  ParsedReply,
  TemplateFields,
  Placeholder,
} from './judges/index.js'

// Embedders
export {
  openAIEmbedder,
  aiSdkEmbedder,
  functionEmbedder,
  resolveEmbedder,
  batchingEmbedder,
  clearEmbeddingCache,
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SIMILARITY_THRESHOLD,
  MAX_EMBEDDING_BATCH,
} from './embedders/index.js'
export type { AiSdkEmbedderOptions, AiSdkEmbeddingModel, Embedder, EmbedderFunction, EmbedderLike, EmbedderOptions, OpenAIEmbedderOptions } from './embedders/index.js'

// Judge calibration
export { calibrateJudge, cohensKappa, DEFAULT_MIN_AGREEMENT, DEFAULT_MIN_KAPPA } from './calibration.js'
export type { CalibrationCase, CalibrationLabel, CalibrationResult, CalibrationDisagreement } from './calibration.js'

// Run ledger of the library's own model calls
export { getLedger, resetLedger, recordModelUsage, priceOf, costOf, DEFAULT_PRICING, PRICING_AS_OF, PRICING_SOURCES } from './ledger.js'
export type { Ledger, LedgerEntry, LedgerKind, LedgerTotals, ModelPrice } from './ledger.js'

// Refusal phrase rules
export { detectRefusal, normalizeForRefusal, REFUSAL_RULES } from './refusal.js'
export type { RefusalMatch, RefusalRule } from './refusal.js'

// Concurrency of model calls and model call errors
export { DEFAULT_CONCURRENCY } from './limit.js'
export { ModelCallError } from './openai-client.js'

// Replay control (the MSW handlers themselves live in `expect-llm/replay`, the only entry that imports msw)
export { getReplaySession, resolveReplayMode } from './replay-control.js'
export type { ReplaySession } from './replay-control.js'
export type { ReplayOptions, ReplayMode, Fixture, FixtureMeta, NormalizedUsage, ReplayProblem, FixtureSummary } from './replay/types.js'

// Golden datasets (describeGolden / compareGolden live in expect-llm/vitest and expect-llm/jest)
export {
  loadDataset,
  loadDatasetSync,
  validateCases,
  caseIdFor,
  DatasetError,
  CASE_FIELDS,
  pairedBootstrap,
  BootstrapAggregator,
  mcnemar,
  percentile,
  seededRandom,
  SCORER_NAMES,
  baselinePath,
  compareBaseline,
  readBaseline,
  BASELINE_VERSION,
  readGitInfo,
  REPORT_SCHEMA_VERSION,
} from './golden/index.js'
export type * from './golden/index.js'
