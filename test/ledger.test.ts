import { afterEach, describe, expect, test } from 'vitest'
import { configure, resetConfig } from '../src/config.js'
import { costOf, getLedger, priceOf, recordModelUsage, resetLedger } from '../src/ledger.js'

afterEach(() => {
  resetLedger()
  resetConfig()
})

describe('priceOf', () => {
  test('finds a default price by exact name', () => {
    expect(priceOf('gpt-4o-mini')).toEqual({ inputPerMTok: 0.15, outputPerMTok: 0.6 })
  })

  test('prices a dated snapshot as its base model, choosing the longest base name', () => {
    expect(priceOf('gpt-4.1-mini-2025-04-14')).toEqual({ inputPerMTok: 0.4, outputPerMTok: 1.6 })
  })

  test('prefers configured prices over the defaults', () => {
    configure({ pricing: { 'gpt-4o-mini': { inputPerMTok: 1, outputPerMTok: 2 } } })
    expect(priceOf('gpt-4o-mini')).toEqual({ inputPerMTok: 1, outputPerMTok: 2 })
  })

  test('configured prices extend the defaults: the models not configured keep their default price', () => {
    configure({ pricing: { 'local-llama': { inputPerMTok: 0.5, outputPerMTok: 0 } } })
    expect(priceOf('local-llama')).toEqual({ inputPerMTok: 0.5, outputPerMTok: 0 })
    expect(priceOf('gpt-4o-mini')).toEqual({ inputPerMTok: 0.15, outputPerMTok: 0.6 })
    expect(priceOf('gpt-4.1-mini-2025-04-14')).toEqual({ inputPerMTok: 0.4, outputPerMTok: 1.6 })
  })

  test('returns undefined for an unknown model instead of guessing', () => {
    expect(priceOf('llama3.1:8b')).toBeUndefined()
  })
})

describe('costOf', () => {
  test('multiplies tokens by the price per million', () => {
    expect(costOf('gpt-4o-mini', 2_000_000, 500_000)).toBeCloseTo(0.6, 12)
  })
})

describe('getLedger', () => {
  test('sums calls, tokens and cost by kind and model', () => {
    recordModelUsage({ kind: 'judge', model: 'gpt-4o-mini', inputTokens: 1000, outputTokens: 100 })
    recordModelUsage({ kind: 'judge', model: 'gpt-4o-mini', inputTokens: 3000, outputTokens: 300 })
    recordModelUsage({ kind: 'embedding', model: 'text-embedding-3-small', inputTokens: 50_000 })
    const ledger = getLedger()
    expect(ledger).toMatchObject({ calls: 3, inputTokens: 54_000, outputTokens: 400, unpricedCalls: 0, unpricedModels: [] })
    expect(ledger.costUsd).toBeCloseTo((4000 * 0.15 + 400 * 0.6 + 50_000 * 0.02) / 1e6, 15)
    expect(ledger.byKind.judge).toMatchObject({ calls: 2, inputTokens: 4000, outputTokens: 400 })
    expect(ledger.byKind.embedding).toMatchObject({ calls: 1, inputTokens: 50_000, outputTokens: 0 })
    expect(Object.keys(ledger.byModel)).toEqual(['gpt-4o-mini', 'text-embedding-3-small'])
  })

  test('counts tokens of unpriced models but leaves their cost out and names them', () => {
    recordModelUsage({ kind: 'judge', model: 'local-llama', inputTokens: 10, outputTokens: 5 })
    expect(getLedger()).toMatchObject({ calls: 1, inputTokens: 10, costUsd: 0, unpricedCalls: 1, unpricedModels: ['local-llama'] })
  })

  test('prices with the pricing configured when read, not when recorded', () => {
    recordModelUsage({ kind: 'judge', model: 'local-llama', inputTokens: 1_000_000, outputTokens: 0 })
    configure({ pricing: { 'local-llama': { inputPerMTok: 0.5, outputPerMTok: 0 } } })
    expect(getLedger().costUsd).toBe(0.5)
  })

  test('is emptied by resetLedger', () => {
    recordModelUsage({ kind: 'judge', model: 'gpt-4o', inputTokens: 1, outputTokens: 1 })
    resetLedger()
    expect(getLedger()).toMatchObject({ calls: 0, entries: [] })
  })

  test('is shared through globalThis so ESM and CJS builds see one ledger', () => {
    recordModelUsage({ kind: 'judge', model: 'gpt-4o', inputTokens: 1, outputTokens: 1 })
    expect((globalThis as Record<symbol, unknown[]>)[Symbol.for('expect-llm.ledger')]).toHaveLength(1)
  })
})

describe('recordModelUsage', () => {
  test('rejects token counts that are not finite non-negative numbers', () => {
    expect(() => recordModelUsage({ kind: 'judge', model: 'x', inputTokens: Number.NaN })).toThrow(
      '[expect-llm] Failed to record model usage: token counts must be finite numbers >= 0, got input a number (NaN) and output a number (0). Pass the usage numbers the provider reported.',
    )
  })
})
