import { afterEach, describe, expect, test } from 'vitest'
import { configure, resetConfig } from '../src/config.js'
import { DEFAULT_CONCURRENCY, limitModelCall, modelCallsInFlight } from '../src/limit.js'

afterEach(() => resetConfig())

async function peakConcurrency(calls: number): Promise<number> {
  let active = 0
  let peak = 0
  await Promise.all(
    Array.from({ length: calls }, () =>
      limitModelCall(async () => {
        active++
        peak = Math.max(peak, active)
        await new Promise((r) => setTimeout(r, 5))
        active--
      }),
    ),
  )
  return peak
}

describe('limitModelCall', () => {
  test('keeps at most the configured number of calls in flight', async () => {
    configure({ concurrency: 3 })
    expect(await peakConcurrency(10)).toBe(3)
  })

  test('defaults to DEFAULT_CONCURRENCY', async () => {
    expect(await peakConcurrency(10)).toBe(DEFAULT_CONCURRENCY)
  })

  test('releases the slot when a call throws', async () => {
    configure({ concurrency: 1 })
    await expect(limitModelCall(() => Promise.reject(new Error('x')))).rejects.toThrow('x')
    await expect(limitModelCall(async () => 'next')).resolves.toBe('next')
    expect(modelCallsInFlight()).toEqual({ active: 0, waiting: 0 })
  })

  test('starts waiting calls in FIFO order', async () => {
    configure({ concurrency: 1 })
    const order: number[] = []
    await Promise.all([1, 2, 3].map((n) => limitModelCall(async () => void order.push(n))))
    expect(order).toEqual([1, 2, 3])
  })
})
