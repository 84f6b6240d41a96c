// A consumer's first suite: the setup file registers the matchers and replays the model calls from
// __llm_fixtures__, so this runs with no key and no network. Nothing here imports 'expect-llm/vitest': the
// matchers' types on expect() come from the tsconfig's "types": ["node", "expect-llm/vitest"] alone.
import { describe, expect, test, vi } from 'vitest'
import { BootstrapAggregator, bleu, chrF, configure, corpusBleuDetails, gleu, rouge, rougeL, ter } from 'expect-llm'

configure({ embedder: { dimensions: 256 } })

const question = 'How long do I have to ask for a refund?'
const reference = 'You can ask for a refund within 30 days of delivery.'
const right = 'You have 30 days from delivery to request a refund.'
const wrong = 'Wait 30 days after delivery before you can ask for a refund.'

describe('lexical matchers', () => {
  test('keywords, overlap, exact answers, length, JSON and retrieval', () => {
    expect(right).toContainKeywords(['30 days', 'refund'])
    expect(wrong).toContainKeywords(['30 days', 'refund'])
    expect(right).toHaveRougeLAbove(reference, 0.3)
    expect(rougeL(wrong, reference).f).toBeGreaterThan(0.4)
    expect('Paris.').toMatchAnswer(['Paris', 'Paris, France'])
    expect(right).toBeConcise({ maxWords: 20 })
    expect('```json\n{"days": 30}\n```').toMatchSchema({ type: 'object', required: ['days'], properties: { days: { type: 'integer' } } })
    expect([{ id: 'refunds', score: 0.8 }, { id: 'shipping', score: 0.3 }]).toRetrieve(['refunds'], { k: 1 })
    expect("I don't know, the handbook does not say.").not.toMatchAnswer(reference)
  })
})

describe('translation metrics: sacrebleu BLEU options, chrF, TER, GLEU, multi-reference ROUGE, confidence intervals', () => {
  test('as matchers and functions', () => {
    const de = 'Die Katze sitzt auf der Matte.'
    expect('Die Katze sitzt auf der Matte.').toHaveChrFAbove(de, 1)
    expect('Die Katze saß auf der Matte.').toHaveChrFAbove([de, 'Eine Katze sitzt auf der Matte.'], 0.5, { wordOrder: 2 })
    expect('the cat sat on the mat').toHaveTerBelow('The cat sat on the mat', 0)
    expect('d e f g h a b c').not.toHaveTerBelow('a b c d e f g h', 0.1)
    expect(ter('d e f g h a b c', 'a b c d e f g h')).toBe(0.125)
    expect(chrF('a b c', 'abc')).toBe(1)
    expect(gleu('the cat sat on the mat', 'the cat sat on the mat')).toBe(1)
    expect(bleu('NASA', 'nasa', { lowercase: true })).toBe(1)
    expect(corpusBleuDetails(['Boil', 'Platform 4'], ['Boil', 'Platform 4']).counts).toEqual([3, 1, 0, 0])
    expect(rouge('text first', ['first text', 'first something'], { type: 'rouge1' }).f).toBe(1)
    const aggregator = new BootstrapAggregator({ seed: 1 })
    for (const s of [0.2, 0.5, 0.9]) aggregator.addScores({ chrF: s })
    const ci = aggregator.aggregate().chrF as { low: number; mid: number; high: number }
    expect(ci.low).toBeLessThanOrEqual(ci.mid)
    expect(ci.mid).toBeLessThanOrEqual(ci.high)
  })
})

describe('model-backed matchers, replayed', () => {
  test('the judge tells a right answer from one with the right keywords and the wrong meaning', async () => {
    await expect(right).toPassJudge({ reference, input: question })
    await expect(wrong).not.toPassJudge({ reference, input: question })
  })

  test('a recording older than replay.maxAge still replays, with one warning naming it (README: Options)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    configure({ replay: { maxAge: '1m' } })
    try {
      await expect(right).toPassJudge({ reference, input: question })
      const stale = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('replay.maxAge'))
      expect(stale).toHaveLength(1)
      expect(stale[0]).toMatch(/^\[expect-llm\] test\/__llm_fixtures__\/support\.test\.ts\/chat-completions\.[0-9a-f]{16}\.json was recorded \d+[mhd] ago, longer than replay\.maxAge \(1m\): it still replays/)
    } finally {
      configure({ replay: {} })
      warn.mockRestore()
    }
  })

  test('embeddings: a paraphrase is close, an answer about something else is not', async () => {
    await expect(right).toBeSemanticallySimilar(reference, { threshold: 0.5 })
    await expect('Standard shipping costs $4.99.').not.toBeSemanticallySimilar(reference, { threshold: 0.5 })
  })

  test('refusals are recognised without a model call', async () => {
    await expect("I don't know. Please contact our support team.").toRefuse()
    await expect(right).not.toRefuse()
  })
})
