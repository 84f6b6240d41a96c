/**
 * The one module through which matchers reach the engine (`src/`): the check definitions they share with
 * the golden suites, and the metrics, judges and helpers their messages need. A matcher imports from
 * here, never from a deep path into `src/`.
 *
 * @module
 */
export { CHRF_OPTIONS, runChrF } from '../src/checks/chrF.js'
export { runTer, TER_OPTIONS } from '../src/checks/ter.js'
export { isCheck, readCheckReturn, type Check, type CheckContext } from '../src/checks/define.js'
export { referencesOf } from '../src/checks/plan.js'
export {
  directInput,
  matcherOptionKeys,
  planCheck,
  runDirect,
  runDirectAsync,
  scoreUserCheck,
  USER_CHECK_CASE_KEYS,
  userCheckCase,
} from '../src/checks/direct.js'
export type { CheckDefinition, ScorerPlan } from '../src/checks/types.js'
export { rougeL as rougeLCheck, rougeNCheck, type RougeData } from '../src/checks/rouge.js'
export { tokenF1 as tokenF1Check } from '../src/checks/tokenF1.js'
export { bleu as bleuCheck, caseOnlyDifferences, nearestReference } from '../src/checks/bleu.js'
export { edit as editCheck } from '../src/checks/edit.js'
export { exact as exactCheck } from '../src/checks/exact.js'
export { contains as containsCheck } from '../src/checks/contains.js'
export { keywords as keywordsCheck } from '../src/checks/keywords.js'
export { schema as schemaCheck, type SchemaData } from '../src/checks/schema.js'
export { type LengthLimit, length as lengthCheck, lengthLimits, tightestLimits } from '../src/checks/length.js'
export { refusal as refusalCheck, type RefusalData } from '../src/checks/refusal.js'
export { semantic as semanticCheck, type SemanticData } from '../src/checks/semantic.js'
export { retrieval as retrievalCheck } from '../src/checks/retrieval.js'
export { faithfulness as faithfulnessCheck, type JudgeData, judge as judgeCheck, judgeSpecParts, relevance as relevanceCheck } from '../src/checks/judge.js'
export { checkSpecObject } from '../src/judges/run.js'
export { DEFAULT_JUDGE_THRESHOLD } from '../src/judges/types.js'
export type { KeywordsResult } from '../src/metrics/keywords.js'
export type { TokenF1Details } from '../src/metrics/squad.js'
export type { BleuDetails } from '../src/metrics/bleu.js'
export type { ContainsResult } from '../src/metrics/contains.js'
export { terTokenize, type TerOptions } from '../src/metrics/ter.js'
export type { ChrFOptions } from '../src/metrics/chrf.js'

// Used by the other matchers
export {
  type CalibrationCase,
  type CalibrationDisagreement,
  type CalibrationResult,
  calibrationPasses,
  confusionLine,
  DEFAULT_MIN_AGREEMENT,
  DEFAULT_MIN_KAPPA,
  runCalibration,
  undefinedKappaNote,
} from '../src/calibration.js'
export { describeValue, formatMessage, isWholeNumber } from '../src/errors.js'
export { measureLength, type TextLength } from '../src/metrics/length.js'
export { checkContext, type JudgeVerdict, type PreparedJudgeCall, prepareJudgeCall, runJudge } from '../src/judges/run.js'
export { type Claim, DEFAULT_FAITHFULNESS_THRESHOLD, type JudgeLike, type JudgeSpec } from '../src/judges/types.js'
export { resolveEmbedder } from '../src/embedders/resolve.js'
export { DEFAULT_SIMILARITY_THRESHOLD, type EmbedderLike } from '../src/embedders/types.js'
export { cosineSimilarity } from '../src/metrics/cosine.js'
export { callTable, clip, countLine, differenceLines, formatCall, formatPattern, renderSteps, transcript } from '../src/agents/format.js'
export {
  argsCheck,
  type ArgumentDifference,
  type CallMatch,
  type CallOrder,
  type CallPattern,
  type Equals,
  type ExtraCalls,
  matchCall,
  matchSequence,
  type SequenceMatch,
  strictDisplay,
  repeatedCalls,
} from '../src/agents/match.js'
export { readTrajectory, toolCalls } from '../src/agents/read.js'
export {
  assertSchema,
  type ExtractedJson,
  extractJson,
  type SchemaIssue,
  schemaLabel,
  type SchemaLike,
  SchemaUsageError,
  validateSchema,
} from '../src/schema.js'
export type { ToolCallItem, Trajectory } from '../src/agents/types.js'
export { containsAnswer } from '../src/metrics/contains.js'
export { exactMatch, normalizeAnswer, squadTokens, tokenF1Details } from '../src/metrics/squad.js'
export { findKeywords } from '../src/metrics/keywords.js'
export { bleu, bleuDetails, tokenize13a } from '../src/metrics/bleu.js'
export { codePoints } from '../src/metrics/text.js'
export { editSimilarity, levenshteinDistance } from '../src/metrics/edit.js'
export { rouge, rougeN, rougeTokenize } from '../src/metrics/rouge.js'
export { type ArgumentCheck, checkToolArguments, toolSchemas } from '../src/agents/tools.js'
export { detectRefusal } from '../src/refusal.js'
export { retrievalScores, type RetrievalScores, type RetrievedItem } from '../src/metrics/retrieval.js'
export { luckCauses, rankLine, rankRetrieved, retrievalInputError, retrievedRows } from '../src/metrics/retrieval-explain.js'
export { TrajectoryError } from '../src/agents/builder.js'
export { describeScaleValue } from '../src/judges/parse.js'
export { moderation as moderationCheck, pii as piiCheck, secrets as secretsCheck } from '../src/checks/safety.js'
export { DEFAULT_PII_KINDS, PII_KINDS, type PIIFinding, type PIIKind } from '../src/safety/pii.js'
export type { ModerationOptions, ModerationVerdict } from '../src/safety/moderation.js'
