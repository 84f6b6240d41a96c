import { afterEach, describe, expect, test } from 'vitest'
import { configure, getConfig, resetConfig } from '../src/config.js'

afterEach(() => resetConfig())

describe('configure', () => {
  test('stores options that getConfig returns', () => {
    configure({ concurrency: 3 })
    expect(getConfig().concurrency).toBe(3)
  })

  test('merges later calls over earlier ones key by key', () => {
    configure({ concurrency: 3 })
    configure({ pricing: { 'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 } } })
    expect(getConfig()).toEqual({ concurrency: 3, pricing: { 'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 } } })
  })

  test('keeps its state on globalThis under Symbol.for so ESM and CJS builds share it', () => {
    configure({ concurrency: 2 })
    const state = (globalThis as Record<symbol, unknown>)[Symbol.for('expect-llm.config')]
    expect(state).toBe(getConfig())
  })

  test('rejects an unknown option by name', () => {
    expect(() => configure({ concurency: 2 } as never)).toThrow(
      '[expect-llm] Failed to configure expect-llm: unknown option "concurency". Valid options are judge, embedder, replay, pricing, concurrency.',
    )
  })

  test('rejects a concurrency that is not a whole number >= 1', () => {
    expect(() => configure({ concurrency: 0 })).toThrow('"concurrency" must be a whole number >= 1, got 0')
  })

  test('rejects a non-object', () => {
    expect(() => configure(null as never)).toThrow('the options must be an object')
  })
})

describe('resetConfig', () => {
  test('clears every setting in place', () => {
    const state = getConfig()
    configure({ concurrency: 5 })
    resetConfig()
    expect(getConfig()).toBe(state)
    expect(getConfig()).toEqual({})
  })
})
