// The steps of batchingEmbedder (src/embedders/batch.ts): chunks, queued sends and per-call requests.
import { describe, expect, test } from 'vitest'
import { chunked, embedDistinct, sendQueued, type Pending } from '../../src/embedders/batch.js'

const vector = (text: string) => [text.length, text.charCodeAt(0)]

describe('chunked', () => {
  test('consecutive chunks of at most size; nothing for nothing', () => {
    expect(chunked(['a', 'b', 'c', 'd', 'e'], 2)).toEqual([['a', 'b'], ['c', 'd'], ['e']])
    expect(chunked(['a'], 5)).toEqual([['a']])
    expect(chunked([], 3)).toEqual([])
  })
})

describe('embedDistinct', () => {
  test('one request per chunk of distinct texts, in first-seen order; vectors in the order asked', async () => {
    const requests: string[][] = []
    const send = async (texts: string[]) => {
      requests.push(texts)
      return texts.map(vector)
    }
    const out = await embedDistinct(['bb', 'a', 'bb', 'ccc'], 2, send)
    expect(requests).toEqual([['bb', 'a'], ['ccc']])
    expect(out).toEqual([vector('bb'), vector('a'), vector('bb'), vector('ccc')])
  })

  test('a failed request fails the call', async () => {
    await expect(embedDistinct(['a'], 2, async () => Promise.reject(new Error('429')))).rejects.toThrow('429')
  })
})

describe('sendQueued', () => {
  function pending(text: string) {
    const settled: { value?: number[]; error?: unknown } = {}
    let done!: () => void
    const finished = new Promise<void>((resolve) => (done = resolve))
    const item: Pending = {
      text,
      resolve: (value) => {
        settled.value = value
        done()
      },
      reject: (error) => {
        settled.error = error
        done()
      },
    }
    return { item, done: finished, settled: () => settled }
  }

  test('each pending text gets its vector; a failed chunk rejects only its own texts', async () => {
    const items = ['a', 'bb', 'ccc'].map(pending)
    const requests: string[][] = []
    sendQueued(
      items.map((p) => p.item),
      2,
      async (texts) => {
        requests.push(texts)
        if (texts.includes('ccc')) throw new Error('too long')
        return texts.map(vector)
      },
    )
    await Promise.all(items.map((p) => p.done))
    expect(requests).toEqual([['a', 'bb'], ['ccc']])
    expect(items[0]!.settled()).toEqual({ value: vector('a') })
    expect(items[1]!.settled()).toEqual({ value: vector('bb') })
    expect((items[2]!.settled().error as Error).message).toBe('too long')
  })
})
