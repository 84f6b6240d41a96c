/**
 * Server-sent events: splitting a live byte stream into events while recording, and pull-based bodies for
 * replay. Pull streams matter: under msw 2, `cancel()` on a string or `start()` body never settles and
 * openai@7 awaits it after `[DONE]` and before every retry.
 */

const encoder = new TextEncoder()

/** Returns `true` for a `text/event-stream` content type. */
export function isEventStream(contentType: string | null | undefined): boolean {
  // Stryker disable next-line StringLiteral: equivalent, any stand-in for a missing content type that is not an event stream gives false too
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
        // Stryker disable next-line ConditionalExpression: equivalent when true, an undefined offset gives a NaN wait, which is not > 0
        if (due !== undefined) {
          const wait = started + due - performance.now()
          // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent when true or >=, setTimeout treats a wait of 0 or less as at once
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

/** The events of a recorded stream with their arrival offsets: complete events as they arrive, the rest at the end. */
export class EventLog {
  private readonly events: string[] = []
  private readonly offsetsMs: number[] = []
  private pending = ''

  /** Adds decoded text that arrived `atMs` after the start; each event it completes gets that offset. */
  add(text: string, atMs: number): void {
    const split = splitEvents(this.pending + text)
    for (const e of split.events) {
      this.events.push(e)
      this.offsetsMs.push(atMs)
    }
    this.pending = split.rest
  }

  /** The end of the stream: the last decoded text, and a trailing event without its blank line, if any. */
  end(text: string, atMs: number): void {
    this.pending += text
    // end() is called once, last: what is pending needs no reset.
    if (this.pending) {
      this.events.push(this.pending)
      this.offsetsMs.push(atMs)
    }
  }

  result(): { events: string[]; offsetsMs: number[] } {
    return { events: this.events, offsetsMs: this.offsetsMs }
  }
}

/** A pull-based stream fed by pushes (see {@link queuedStream}). */
export interface QueuedStream {
  stream: ReadableStream<Uint8Array>
  /** Queues a chunk for the app (dropped once the app has cancelled). */
  push(chunk: Uint8Array): void
  /** No more chunks: the stream closes after the queued ones, or errors with `failure`. */
  end(failure?: unknown): void
  /** The app cancelled its stream. */
  cancelled(): boolean
}

/** A pull-based stream (one chunk per `pull()`) over chunks pushed as they arrive. */
export function queuedStream(): QueuedStream {
  const queue: Uint8Array[] = []
  let ended = false
  let failure: unknown
  let appCancelled = false
  let wake: (() => void) | undefined
  const notify = (): void => {
    const w = wake
    wake = undefined
    w?.()
  }
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
    // Stryker disable next-line ObjectLiteral: equivalent, the default (1) only moves the next chunk into the stream's queue a few microtasks early
    { highWaterMark: 0 },
  )
  return {
    stream,
    push(chunk) {
      if (!appCancelled) queue.push(chunk)
      notify()
    },
    end(error) {
      failure = error
      ended = true
      notify()
    },
    cancelled: () => appCancelled,
  }
}

/**
 * Reads an upstream SSE body eagerly in the background (so the recording completes even if the app stops
 * early or cancels), splits it into events with their arrival offsets, and gives the app a pull-based
 * stream fed from the same data, so the app streams live while recording.
 */
export function teeEventStream(upstream: ReadableStream<Uint8Array>): RecordedStream {
  const start = performance.now()
  const since = () => Math.round(performance.now() - start)
  const app = queuedStream()
  const log = new EventLog()
  const done = (async () => {
    const decoder = new TextDecoder()
    const reader = upstream.getReader()
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        app.push(read.value)
        log.add(decoder.decode(read.value, { stream: true }), since())
      }
      log.end(decoder.decode(), since())
      app.end()
      return log.result()
    } catch (error) {
      app.end(error)
      return { ...log.result(), error }
    }
  })()
  return { stream: app.stream, done }
}
