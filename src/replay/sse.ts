/**
 * Server-sent events: splitting a live byte stream into events while recording, and pull-based bodies for
 * replay. Pull streams matter: under msw 2, `cancel()` on a string or `start()` body never settles and
 * openai@7 awaits it after `[DONE]` and before every retry.
 */

const encoder = new TextEncoder()

/** Returns `true` for a `text/event-stream` content type. */
export function isEventStream(contentType: string | null | undefined): boolean {
  return (contentType ?? '').toLowerCase().includes('text/event-stream')
}

/** Finds the end of the first complete event (after its blank line) in `text`, or -1. */
function eventEnd(text: string): number {
  const m = /\r\n\r\n|\n\n|\r\r/.exec(text)
  return m ? m.index + m[0].length : -1
}

/** Splits SSE text into events (each keeps its terminating blank line); a trailing partial event is returned as the rest. */
export function splitEvents(text: string): { events: string[]; rest: string } {
  const events: string[] = []
  let rest = text
  for (let end = eventEnd(rest); end !== -1; end = eventEnd(rest)) {
    events.push(rest.slice(0, end))
    rest = rest.slice(end)
  }
  return { events, rest }
}

/**
 * A pull-based `ReadableStream` over fixed chunks: one chunk per `pull()`, optionally paced by
 * `offsetsMs` (milliseconds from the start of the response to each chunk).
 */
export function pullStream(chunks: ReadonlyArray<string | Uint8Array>, offsetsMs?: readonly number[]): ReadableStream<Uint8Array> {
  let i = 0
  let started = 0
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (i === 0) started = performance.now()
        if (i >= chunks.length) {
          controller.close()
          return
        }
        const due = offsetsMs?.[i]
        if (due !== undefined) {
          const wait = started + due - performance.now()
          if (wait > 0) await new Promise((r) => setTimeout(r, wait))
        }
        const chunk = chunks[i++]!
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
      },
    },
    { highWaterMark: 0 },
  )
}

/** The result of {@link teeEventStream}. */
export interface RecordedStream {
  /** The stream handed to the app: pull-based, fed by the background reader. */
  stream: ReadableStream<Uint8Array>
  /** Settles when upstream ends: the events, their offsets, and whether it completed without error. */
  done: Promise<{ events: string[]; offsetsMs: number[]; error?: unknown }>
}

/**
 * Reads an upstream SSE body eagerly in the background (so the recording completes even if the app stops
 * early or cancels), splits it into events with their arrival offsets, and gives the app a pull-based
 * stream fed from the same data, so the app streams live while recording.
 */
export function teeEventStream(upstream: ReadableStream<Uint8Array>): RecordedStream {
  const start = performance.now()
  const queue: Uint8Array[] = []
  let ended = false
  let failure: unknown
  let wake: (() => void) | undefined
  let appCancelled = false
  const notify = (): void => {
    const w = wake
    wake = undefined
    w?.()
  }
  const events: string[] = []
  const offsetsMs: number[] = []
  const done = (async () => {
    const decoder = new TextDecoder()
    const reader = upstream.getReader()
    let pending = ''
    try {
      for (;;) {
        const { value, done: finished } = await reader.read()
        if (finished) break
        if (!appCancelled) queue.push(value)
        notify()
        pending += decoder.decode(value, { stream: true })
        const split = splitEvents(pending)
        const at = Math.round(performance.now() - start)
        for (const e of split.events) {
          events.push(e)
          offsetsMs.push(at)
        }
        pending = split.rest
      }
      pending += decoder.decode()
      if (pending) {
        events.push(pending)
        offsetsMs.push(Math.round(performance.now() - start))
      }
      return { events, offsetsMs }
    } catch (error) {
      failure = error
      return { events, offsetsMs, error }
    } finally {
      ended = true
      notify()
    }
  })()
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (queue.length === 0 && !ended) await new Promise<void>((r) => (wake = r))
        const next = queue.shift()
        if (next) controller.enqueue(next)
        else if (failure !== undefined) controller.error(failure)
        else controller.close()
      },
      cancel() {
        appCancelled = true
        queue.length = 0
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, done }
}
