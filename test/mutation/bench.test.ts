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
        "reference corpus (61 cases, 465 mutants)": {
          "bleu@0.5": "0.720 of 465",
          "bleu@0.8": "0.942 of 465",
          "chrF@0.5": "0.454 of 465",
          "chrF@0.8": "0.753 of 465",
          "contains": "0.718 of 465",
          "edit@0.5": "0.598 of 465",
          "edit@0.8": "0.796 of 465",
          "exact": "1.000 of 465",
          "keywords": "n/a",
          "length:1.5x": "0.439 of 465",
          "refusal": "0.131 of 458",
          "rougeL@0.5": "0.480 of 465",
          "rougeL@0.8": "0.729 of 465",
          "ter@0.5": "0.660 of 465",
          "ter@0.8": "0.830 of 465",
          "tokenF1@0.5": "0.482 of 465",
          "tokenF1@0.8": "0.740 of 465",
        },
        "support-bot (20 cases, 204 mutants)": {
          "bleu@0.5": "0.376 of 194",
          "bleu@0.8": "0.706 of 194",
          "chrF@0.5": "0.309 of 194",
          "chrF@0.8": "0.438 of 194",
          "contains": "0.825 of 194",
          "edit@0.5": "0.330 of 194",
          "edit@0.8": "0.588 of 194",
          "exact": "1.000 of 194",
          "keywords": "0.490 of 194",
          "length:1.5x": "0.160 of 194",
          "refusal": "0.181 of 204",
          "rougeL@0.5": "0.294 of 194",
          "rougeL@0.8": "0.474 of 194",
          "ter@0.5": "0.438 of 194",
          "ter@0.8": "0.608 of 194",
          "tokenF1@0.5": "0.284 of 194",
          "tokenF1@0.8": "0.469 of 194",
        },
      }
    `)
  }, 60_000)

  test('the trap of issue 14: keywords pass (almost) every negation, comparative swap and added claim of the support-bot set', () => {
    const [, bot] = scores
    const keywords = bot?.checks.keywords?.byOperator ?? {}
    for (const op of ['comparative', 'add-claim']) {
      expect(keywords[op]?.scored, op).toBeGreaterThan(0)
      expect(keywords[op]?.rejected, op).toBe(0)
    }
    // One negation loses a keyword (`ships` → `does not ship`); the other ones keep every keyword.
    const negation = keywords.negation as { rejected: number; scored: number }
    expect(negation.scored).toBeGreaterThan(10)
    expect(negation.rejected / negation.scored).toBeLessThan(0.1)
    // ... while exact match rejects every mutant, and the refusal check every refusal.
    expect(bot?.checks.exact?.rejected).toBe(bot?.checks.exact?.scored)
    expect(bot?.checks.refusal?.byOperator.refusal?.rejected).toBe(bot?.checks.refusal?.byOperator.refusal?.scored)
  })
})
