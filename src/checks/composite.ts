/**
 * The `composite` check: a weighted mean of other checks of the suite, by their keys in `scorers`
 * (`'composite:quality': { weights: { 'judge:correctness': 2, rougeL: 1 }, threshold: 0.6 }`). It
 * scores a case when every weighted check scored it (a case some check does not apply to gets no
 * composite score, rather than a mean of the others that would read as the same number).
 *
 * @module
 */
import { describeValue, isFiniteNumber } from '../errors.js'
import { fail, fmt, result } from './shared.js'
import type { CheckDefinition } from './types.js'

export const composite: CheckDefinition = {
  name: 'composite',
  defaultThreshold: null,
  optionKeys: ['weights', 'threshold'],
  after: true,
  shorthands: { noNumber: 'Pass { composite: { weights: { judge: 2, rougeL: 1 }, threshold: 0.6 } }.' },
  resolve({ key, threshold, options }) {
    const weights = options.weights
    const fix = 'Pass { weights: { judge: 2, rougeL: 1 } }: the keys of other scorers with a weight > 0 each.'
    if (weights === null || typeof weights !== 'object' || Array.isArray(weights) || Object.keys(weights).length === 0) {
      fail(`${key}.weights must be an object of scorer keys and weights, got ${describeValue(weights)}`, fix)
    }
    for (const [name, w] of Object.entries(weights as object)) {
      if (!isFiniteNumber(w) || w <= 0) fail(`${key}.weights.${name} must be a number > 0, got ${typeof w === 'number' ? w : describeValue(w)}`, fix)
    }
    return threshold
  },
  run({ scores }, { threshold, options }) {
    const weights = Object.entries(options.weights as Record<string, number>)
    if (!scores || weights.some(([name]) => scores[name] === undefined)) return undefined
    const total = weights.reduce((s, [, w]) => s + w, 0)
    const score = weights.reduce((s, [name, w]) => s + (scores[name] as { score: number }).score * w, 0) / total
    const detail = weights.map(([name, w]) => `${name} ${fmt((scores[name] as { score: number }).score)} × ${fmt(w / total)}`).join(' + ')
    return result(Math.min(1, Math.max(0, score)), threshold, detail)
  },
}
