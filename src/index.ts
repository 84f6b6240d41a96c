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
  rougeTokenize,
  porterStem,
  normalizeAnswer,
  exactMatch,
  tokenF1,
  tokenF1Details,
  squadTokens,
  bleu,
  bleuDetails,
  corpusBleu,
  tokenize13a,
  editSimilarity,
  levenshteinDistance,
  cosineSimilarity,
  retrievalScores,
  containsAnswer,
  findKeywords,
  measureLength,
} from './metrics/index.js'
export type { RougeOptions, RougeScore, RougeType } from './metrics/index.js'

// Structured output
export { extractJson, validateSchema } from './schema.js'
export type { SchemaLike } from './schema.js'
