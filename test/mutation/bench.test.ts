// Pins the mutation score of each built-in lexical check on the reference corpus and the support-bot set
// (bench/mutation.ts, `npm run bench -- mutation` prints the full table per operator). An operator change
// that moves these numbers is a reviewed change: update this snapshot (`npx vitest run test/mutation/bench.test.ts -u`)
// and the table in docs/mutation-operators.md.
import { beforeAll, describe, expect, test } from 'vitest'
import { benchScores, type CorpusScores, summary } from '../../bench/mutation.js'

let scores: CorpusScores[]
beforeAll(async () => {
  scores = await benchScores()
}, 60_000)

describe('the mutation score of the built-in lexical checks (bench/mutation.ts)', () => {
  test('is pinned, per corpus and check', () => {
    expect(summary(scores)).toMatchInlineSnapshot(`
      {
        "reference corpus (61 cases, 447 mutants)": {
          "bleu@0.5": "0.734 of 447",
          "bleu@0.8": "0.942 of 447",
          "chrF@0.5": "0.472 of 447",
          "chrF@0.8": "0.774 of 447",
          "contains": "0.732 of 447",
          "edit@0.5": "0.622 of 447",
          "edit@0.8": "0.801 of 447",
          "exact": "1.000 of 447",
          "keywords": "n/a",
          "length:1.5x": "0.454 of 447",
          "refusal": "0.136 of 440",
          "rougeL@0.5": "0.499 of 447",
          "rougeL@0.8": "0.749 of 447",
          "ter@0.5": "0.680 of 447",
          "ter@0.8": "0.830 of 447",
          "tokenF1@0.5": "0.501 of 447",
          "tokenF1@0.8": "0.758 of 447",
        },
        "support-bot (20 cases, 194 mutants)": {
          "bleu@0.5": "0.397 of 184",
          "bleu@0.8": "0.717 of 184",
          "chrF@0.5": "0.326 of 184",
          "chrF@0.8": "0.462 of 184",
          "contains": "0.837 of 184",
          "edit@0.5": "0.348 of 184",
          "edit@0.8": "0.620 of 184",
          "exact": "1.000 of 184",
          "keywords": "0.511 of 184",
          "length:1.5x": "0.168 of 184",
          "refusal": "0.191 of 194",
          "rougeL@0.5": "0.310 of 184",
          "rougeL@0.8": "0.495 of 184",
          "ter@0.5": "0.462 of 184",
          "ter@0.8": "0.620 of 184",
          "tokenF1@0.5": "0.299 of 184",
          "tokenF1@0.8": "0.489 of 184",
        },
      }
    `)
  }, 60_000)

  test('the trap of issue 14: keywords pass every negation, comparative swap and added claim of the support-bot set', () => {
    const [, bot] = scores
    const keywords = bot?.checks.keywords?.byOperator ?? {}
    for (const op of ['negation', 'comparative', 'add-claim']) {
      expect(keywords[op]?.scored, op).toBeGreaterThan(0)
      expect(keywords[op]?.rejected, op).toBe(0)
    }
    // ... while exact match rejects every mutant, and the refusal check every refusal.
    expect(bot?.checks.exact?.rejected).toBe(bot?.checks.exact?.scored)
    expect(bot?.checks.refusal?.byOperator.refusal?.rejected).toBe(bot?.checks.refusal?.byOperator.refusal?.scored)
  })
})
