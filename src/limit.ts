/**
 * The library-wide limit on model calls in flight (judge and embedding requests alike), read from
 * `configure({ concurrency })` each time a call starts.
 *
 * A tiny semaphore rather than the `p-limit` package: p-limit is ESM-only since v4, and the CommonJS
 * build of expect-llm (which Jest loads in its default mode) cannot `require()` an ESM-only package in
 * Jest's module registry. The state lives on `globalThis` so that the ESM and CJS builds, and every
 * bundled entry point, share one limit.
 *
 * @module
 */
import { getConfig } from './config.js'
import { processSlot } from './process-state.js'

/** Model calls in flight when `configure({ concurrency })` is not set. */
export const DEFAULT_CONCURRENCY = 4

interface LimiterState {
  active: number
  waiting: Array<() => void>
}

function state(): LimiterState {
  return processSlot<LimiterState>('limiter', () => ({ active: 0, waiting: [] }))
}

function limit(): number {
  return getConfig().concurrency ?? DEFAULT_CONCURRENCY
}

function release(s: LimiterState): void {
  s.active--
  while (s.active < limit() && s.waiting.length > 0) {
    s.active++
    s.waiting.shift()?.()
  }
}

/**
 * Runs `call` once fewer than `configure({ concurrency })` (default {@link DEFAULT_CONCURRENCY}) model
 * calls started through this function are in flight; callers wait in FIFO order.
 *
 * @example
 * ```ts
 * const completion = await limitModelCall(() => client.chat.completions.create(body))
 * ```
 */
export async function limitModelCall<T>(call: () => Promise<T> | T): Promise<T> {
  const s = state()
  if (s.active < limit()) s.active++
  else await new Promise<void>((resolve) => s.waiting.push(resolve))
  try {
    return await call()
  } finally {
    release(s)
  }
}

/** Model calls currently in flight and waiting (for tests and diagnostics). */
export function modelCallsInFlight(): { active: number; waiting: number } {
  const s = state()
  return { active: s.active, waiting: s.waiting.length }
}
