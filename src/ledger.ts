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
import { peekProcessSlot, processSlot } from './process-state.js'
import { DEFAULT_PRICING, type ModelPrice } from './pricing.js'

export { DEFAULT_PRICING, PRICING_AS_OF, PRICING_SOURCES, type ModelPrice } from './pricing.js'

/** What a model call was for. */
export type LedgerKind = 'judge' | 'embedding'

/** One model call as recorded. */
export interface LedgerEntry {
  kind: LedgerKind
  /** The model the server reported (or the one requested). */
  model: string
  inputTokens: number
  outputTokens: number
  /**
   * `true` when the provider reported no token usage for the call (Gemini embeddings never do; some
   * OpenAI-compatible servers omit it): the call is counted, its tokens (0 here) and cost are unknown.
   */
  usageMissing?: true
  /** When the call finished (ms since the epoch). */
  at: number
}

/** Sums over a set of calls. `costUsd` counts only calls whose model has a price and whose usage was reported. */
export interface LedgerTotals {
  calls: number
  inputTokens: number
  outputTokens: number
  costUsd: number
  /** Calls whose model is in no pricing table: their tokens are counted, their cost is not. */
  unpricedCalls: number
  /** Calls whose provider reported no token usage: counted, but their tokens and cost are unknown. */
  callsWithoutUsage: number
}

/** The ledger as returned by {@link getLedger}: totals, breakdowns and every entry. */
export interface Ledger extends LedgerTotals {
  byKind: Record<LedgerKind, LedgerTotals>
  byModel: Record<string, LedgerTotals>
  /** Models seen without a price, so a report can say which ones to add to `configure({ pricing })`. */
  unpricedModels: string[]
  /** Models whose provider reported no token usage for some call (their cost is unknown). */
  modelsWithoutUsage: string[]
  entries: LedgerEntry[]
}

function entries(): LedgerEntry[] {
  return processSlot<LedgerEntry[]>('ledger', () => [])
}

function isTokenCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0
}

/**
 * Names a model without a price once per process (per worker), with the `configure({ pricing })` line
 * that prices it, so a cost that reads $0 in a report is never silently wrong.
 */
function noticeUnpriced(model: string, kind: LedgerKind): void {
  const warned = processSlot('unpriced-models-warned', () => new Set<string>())
  if (warned.has(model) || priceOf(model) !== undefined) return
  warned.add(model)
  const output = kind === 'embedding' ? '0' : '<USD>'
  console.warn(
    formatMessage(
      `No price is known for the model ${JSON.stringify(model)} (${kind} calls): its calls are counted, ` +
        `their cost is not. To price them, add to your setup file:\n  configure({ pricing: { ` +
        `${JSON.stringify(model)}: { inputPerMTok: <USD>, outputPerMTok: ${output} } } })\nwith the ` +
        `provider's USD prices per million tokens (0 and 0 for a model you run yourself).`,
    ),
  )
}

/**
 * Records the usage of one model call made on the library's behalf. The built-in judges and embedders
 * record their calls themselves (judge usage returned by a custom `Judge` is recorded by the
 * matchers); call this from a custom `Embedder` to have its calls counted too. Leave `inputTokens`
 * out when the provider reported no usage: the call is counted with an unknown cost. A model without a
 * price is named once on the console, with the `configure({ pricing })` line to add.
 *
 * @example
 * ```ts
 * recordModelUsage({ kind: 'embedding', model: 'nomic-embed-text', inputTokens: 812, outputTokens: 0 })
 * recordModelUsage({ kind: 'embedding', model: 'gemini-embedding-001' }) // no usage reported
 * ```
 */
export function recordModelUsage(entry: { kind: LedgerKind; model: string; inputTokens?: number | undefined; outputTokens?: number | undefined }): void {
  const model = String(entry.model)
  if (entry.inputTokens === undefined && entry.outputTokens === undefined) {
    entries().push({ kind: entry.kind, model, inputTokens: 0, outputTokens: 0, usageMissing: true, at: Date.now() })
    noticeUnpriced(model, entry.kind)
    return
  }
  const outputTokens = entry.outputTokens ?? 0
  if (!isTokenCount(entry.inputTokens) || !isTokenCount(outputTokens)) {
    throw new TypeError(
      formatMessage(
        `Failed to record model usage: token counts must be finite numbers >= 0, got input ` +
          `${describeValue(entry.inputTokens)} and output ${describeValue(outputTokens)}. Pass the usage ` +
          `numbers the provider reported.`,
      ),
    )
  }
  entries().push({ kind: entry.kind, model, inputTokens: entry.inputTokens, outputTokens, at: Date.now() })
  noticeUnpriced(model, entry.kind)
}

/** A dated or numbered snapshot suffix: `2025-04-14`, `20251001` (Anthropic), `001` (Gemini). */
const SNAPSHOT_SUFFIX = /^(?:\d{4}-\d{2}-\d{2}|\d{8}|\d{3})$/

/**
 * The price of a model: `configure({ pricing })` first, then {@link DEFAULT_PRICING}; a snapshot
 * (`gpt-4o-mini-2024-07-18`, `claude-haiku-4-5-20251001`, `gemini-2.5-flash-001`) falls back to its
 * base name. Only such snapshot suffixes do: `gpt-5.5-pro` is not priced as `gpt-5.5`, nor an alias
 * such as `-latest` (it may point at a model with another price). Returns
 * `undefined` when no price is known.
 *
 * @example
 * ```ts
 * priceOf('gpt-4.1-mini-2025-04-14') // { inputPerMTok: 0.4, outputPerMTok: 1.6 }
 * priceOf('claude-haiku-4-5-20251001') // { inputPerMTok: 1, outputPerMTok: 5 }
 * ```
 */
export function priceOf(model: string): ModelPrice | undefined {
  const table: Record<string, ModelPrice> = { ...DEFAULT_PRICING, ...(getConfig().pricing ?? {}) }
  if (Object.hasOwn(table, model)) return table[model]
  let best: string | undefined
  for (const name of Object.keys(table)) {
    if (model.startsWith(`${name}-`) && SNAPSHOT_SUFFIX.test(model.slice(name.length + 1)) && (best === undefined || name.length > best.length)) best = name
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
  return { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0, callsWithoutUsage: 0 }
}

function add(totals: LedgerTotals, entry: LedgerEntry, cost: number | undefined): void {
  totals.calls++
  totals.inputTokens += entry.inputTokens
  totals.outputTokens += entry.outputTokens
  if (entry.usageMissing) totals.callsWithoutUsage++
  else if (cost === undefined) totals.unpricedCalls++
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
  const ledger: Ledger = {
    ...emptyTotals(),
    byKind: { judge: emptyTotals(), embedding: emptyTotals() },
    byModel: {},
    unpricedModels: [],
    modelsWithoutUsage: [],
    entries: [],
  }
  for (const entry of entries()) {
    const cost = costOf(entry.model, entry.inputTokens, entry.outputTokens)
    add(ledger, entry, cost)
    add(ledger.byKind[entry.kind], entry, cost)
    add((ledger.byModel[entry.model] ??= emptyTotals()), entry, cost)
    if (cost === undefined && !entry.usageMissing && !ledger.unpricedModels.includes(entry.model)) ledger.unpricedModels.push(entry.model)
    if (entry.usageMissing && !ledger.modelsWithoutUsage.includes(entry.model)) ledger.modelsWithoutUsage.push(entry.model)
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

/** Forgets which unpriced models were already named on the console (for tests). */
export function resetPricingNotices(): void {
  peekProcessSlot<Set<string>>('unpriced-models-warned')?.clear()
}
