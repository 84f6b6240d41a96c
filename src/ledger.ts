/**
 * The run ledger: token usage and cost of every model call expect-llm itself makes (judge and
 * embedding requests), kept apart from the usage of the application under test, for reports and
 * budgets. State lives on `globalThis` so the ESM and CJS builds share one ledger per process
 * (one per Vitest worker).
 *
 * @module
 */
import { getConfig } from './config.js'
import { describeValue, formatMessage } from './errors.js'

/** USD per million tokens. */
export interface ModelPrice {
  inputPerMTok: number
  outputPerMTok: number
}

/**
 * Default prices in USD per million tokens, standard (non-batch, uncached) tier, from OpenAI's public
 * pricing page (https://openai.com/api/pricing) as published in 2025. Prices change: override or add
 * models with `configure({ pricing: { 'my-model': { inputPerMTok, outputPerMTok } } })`; your entries
 * are merged over these. A dated snapshot such as `gpt-4.1-mini-2025-04-14` is priced as its base
 * name. A model found in neither table is counted with an unknown cost, never guessed.
 */
export const DEFAULT_PRICING: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 },
  'gpt-5-mini': { inputPerMTok: 0.25, outputPerMTok: 2 },
  'gpt-5-nano': { inputPerMTok: 0.05, outputPerMTok: 0.4 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  o3: { inputPerMTok: 2, outputPerMTok: 8 },
  'o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  'text-embedding-3-small': { inputPerMTok: 0.02, outputPerMTok: 0 },
  'text-embedding-3-large': { inputPerMTok: 0.13, outputPerMTok: 0 },
  'text-embedding-ada-002': { inputPerMTok: 0.1, outputPerMTok: 0 },
})

/** What a model call was for. */
export type LedgerKind = 'judge' | 'embedding'

/** One model call as recorded. */
export interface LedgerEntry {
  kind: LedgerKind
  /** The model the server reported (or the one requested). */
  model: string
  inputTokens: number
  outputTokens: number
  /** When the call finished (ms since the epoch). */
  at: number
}

/** Sums over a set of calls. `costUsd` counts only calls whose model has a price. */
export interface LedgerTotals {
  calls: number
  inputTokens: number
  outputTokens: number
  costUsd: number
  /** Calls whose model is in no pricing table: their tokens are counted, their cost is not. */
  unpricedCalls: number
}

/** The ledger as returned by {@link getLedger}: totals, breakdowns and every entry. */
export interface Ledger extends LedgerTotals {
  byKind: Record<LedgerKind, LedgerTotals>
  byModel: Record<string, LedgerTotals>
  /** Models seen without a price, so a report can say which ones to add to `configure({ pricing })`. */
  unpricedModels: string[]
  entries: LedgerEntry[]
}

const STATE_KEY = Symbol.for('expect-llm.ledger')

function entries(): LedgerEntry[] {
  const g = globalThis as typeof globalThis & { [STATE_KEY]?: LedgerEntry[] }
  g[STATE_KEY] ??= []
  return g[STATE_KEY]
}

function isTokenCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0
}

/**
 * Records the usage of one model call made on the library's behalf. The built-in OpenAI judge and
 * embedder record their calls themselves (judge usage returned by a custom `Judge` is recorded by the
 * matchers); call this from a custom `Embedder` to have its calls counted too.
 *
 * @example
 * ```ts
 * recordModelUsage({ kind: 'embedding', model: 'nomic-embed-text', inputTokens: 812, outputTokens: 0 })
 * ```
 */
export function recordModelUsage(entry: { kind: LedgerKind; model: string; inputTokens: number; outputTokens?: number }): void {
  const outputTokens = entry.outputTokens ?? 0
  if (!isTokenCount(entry.inputTokens) || !isTokenCount(outputTokens)) {
    throw new TypeError(
      formatMessage(
        `Failed to record model usage: token counts must be finite numbers >= 0, got input ${describeValue(entry.inputTokens)} and output ${describeValue(outputTokens)}. Pass the usage numbers the provider reported.`,
      ),
    )
  }
  entries().push({ kind: entry.kind, model: String(entry.model), inputTokens: entry.inputTokens, outputTokens, at: Date.now() })
}

/**
 * The price of a model: `configure({ pricing })` first, then {@link DEFAULT_PRICING}; a dated snapshot
 * (`gpt-4o-mini-2024-07-18`) falls back to the longest priced name it starts with followed by `-`.
 * Returns `undefined` when no price is known.
 *
 * @example
 * ```ts
 * priceOf('gpt-4.1-mini-2025-04-14') // { inputPerMTok: 0.4, outputPerMTok: 1.6 }
 * ```
 */
export function priceOf(model: string): ModelPrice | undefined {
  const table: Record<string, ModelPrice> = { ...DEFAULT_PRICING, ...(getConfig().pricing ?? {}) }
  if (Object.hasOwn(table, model)) return table[model]
  let best: string | undefined
  for (const name of Object.keys(table)) {
    if (model.startsWith(`${name}-`) && (best === undefined || name.length > best.length)) best = name
  }
  return best === undefined ? undefined : table[best]
}

/**
 * Cost in USD of the given token counts for a model, or `undefined` when the model has no price.
 *
 * @example
 * ```ts
 * costOf('gpt-4o-mini', 1_000_000, 1_000_000) // 0.75
 * ```
 */
export function costOf(model: string, inputTokens: number, outputTokens: number): number | undefined {
  const price = priceOf(model)
  if (!price) return undefined
  return (inputTokens * price.inputPerMTok + outputTokens * price.outputPerMTok) / 1_000_000
}

function emptyTotals(): LedgerTotals {
  return { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 }
}

function add(totals: LedgerTotals, entry: LedgerEntry, cost: number | undefined): void {
  totals.calls++
  totals.inputTokens += entry.inputTokens
  totals.outputTokens += entry.outputTokens
  if (cost === undefined) totals.unpricedCalls++
  else totals.costUsd += cost
}

/**
 * Token usage and cost of the model calls expect-llm made in this process since the start or the last
 * {@link resetLedger}. Costs are computed when you call this, with the pricing configured then.
 *
 * @example
 * ```ts
 * afterAll(() => {
 *   const { calls, costUsd, byKind } = getLedger()
 *   console.log(`judge+embedding calls: ${calls}, $${costUsd.toFixed(4)} (judge $${byKind.judge.costUsd.toFixed(4)})`)
 * })
 * ```
 */
export function getLedger(): Ledger {
  const ledger: Ledger = { ...emptyTotals(), byKind: { judge: emptyTotals(), embedding: emptyTotals() }, byModel: {}, unpricedModels: [], entries: [] }
  for (const entry of entries()) {
    const cost = costOf(entry.model, entry.inputTokens, entry.outputTokens)
    add(ledger, entry, cost)
    add(ledger.byKind[entry.kind], entry, cost)
    add((ledger.byModel[entry.model] ??= emptyTotals()), entry, cost)
    if (cost === undefined && !ledger.unpricedModels.includes(entry.model)) ledger.unpricedModels.push(entry.model)
    ledger.entries.push({ ...entry })
  }
  return ledger
}

/**
 * Empties the ledger.
 *
 * @example
 * ```ts
 * beforeEach(() => resetLedger())
 * ```
 */
export function resetLedger(): void {
  entries().length = 0
}
