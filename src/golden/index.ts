// Runner-agnostic golden-dataset API, re-exported from the `expect-llm` core entry.
export { loadDataset, loadDatasetSync, validateCases, caseIdFor, DatasetError, CASE_FIELDS } from './dataset.js'
export { pairedBootstrap, mcnemar, percentile, seededRandom, BootstrapAggregator } from './stats.js'
export type { BootstrapOptions, BootstrapResult, McNemarResult, BootstrapAggregatorOptions, AggregateScore, AggregatableScore } from './stats.js'
export { SCORER_NAMES } from './scorers.js'
export type { ScoreResult } from './scorers.js'
export { baselinePath, compareBaseline, readBaseline, BASELINE_VERSION } from './baseline.js'
export type { BaselineFile, BaselineComparison, ScorerDelta, CaseChange } from './baseline.js'
export { readGitInfo, REPORT_SCHEMA_VERSION } from './report.js'
export type { GoldenReport, CompareReport, ReportCase, ReportScore, ReportScorer, ReportCheck, ReportComparisonScorer, UsageTotals, LatencySummary, GitInfo } from './report.js'
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
  SemanticScorerOptions,
  JudgeScorerOptions,
  ModelScorerOptions,
  RefusalScorerOptions,
  RetrievalScorerOptions,
  LengthScorerOptions,
  KeywordsScorerOptions,
  CompositeScorerOptions,
  BuiltinScorers,
  NamedScorers,
  ScorerValue,
  ScorerKeyOf,
} from './types.js'
