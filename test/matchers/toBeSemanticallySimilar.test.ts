import { afterEach, describe, expect, test } from 'vitest'
import * as matcher from '../../matchers/toBeSemanticallySimilar.js'
import { configure, resetConfig } from '../../src/config.js'
import { BATCHING, clearEmbeddingCache } from '../../src/embedders/batch.js'
import { asyncFailureMessage, tableEmbedder } from '../helpers/model-fakes.js'

expect.extend(matcher)

afterEach(() => {
  resetConfig()
  clearEmbeddingCache()
})

const output = 'You have 30 days to ask for a refund.'
const paraphrase = 'Refunds can be requested within 30 days.'
const unrelated = 'The store opens at 9am.'
// cos(output, paraphrase) = 0.9; cos(output, unrelated) = 0.2
const vectors = { [output]: [1, 0], [paraphrase]: [0.9, Math.sqrt(1 - 0.81)], [unrelated]: [0.2, Math.sqrt(1 - 0.04)] }

describe('.toBeSemanticallySimilar', () => {
  test('passes when the cosine similarity reaches the default threshold 0.8', async () => {
    await expect(output).toBeSemanticallySimilar(paraphrase, { embedder: tableEmbedder(vectors) })
  })

  test('passes at the threshold (inclusive)', async () => {
    await expect(output).toBeSemanticallySimilar(unrelated, { threshold: 0.2, embedder: tableEmbedder(vectors) })
  })

  test('passes on the best match of a list', async () => {
    await expect(output).toBeSemanticallySimilar([unrelated, paraphrase], { embedder: tableEmbedder(vectors) })
  })

  test('embeds the output and every expected text in one call', async () => {
    const embedder = tableEmbedder(vectors)
    await expect(output).toBeSemanticallySimilar([unrelated, paraphrase], { embedder })
    expect(embedder.batches).toEqual([[output, unrelated, paraphrase]])
  })

  test('uses the embedder from configure()', async () => {
    const embedder = tableEmbedder(vectors)
    configure({ embedder })
    await expect(output).toBeSemanticallySimilar(paraphrase)
    expect(embedder.batches).toHaveLength(1)
  })

  test('fails below the threshold with the score and the expected text', async () => {
    expect(await asyncFailureMessage(expect(output).toBeSemanticallySimilar(unrelated, { embedder: tableEmbedder(vectors) }))).toMatchInlineSnapshot(`
      "expect(output).toBeSemanticallySimilar(expected, options)

      Expected cosine similarity: >= 0.8
      Received cosine similarity:    0.2 (table-embedder)

      Expected: "The store opens at 9am."
      Output:   "You have 30 days to ask for a refund.""
    `)
  })

  test('fails on a list with every score and the closest expected text', async () => {
    expect(
      await asyncFailureMessage(expect(output).toBeSemanticallySimilar([unrelated, paraphrase], { threshold: 0.95, embedder: tableEmbedder(vectors) })),
    ).toMatchInlineSnapshot(`
      "expect(output).toBeSemanticallySimilar(expected, options)

      Expected cosine similarity: >= 0.95
      Received cosine similarity:    0.9 (table-embedder)
      Scores: 0.2, 0.9 (best: expected[1])

      Closest expected: "Refunds can be requested within 30 days."
      Output:           "You have 30 days to ask for a refund.""
    `)
  })
})

describe('.not.toBeSemanticallySimilar', () => {
  test('passes below the threshold', async () => {
    await expect(output).not.toBeSemanticallySimilar(unrelated, { embedder: tableEmbedder(vectors) })
  })

  test('fails at or above the threshold', async () => {
    expect(await asyncFailureMessage(expect(output).not.toBeSemanticallySimilar(paraphrase, { embedder: tableEmbedder(vectors) }))).toMatchInlineSnapshot(`
      "expect(output).not.toBeSemanticallySimilar(expected, options)

      Expected cosine similarity: < 0.8
      Received cosine similarity:   0.9 (table-embedder)

      Expected: "Refunds can be requested within 30 days."
      Output:   "You have 30 days to ask for a refund.""
    `)
  })
})

describe('toBeSemanticallySimilar usage errors', () => {
  test('rejects a threshold outside [0, 1]', async () => {
    await expect(expect(output).toBeSemanticallySimilar(paraphrase, { threshold: 80, embedder: tableEmbedder(vectors) })).rejects.toThrow(
      '[expect-llm] Failed to run toBeSemanticallySimilar: the threshold must be a number from 0 to 1, got 80. Pass a fraction such as 0.5 (scores are between 0 and 1).',
    )
  })

  test('rejects an empty list of expected texts', async () => {
    await expect(expect(output).toBeSemanticallySimilar([], { embedder: tableEmbedder(vectors) })).rejects.toThrow(
      'the expected text must be a string or a non-empty array of strings, got an empty array.',
    )
  })

  test('rejects an unknown option', async () => {
    await expect(expect(output).toBeSemanticallySimilar(paraphrase, { treshold: 0.5 } as never)).rejects.toThrow(
      'unknown option "treshold". Valid options are: threshold, embedder.',
    )
  })

  test('rejects with the matcher hint when the embedder fails', async () => {
    expect(await asyncFailureMessage(expect('no vector').toBeSemanticallySimilar(paraphrase, { embedder: tableEmbedder(vectors) }))).toBe(
      'expect(output).toBeSemanticallySimilar(expected, options)\n\nno vector for "no vector"',
    )
  })

  test('rejects vectors of different lengths from the embedder', async () => {
    const embedder = { embed: async (texts: string[]) => texts.map((t, i) => (i === 0 ? [1, 0] : [1, 0, 0])) }
    await expect(expect('a').toBeSemanticallySimilar('b', { embedder })).rejects.toThrow(
      'Failed to compute cosine similarity: the vectors have different lengths (2 and 3).',
    )
  })
})

describe('toBeSemanticallySimilar details', () => {
  afterEach(() => resetConfig())

  test('a received value that is not a string is refused before any embedding', async () => {
    const embedder = tableEmbedder(vectors)
    configure({ embedder })
    expect(await asyncFailureMessage(expect(42).toBeSemanticallySimilar(paraphrase))).toBe(
      'expect(output).toBeSemanticallySimilar(expected)\n\n[expect-llm] Failed to run toBeSemanticallySimilar: the received value must be a string, got a number (42). Pass the model output text to expect().',
    )
    expect(embedder.batches).toEqual([])
  })

  test('on a tie the first expected text is the closest', async () => {
    const twin = 'Refunds are possible for 30 days.'
    const table = { ...vectors, [twin]: vectors[paraphrase] as number[] }
    const message = await asyncFailureMessage(expect(output).toBeSemanticallySimilar([paraphrase, twin], { threshold: 0.99, embedder: tableEmbedder(table) }))
    expect(message).toContain('(best: expected[0])')
  })

  test('an embedder without a name is shown as "custom embedder"', async () => {
    const nameless = { embed: tableEmbedder(vectors).embed }
    const message = await asyncFailureMessage(expect(output).toBeSemanticallySimilar(unrelated, { embedder: nameless }))
    expect(message.split('\n')[3]).toBe('Received cosine similarity:    0.2 (custom embedder)')
  })

  test('an embedder that batches itself and has no name is shown as "embedder"', async () => {
    const embedder = { [BATCHING]: true, embed: async (texts: string[]) => texts.map((t) => (vectors as Record<string, number[]>)[t] as number[]) }
    const message = await asyncFailureMessage(expect(output).toBeSemanticallySimilar(unrelated, { embedder }))
    expect(message.split('\n')[3]).toBe('Received cosine similarity:    0.2 (embedder)')
  })

  test('a usage error raised in the check (an embedder that is not one) is thrown as it is, with the hint once', async () => {
    expect(await asyncFailureMessage(expect(output).toBeSemanticallySimilar(paraphrase, { embedder: 3 as never }))).toBe(
      "expect(output).toBeSemanticallySimilar(expected, options)\n\n[expect-llm] Failed to run toBeSemanticallySimilar: the embedder must be an Embedder, a function or embedder settings, got a number (3). Pass for example { model: 'text-embedding-3-small' }, or a function (texts) => vectors.",
    )
  })
})
