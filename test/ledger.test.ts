import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { configure, resetConfig } from '../src/config.js'
import {
  costOf,
  DEFAULT_PRICING,
  getLedger,
  priceOf,
  PRICING_AS_OF,
  PRICING_SOURCES,
  recordModelUsage,
  resetLedger,
  resetPricingNotices,
} from '../src/ledger.js'

let warn: ReturnType<typeof vi.spyOn>

beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  resetPricingNotices()
})

afterEach(() => {
  resetLedger()
  resetConfig()
  vi.restoreAllMocks()
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

  test('prices Anthropic and Gemini snapshots as their base model', () => {
    expect(priceOf('claude-haiku-4-5-20251001')).toEqual({ inputPerMTok: 1, outputPerMTok: 5 })
    expect(priceOf('claude-sonnet-4-20250514')).toEqual({ inputPerMTok: 3, outputPerMTok: 15 })
    expect(priceOf('gemini-2.5-flash-001')).toEqual({ inputPerMTok: 0.3, outputPerMTok: 2.5 })
  })

  test('does not price a different model that merely starts with a priced name', () => {
    expect(priceOf('gpt-5.5-pro')).toBeUndefined()
    expect(priceOf('gpt-6-luna-fast')).toBeUndefined()
    expect(priceOf('gemini-2.5-flash-preview-09-2025')).toBeUndefined()
    expect(priceOf('gemini-2.5-flash-latest')).toBeUndefined()
  })
})

describe('DEFAULT_PRICING', () => {
  test('covers current OpenAI, Anthropic and Google judge and embedding models', () => {
    for (const model of [
      'gpt-4.1-mini',
      'gpt-6-luna',
      'gpt-6.2-sol',
      'text-embedding-3-small',
      'claude-haiku-4-5',
      'claude-haiku-5-5',
      'claude-sonnet-5-5',
      'claude-opus-5-5',
      'gemini-3.8-flash',
      'gemini-2.5-flash',
      'gemini-embedding-001',
      'gemini-embedding-2',
    ]) {
      expect(DEFAULT_PRICING[model], model).toBeDefined()
    }
  })

  test('is dated and names its sources', () => {
    expect(PRICING_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(Object.values(PRICING_SOURCES).every((url) => url.startsWith('https://'))).toBe(true)
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

  test('counts a call without reported usage, with an unknown cost even for a priced model', () => {
    recordModelUsage({ kind: 'embedding', model: 'gemini-embedding-001' })
    recordModelUsage({ kind: 'embedding', model: 'gemini-embedding-001', inputTokens: 1_000_000 })
    expect(getLedger()).toMatchObject({
      calls: 2,
      inputTokens: 1_000_000,
      costUsd: 0.15,
      unpricedCalls: 0,
      callsWithoutUsage: 1,
      unpricedModels: [],
      modelsWithoutUsage: ['gemini-embedding-001'],
    })
    expect(getLedger().entries[0]).toMatchObject({ usageMissing: true, inputTokens: 0, outputTokens: 0 })
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
  test('names an unpriced model once, with the configure({ pricing }) line to add', () => {
    recordModelUsage({ kind: 'judge', model: 'llama3.1:8b', inputTokens: 10, outputTokens: 5 })
    recordModelUsage({ kind: 'judge', model: 'llama3.1:8b', inputTokens: 10, outputTokens: 5 })
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toMatchInlineSnapshot(`
      "[expect-llm] No price is known for the model "llama3.1:8b" (judge calls): its calls are counted, their cost is not. To price them, add to your setup file:
        configure({ pricing: { "llama3.1:8b": { inputPerMTok: <USD>, outputPerMTok: <USD> } } })
      with the provider's USD prices per million tokens (0 and 0 for a model you run yourself)."
    `)
  })

  test('says nothing about a priced model', () => {
    recordModelUsage({ kind: 'judge', model: 'claude-haiku-4-5-20251001', inputTokens: 10, outputTokens: 5 })
    expect(warn).not.toHaveBeenCalled()
  })

  test('rejects token counts that are not finite non-negative numbers', () => {
    expect(() => recordModelUsage({ kind: 'judge', model: 'x', inputTokens: Number.NaN })).toThrow(
      '[expect-llm] Failed to record model usage: token counts must be finite numbers >= 0, got input a number (NaN) and output a number (0). Pass the usage numbers the provider reported.',
    )
  })
})
