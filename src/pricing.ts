/**
 * The price table of model calls: {@link ModelPrice} and the default prices. A leaf module (it imports
 * nothing), so that the configuration (`configure({ pricing })`) and the ledger can both use it without
 * importing each other. `ledger.ts` re-exports every name.
 *
 * @module
 */

/** USD per million tokens. */
export interface ModelPrice {
  inputPerMTok: number
  outputPerMTok: number
}

/** The day {@link DEFAULT_PRICING} was last checked against the providers' price pages. */
export const PRICING_AS_OF = '2026-11-30'

/** Where {@link DEFAULT_PRICING} comes from: each provider's public price page (standard tier). */
export const PRICING_SOURCES: Readonly<Record<'openai' | 'anthropic' | 'google', string>> = Object.freeze({
  openai: 'https://developers.openai.com/api/docs/pricing',
  anthropic: 'https://platform.claude.com/docs/en/about-claude/pricing',
  google: 'https://ai.google.dev/gemini-api/docs/pricing',
})

/**
 * Default prices in USD per million tokens: the standard (non-batch, uncached, short-prompt) tier of
 * the current OpenAI, Anthropic and Google models, from {@link PRICING_SOURCES} as of
 * {@link PRICING_AS_OF}. Where a provider charges more above a prompt length (OpenAI's GPT-6 and
 * GPT-5.6 above 272K input tokens, Claude Haiku 5.5 above 100K, Gemini Pro above 200K), the
 * short-prompt price is listed; judge prompts are far below those limits. Gemini 3.8 Flash is listed
 * at its price through 2026-12-31 ($1.50 / $7.50 from 2027-01-01). Prices change: override or add
 * models with `configure({ pricing: { 'my-model': { inputPerMTok, outputPerMTok } } })`; your entries
 * are merged over these. A dated snapshot (`gpt-4.1-mini-2025-04-14`, `claude-haiku-4-5-20251001`,
 * `gemini-2.5-flash-001`) is priced as its base name. A model found in neither table is counted with
 * an unknown cost, never guessed, and named once on the console with the line to add.
 */
export const DEFAULT_PRICING: Readonly<Record<string, ModelPrice>> = Object.freeze({
  // OpenAI
  'gpt-6-astra': { inputPerMTok: 10, outputPerMTok: 50 },
  'gpt-6.2-sol': { inputPerMTok: 2, outputPerMTok: 10 },
  'gpt-6.1-sol': { inputPerMTok: 2, outputPerMTok: 10 },
  'gpt-6.1-terra': { inputPerMTok: 1, outputPerMTok: 5 },
  'gpt-6-sol': { inputPerMTok: 2, outputPerMTok: 10 },
  'gpt-6-luna': { inputPerMTok: 0.1, outputPerMTok: 0.5 },
  'gpt-5.6-sol': { inputPerMTok: 4, outputPerMTok: 20 },
  'gpt-5.6-terra': { inputPerMTok: 2, outputPerMTok: 12 },
  'gpt-5.6-luna': { inputPerMTok: 0.2, outputPerMTok: 1.2 },
  'gpt-5.5': { inputPerMTok: 5, outputPerMTok: 30 },
  'gpt-5.4': { inputPerMTok: 2.5, outputPerMTok: 15 },
  'gpt-5.4-mini': { inputPerMTok: 0.75, outputPerMTok: 4.5 },
  'gpt-5.4-nano': { inputPerMTok: 0.2, outputPerMTok: 1.25 },
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
  // Anthropic
  'claude-fable-5-1': { inputPerMTok: 10, outputPerMTok: 50 },
  'claude-fable-5': { inputPerMTok: 10, outputPerMTok: 50 },
  'claude-opus-5-5': { inputPerMTok: 4, outputPerMTok: 20 },
  'claude-opus-5': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-opus-4-8': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-opus-4-7': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-opus-4-6': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-opus-4-5': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-opus-4-1': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-opus-4-0': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-opus-4': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-sonnet-5-5': { inputPerMTok: 2, outputPerMTok: 10 },
  'claude-sonnet-5': { inputPerMTok: 2, outputPerMTok: 10 },
  'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-sonnet-4-0': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-haiku-5-5': { inputPerMTok: 0.1, outputPerMTok: 0.5 },
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 },
  'claude-3-5-haiku': { inputPerMTok: 0.8, outputPerMTok: 4 },
  'claude-3-haiku': { inputPerMTok: 0.25, outputPerMTok: 1.25 },
  // Google (Gemini Developer API, paid tier)
  'gemini-3.8-flash': { inputPerMTok: 0.75, outputPerMTok: 3.75 },
  'gemini-3.5-flash': { inputPerMTok: 1.5, outputPerMTok: 9 },
  'gemini-3.5-flash-lite': { inputPerMTok: 0.3, outputPerMTok: 2.5 },
  'gemini-3.1-pro-preview': { inputPerMTok: 2, outputPerMTok: 12 },
  'gemini-2.5-pro': { inputPerMTok: 1.25, outputPerMTok: 10 },
  'gemini-2.5-flash': { inputPerMTok: 0.3, outputPerMTok: 2.5 },
  'gemini-2.5-flash-lite': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'gemini-embedding-2': { inputPerMTok: 0.2, outputPerMTok: 0 },
  'gemini-embedding-001': { inputPerMTok: 0.15, outputPerMTok: 0 },
})
