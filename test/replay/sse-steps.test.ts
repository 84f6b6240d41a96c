// The steps of teeEventStream (src/replay/sse.ts): the event log of a recording (pure) and the queue that
// feeds the app's pull-based stream.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, test } from 'vitest'
import { EventLog, queuedStream } from '../../src/replay/sse.js'

describe('EventLog', () => {
  test('keeps complete events with the offset of the chunk that completed them; a partial event waits', () => {
    const log = new EventLog()
    log.add('data: a\n\nda', 5)
    log.add('ta: b\n', 9)
    log.add('\ndata: c\r\n\r\n', 12)
    expect(log.result()).toEqual({ events: ['data: a\n\n', 'data: b\n\n', 'data: c\r\n\r\n'], offsetsMs: [5, 12, 12] })
  })

  test('a trailing event without its blank line is kept at the end', () => {
    const log = new EventLog()
    log.add('data: a\n\ndata: [DONE]', 3)
    log.end('', 7)
    expect(log.result()).toEqual({ events: ['data: a\n\n', 'data: [DONE]'], offsetsMs: [3, 7] })
  })

  test('nothing left at the end adds nothing', () => {
    const log = new EventLog()
    log.add('data: a\n\n', 1)
    log.end('', 2)
    expect(log.result()).toEqual({ events: ['data: a\n\n'], offsetsMs: [1] })
  })
})

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = ''
  const decoder = new TextDecoder()
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true })
  return text
}

describe('queuedStream', () => {
  const bytes = (s: string) => new TextEncoder().encode(s)

  test('gives the chunks in order, including those pushed while the app waits, then closes', async () => {
    const q = queuedStream()
    q.push(bytes('a'))
    const all = readAll(q.stream)
    await Promise.resolve()
    q.push(bytes('b'))
    q.end()
    expect(await all).toBe('ab')
  })

  test('errors the stream with the upstream failure after the chunks that arrived', async () => {
    const q = queuedStream()
    q.push(bytes('a'))
    q.end(new Error('socket hang up'))
    const reader = q.stream.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('a')
    await expect(reader.read()).rejects.toThrow('socket hang up')
  })

  test('after the app cancels, chunks are dropped and the queue says so', async () => {
    const q = queuedStream()
    q.push(bytes('a'))
    await q.stream.cancel()
    expect(q.cancelled()).toBe(true)
    q.push(bytes('b'))
    q.end()
  })

  test('a chunk pushed after the app cancelled is not held on to: it can be garbage collected', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const q = queuedStream()
    await q.stream.cancel()
    const ref = (() => {
      const late = bytes('late')
      q.push(late)
      return new WeakRef(late)
    })()
    await new Promise((resolve) => setImmediate(resolve)) // a WeakRef keeps its target until the current job ends
    gc()
    expect(ref.deref()).toBeUndefined()
    q.end()
  })

  test('a chunk pushed while the app waits in a read wakes that read, before upstream ends', async () => {
    const q = queuedStream()
    const reader = q.stream.getReader()
    const read = reader.read()
    await new Promise((resolve) => setImmediate(resolve)) // the stream's pull now waits for a chunk
    q.push(bytes('a'))
    const first = await Promise.race([read, new Promise((r) => setTimeout(() => r('still waiting'), 500))])
    expect(first).toEqual({ done: false, value: bytes('a') })
    q.end()
  })
})

test('queuedStream hands a pushed chunk over at once, before upstream ends', async () => {
  const q = queuedStream()
  q.push(new TextEncoder().encode('a'))
  const reader = q.stream.getReader()
  const first = await Promise.race([reader.read(), new Promise((r) => setTimeout(() => r('still waiting'), 500))])
  expect(first).toEqual({ done: false, value: new TextEncoder().encode('a') })
  q.end()
})
