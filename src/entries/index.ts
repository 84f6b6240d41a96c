/**
 * expect-llm core: runner-agnostic configuration, metric functions, judges and embedders, datasets and
 * statistics, and types. Matchers live in `expect-llm/matchers`; the runner setup files are
 * `expect-llm/vitest` and `expect-llm/jest`; MSW handlers are in `expect-llm/replay`.
 *
 * This list is the public API, kept on purpose: test/entries/exports.test.ts snapshots the names of every
 * entry, so a name added or removed here is a reviewed change (and a CHANGELOG line).
 * @packageDocumentation
 */

// Configuration
export { configure, getConfig, resetConfig } from '../config.js'
export type { ExpectLlmConfig } from '../config.js'

// Metrics: pure functions, (candidate, reference) argument order
export { rouge, rougeL, rougeN, rougeMulti, rougeTokenize } from '../metrics/rouge.js'
export type {
  RougeOptions,
  RougeScore,
  RougeType,
  RougeTokenizer,
  RougeTokenizeOptions,
  RougeLOptions,
  RougeNOptions,
  RougeMultiOptions,
  RougeMultiScore,
} from '../metrics/rouge.js'
export { porterStem } from '../metrics/porter.js'
export { normalizeAnswer, exactMatch, tokenF1, tokenF1Details } from '../metrics/squad.js'
export type { TokenF1Details } from '../metrics/squad.js'
export { bleu, bleuDetails, bleuFromStatistics, bleuTokenize, corpusBleu, corpusBleuDetails } from '../metrics/bleu.js'
export type { BleuDetails, BleuOptions, BleuSmoothMethod, BleuStatistics, BleuTokenizer } from '../metrics/bleu.js'
export { chrF, chrFDetails, corpusChrF, corpusChrFDetails } from '../metrics/chrf.js'
export type { ChrFDetails, ChrFOptions } from '../metrics/chrf.js'
export { ter, terDetails, terTokenize, corpusTer, corpusTerDetails } from '../metrics/ter.js'
export type { TerDetails, TerOptions } from '../metrics/ter.js'
export { gleu, corpusGleu } from '../metrics/gleu.js'
export type { GleuOptions } from '../metrics/gleu.js'
export { editSimilarity, levenshteinDistance } from '../metrics/edit.js'
export { cosineSimilarity } from '../metrics/cosine.js'
export { retrievalScores } from '../metrics/retrieval.js'
export type { RetrievedItem, RetrievalOptions, RetrievalRank, RetrievalScores } from '../metrics/retrieval.js'
export { containsAnswer } from '../metrics/contains.js'
export { findKeywords } from '../metrics/keywords.js'
export { measureLength } from '../metrics/length.js'

// Checks of your own (golden `scorers` values and `toPassCheck`)
export { defineCheck } from '../checks/define.js'
export type { Check, CheckSpec, CheckContext, CheckReturn } from '../checks/define.js'
export { evaluate } from '../golden/evaluate.js'
export type { EvaluateOptions, EvaluateReport } from '../golden/evaluate.js'
export { findPII } from '../safety/pii.js'
export type { PIIFinding, PIIKind, PIIOptions } from '../safety/pii.js'
export { moderate } from '../safety/moderation.js'
export type { ModerationOptions, ModerationVerdict } from '../safety/moderation.js'

// Structured output
export { extractJson, validateSchema } from '../schema.js'
export type { SchemaLike } from '../schema.js'

// Agents: trajectories and tool calls
export { readTrajectory, toolCalls, TrajectoryError } from '../agents/read.js'
export { toolSchemas, checkToolArguments } from '../agents/tools.js'
export type { ArgumentCheck } from '../agents/tools.js'
export { transcript } from '../agents/format.js'
export type { Trajectory, TrajectoryItem, TrajectorySource, UserItem, TextItem, ToolCallItem, ToolResultItem } from '../agents/types.js'

// Judges (model-backed matchers and checks)
export { openAIJudge } from '../judges/openai.js'
export type { OpenAIJudgeOptions } from '../judges/openai.js'
export { anthropicJudge } from '../judges/anthropic.js'
export type { AnthropicJudgeOptions } from '../judges/anthropic.js'
export { aiSdkJudge } from '../judges/ai-sdk.js'
export type { AiSdkJudgeOptions } from '../judges/ai-sdk.js'
export { functionJudge } from '../judges/resolve.js'
export { JudgeReplyError } from '../judges/parse.js'
export type {
  AiSdkLanguageModel,
  AnthropicClientLike,
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
} from '../judges/types.js'
export type { TemplateFields } from '../judges/templates.js'

// Embedders
export { openAIEmbedder } from '../embedders/openai.js'
export type { OpenAIEmbedderOptions } from '../embedders/openai.js'
export { aiSdkEmbedder } from '../embedders/ai-sdk.js'
export type { AiSdkEmbedderOptions } from '../embedders/ai-sdk.js'
export { functionEmbedder } from '../embedders/resolve.js'
export { clearEmbeddingCache } from '../embedders/batch.js'
export type { AiSdkEmbeddingModel, Embedder, EmbedderFunction, EmbedderLike, EmbedderOptions } from '../embedders/types.js'

// Judge calibration
export { calibrateJudge, cohensKappa } from '../calibration.js'
export type { CalibrationCase, CalibrationLabel, CalibrationResult, CalibrationDisagreement } from '../calibration.js'

// Run ledger of the library's own model calls, and pricing
export { getLedger, resetLedger, priceOf, costOf, DEFAULT_PRICING, PRICING_AS_OF, PRICING_SOURCES } from '../ledger.js'
export type { Ledger, LedgerEntry, LedgerKind, LedgerTotals, ModelPrice } from '../ledger.js'

// Refusal phrase rules
export { detectRefusal } from '../refusal.js'
export type { RefusalMatch, RefusalRule } from '../refusal.js'

// Model call errors
export { ModelCallError } from '../openai-client.js'

// Replay control (the MSW handlers themselves live in `expect-llm/replay`, the only entry that imports msw)
export { getReplaySession } from '../replay-control.js'
export type { ReplaySession } from '../replay-control.js'
export type { ReplayOptions, ReplayMode, Fixture, FixtureMeta, NormalizedUsage, ReplayProblem, FixtureSummary } from '../replay/types.js'

// Golden datasets (describeGolden / compareGolden live in expect-llm/vitest and expect-llm/jest)
export { loadDataset, loadDatasetSync, validateCases, DatasetError } from '../golden/dataset.js'
export { turnByTurn } from '../golden/conversation.js'
export type { TurnByTurnOptions, ConversationScore } from '../golden/conversation.js'
export type {
  GoldenCase,
  GoldenCaseInput,
  DatasetSource,
  GoldenTask,
  TaskResult,
  TaskUsage,
  GoldenScorers,
  ScorerName,
  Threshold,
  GoldenThresholds,
  GoldenBaselineOptions,
  GoldenBudget,
  GoldenReportOptions,
  GoldenFilter,
  GoldenCommonOptions,
  GoldenOptions,
  CompareOptions,
  CompareExpectation,
  LexicalScorerOptions,
  RougeScorerOptions,
  ChrFScorerOptions,
  TerScorerOptions,
  SemanticScorerOptions,
  JudgeScorerOptions,
  ModelScorerOptions,
  RefusalScorerOptions,
  RetrievalScorerOptions,
  LengthScorerOptions,
  KeywordsScorerOptions,
  CompositeScorerOptions,
  ToolF1ScorerOptions,
  ToolArgumentsScorerOptions,
  GoalScorerOptions,
  ConversationMessage,
  ExpectedTools,
  ExpectedToolsInput,
  ExpectedToolCall,
  BuiltinScorers,
  NamedScorers,
  ScorerValue,
  ScorerKeyOf,
} from '../golden/types.js'
export type {
  GoldenReport,
  CompareReport,
  ReportCase,
  ReportScore,
  ReportScorer,
  ReportCheck,
  ReportComparisonScorer,
  UsageTotals,
  LatencySummary,
  GitInfo,
} from '../golden/report.js'
export type { BaselineComparison, ScorerDelta, CaseChange } from '../golden/baseline.js'

// Statistics (paired comparisons, confidence intervals)
export { pairedBootstrap, mcnemar, percentile, BootstrapAggregator } from '../golden/stats.js'
export type { BootstrapOptions, BootstrapResult, McNemarResult, BootstrapAggregatorOptions, AggregateScore, AggregatableScore } from '../golden/stats.js'
