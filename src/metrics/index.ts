// Pure text and vector metrics: no I/O, no test-runner imports. Argument order is always
// (candidate, reference): precision is measured against the candidate, recall against the reference.
export { rouge, rougeL, rougeN, rougeTokenize } from './rouge.js'
export type { RougeOptions, RougeScore, RougeType } from './rouge.js'
export { porterStem } from './porter.js'
export { normalizeAnswer, exactMatch, tokenF1, tokenF1Details, squadTokens } from './squad.js'
export { bleu, bleuDetails, corpusBleu, tokenize13a } from './bleu.js'
export { editSimilarity, levenshteinDistance } from './edit.js'
export { cosineSimilarity } from './cosine.js'
export { retrievalScores } from './retrieval.js'
export { containsAnswer } from './contains.js'
export { findKeywords } from './keywords.js'
export { measureLength } from './length.js'
