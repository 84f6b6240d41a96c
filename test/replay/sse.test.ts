// Server-sent events (src/replay/sse.ts): recognising a stream, splitting it into events, replaying chunks
// one pull at a time (paced by their recorded offsets when asked), and teeing a live stream while recording.
import { describe, expect, test } from 'vitest'
import { isEventStream, pullStream, splitEvents, teeEventStream } from '../../src/replay/sse.js'

const bytes = (s: string) => new TextEncoder().encode(s)

async function chunksOf(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = []
  const reader = stream.getReader()
  for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(new TextDecoder().decode(r.value))
  return out
}

describe('isEventStream', () => {
  test('text/event-stream in any case and with parameters; nothing else', () => {
    expect(isEventStream('text/event-stream')).toBe(true)
    expect(isEventStream('Text/Event-Stream; charset=utf-8')).toBe(true)
    expect(isEventStream('application/json')).toBe(false)
    expect(isEventStream(null)).toBe(false)
    expect(isEventStream(undefined)).toBe(false)
  })
})

describe('splitEvents', () => {
  test('each event keeps its blank line, whatever the line ending; the partial rest is returned', () => {
    expect(splitEvents('data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d')).toEqual({
      events: ['data: a\n\n', 'data: b\r\n\r\n', 'data: c\r\r'],
      rest: 'data: d',
    })
  })

  test('a multi-line event is one event', () => {
    expect(splitEvents('event: x\ndata: 1\n\n')).toEqual({ events: ['event: x\ndata: 1\n\n'], rest: '' })
  })

  test('no complete event: everything is the rest', () => {
    expect(splitEvents('data: a\n')).toEqual({ events: [], rest: 'data: a\n' })
    expect(splitEvents('')).toEqual({ events: [], rest: '' })
  })
})

describe('pullStream', () => {
  test('one chunk per pull, strings encoded and bytes as they are, then the end', async () => {
    expect(await chunksOf(pullStream(['a', bytes('b'), 'c']))).toEqual(['a', 'b', 'c'])
    expect(await chunksOf(pullStream([]))).toEqual([])
  })

  test('nothing is produced before the reader asks (a pull stream, no eager queue)', async () => {
    let pulls = 0
    const chunks = new Proxy(['a', 'b'], {
      get(target, prop, receiver) {
        if (prop === '0' || prop === '1') pulls++
        return Reflect.get(target, prop, receiver)
      },
    })
    const stream = pullStream(chunks)
    await new Promise((r) => setTimeout(r, 5))
    expect(pulls).toBe(0)
    const reader = stream.getReader()
    await reader.read()
    expect(pulls).toBe(1)
    await reader.cancel()
  })

  test('offsets count from the first pull, not from each pull', async () => {
    const started = performance.now()
    const reader = pullStream(['a', 'b', 'c'], [0, 200, 210]).getReader()
    for (let r = await reader.read(); !r.done; r = await reader.read()) void r
    // From the first pull: about 210 ms in all; from each pull it would be 410 ms.
    expect(performance.now() - started).toBeLessThan(380)
  })

  test('with offsets, each chunk comes no earlier than its offset from the first pull', async () => {
    const started = performance.now()
    const reader = pullStream(['a', 'b', 'c'], [0, 150, 300]).getReader()
    const at: number[] = []
    for (let r = await reader.read(); !r.done; r = await reader.read()) at.push(performance.now() - started)
    expect(at[0]).toBeLessThan(100)
    expect(at[1]).toBeGreaterThanOrEqual(145)
    expect(at[2]).toBeGreaterThanOrEqual(295)
  })
})

describe('teeEventStream', () => {
  function upstream(parts: Array<string | Error>, gapMs = 0): ReadableStream<Uint8Array> {
    let i = 0
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs))
        const next = parts[i++]
        if (next === undefined) controller.close()
        else if (next instanceof Error) controller.error(next)
        else controller.enqueue(bytes(next))
      },
    })
  }

  test('the app gets the bytes as they came; the recording gets the events with growing offsets', async () => {
    const tee = teeEventStream(upstream(['data: 1\n\nda', 'ta: 2\n\n', 'data: [DONE]\n\n'], 30))
    expect((await chunksOf(tee.stream)).join('')).toBe('data: 1\n\ndata: 2\n\ndata: [DONE]\n\n')
    const { events, offsetsMs, error } = await tee.done
    expect(error).toBeUndefined()
    expect(events).toEqual(['data: 1\n\n', 'data: 2\n\n', 'data: [DONE]\n\n'])
    expect(offsetsMs).toHaveLength(3)
    expect(offsetsMs[0]).toBeGreaterThanOrEqual(20)
    expect(offsetsMs[1]! - offsetsMs[0]!).toBeGreaterThanOrEqual(20)
    expect(offsetsMs.every(Number.isInteger)).toBe(true)
    // Offsets count from the start of the response: three gaps of 30 ms, not a clock reading.
    expect(offsetsMs.at(-1)).toBeLessThan(10_000)
  })

  test('a multi-byte character split across chunks is decoded whole', async () => {
    const euro = bytes('data: €\n\n')
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(euro.subarray(0, 7))
        controller.enqueue(euro.subarray(7))
        controller.close()
      },
    })
    const tee = teeEventStream(stream)
    await chunksOf(tee.stream)
    expect((await tee.done).events).toEqual(['data: €\n\n'])
  })

  test('the recording completes even when the app never reads', async () => {
    const tee = teeEventStream(upstream(['data: 1\n\n', 'data: 2']))
    expect(await tee.done).toMatchObject({ events: ['data: 1\n\n', 'data: 2'] })
  })

  test('an upstream failure reaches the app and the recording, with the events before it', async () => {
    const failure = new Error('socket hang up')
    const tee = teeEventStream(upstream(['data: 1\n\n', failure]))
    await expect(chunksOf(tee.stream)).rejects.toThrow('socket hang up')
    const done = await tee.done
    expect(done.error).toBe(failure)
    expect(done.events).toEqual(['data: 1\n\n'])
  })
})
