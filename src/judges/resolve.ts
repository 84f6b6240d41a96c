import { getConfig } from '../config.js'
import { checkModelSettings } from '../config-check.js'
import { describeValue, formatMessage, isFiniteNumber } from '../errors.js'
import { failWith, type Fail } from '../errors.js'
import { isAiSdkEmbeddingModel, isAiSdkLanguageModel } from '../ai-sdk.js'
import { aiSdkJudge } from './ai-sdk.js'
import { anthropicJudge } from './anthropic.js'
import { openAIJudge, type OpenAIJudgeOptions } from './openai.js'
import { normalizeScore, scaleRange } from './parse.js'
import type {
  AiSdkLanguageModel,
  AnthropicClientLike,
  Claim,
  Judge,
  JudgeFunction,
  JudgeFunctionResult,
  JudgeLike,
  JudgeOptions,
  JudgeRequest,
  JudgeResult,
} from './types.js'
import { processSlot } from '../process-state.js'

const fromFunction = new WeakMap<JudgeFunction, Judge>()
const fromOptions = new WeakMap<JudgeOptions, Judge>()

function judgeError(reason: string, fix: string): Error {
  return new TypeError(formatMessage(`Failed to use the judge: ${reason}. ${fix}`))
}

function readFunctionResult(value: JudgeFunctionResult, request: JudgeRequest, name: string): JudgeResult {
  const [min, max] = scaleRange(request.scale)
  let scoreValue: unknown = value
  let reason = ''
  let claims: Claim[] | undefined
  if (value !== null && typeof value === 'object') {
    scoreValue = value.score
    if (value.reason !== undefined) reason = String(value.reason)
    if (Array.isArray(value.claims)) claims = value.claims
  }
  if (typeof scoreValue === 'boolean') scoreValue = scoreValue ? max : min
  if (!isFiniteNumber(scoreValue) || scoreValue < min || scoreValue > max) {
    throw judgeError(
      `the judge function ${name} returned ${describeValue(scoreValue)}, which is not a score on the ${request.scale} scale (${min} to ${max})`,
      `Return a number from ${min} to ${max}, true/false, or { score, reason }.`,
    )
  }
  const result: JudgeResult = { score: normalizeScore(scoreValue, request.scale), scaleValue: scoreValue, reason, raw: '', parsedFrom: 'function' }
  if (claims) result.claims = claims
  return result
}

/**
 * Wraps a plain function as a {@link Judge}. A number is read on the request's scale; `true`/`false`
 * mean PASS/FAIL; `{ score, reason, claims? }` adds the reasoning (and, for faithfulness, the claims).
 *
 * @example
 * ```ts
 * const keywordJudge = functionJudge(({ output }) => ({ score: /refund/i.test(output), reason: 'mentions refunds' }))
 * ```
 */
export function functionJudge(fn: JudgeFunction): Judge {
  const name = fn.name ? `"${fn.name}"` : '(anonymous)'
  return {
    name: fn.name || 'function judge',
    async evaluate(request) {
      return readFunctionResult(await fn(request), request, name)
    },
  }
}

/** An Anthropic client: `messages.create` and no OpenAI `chat.completions`. */
function isAnthropicClient(client: unknown): client is AnthropicClientLike {
  // client is undefined or an object here (checkModelSettings rejects null and primitives before).
  const c = client as { messages?: { create?: unknown }; chat?: unknown } | undefined
  return typeof c?.messages?.create === 'function' && c.chat === undefined
}

/**
 * The built-in judge that settings describe: the AI SDK judge for an AI SDK model, the Anthropic judge
 * for an Anthropic client, the OpenAI judge otherwise. Settings that belong to another judge (a
 * `baseURL` next to an AI SDK model) are an error rather than silently ignored.
 */
function judgeFromOptions(options: JudgeOptions, fail: Fail): Judge {
  const { model, client, ...rest } = options
  const misplaced = (keys: readonly (keyof JudgeOptions)[], where: string, fix: string): void => {
    const set = keys.filter((k) => options[k] !== undefined)
    if (set.length > 0) fail(`${set.map((k) => `"${k}"`).join(' and ')} cannot be combined with ${where}`, fix)
  }
  if (model !== undefined && typeof model !== 'string') {
    if (!isAiSdkLanguageModel(model)) {
      const hint = isAiSdkEmbeddingModel(model) ? 'an AI SDK embedding model (configure it as the embedder)' : describeValue(model)
      fail(
        `"model" must be a model name or an AI SDK language model, got ${hint}`,
        "Pass for example { model: anthropic('claude-haiku-4-5') } from @ai-sdk/anthropic, or { model: 'gpt-4.1-mini' }.",
      )
    }
    misplaced(
      ['baseURL', 'apiKey', 'client'],
      'an AI SDK model',
      'Set the endpoint and key on the AI SDK provider instead: createAnthropic({ baseURL, apiKey }).',
    )
    return aiSdkJudge({ ...options, model: model as AiSdkLanguageModel })
  }
  if (isAnthropicClient(client)) {
    misplaced(['baseURL', 'apiKey'], 'an Anthropic client', 'Set them on the client instead: new Anthropic({ baseURL, apiKey }).')
    // model undefined is the judge's default model (options.model ?? default).
    return anthropicJudge({ ...rest, client, model })
  }
  // model undefined is the default model, client undefined a client built from the settings.
  return openAIJudge({ ...rest, model, client: client as OpenAIJudgeOptions['client'] })
}

/**
 * Turns anything accepted as a judge into a {@link Judge}: a `Judge` as is, a function through
 * {@link functionJudge}, settings through the built-in judge they describe (`aiSdkJudge` for an AI
 * SDK model, `anthropicJudge` for an Anthropic client, {@link openAIJudge} otherwise; one instance per
 * settings object, so its client and structured-output fallback are reused). `undefined` means `configure({ judge })`, and
 * without that, the default OpenAI judge (configured from `OPENAI_API_KEY` / `OPENAI_BASE_URL`).
 *
 * @example
 * ```ts
 * const judge = resolveJudge({ model: 'gpt-4o-mini' })
 * ```
 */
export function resolveJudge(like?: JudgeLike, fail: Fail = failWith('use the judge')): Judge {
  const value: unknown = like ?? getConfig().judge
  if (value === undefined) {
    // Stryker disable next-line StringLiteral: equivalent, any key that no other process slot uses holds the same default judge
    return processSlot<Judge>('default-judge', () => openAIJudge())
  }
  if (typeof value === 'function') {
    const fn = value as JudgeFunction
    let judge = fromFunction.get(fn)
    if (!judge) fromFunction.set(fn, (judge = functionJudge(fn)))
    return judge
  }
  // value is neither undefined (handled above) nor null here: like ?? config.judge, and configure() rejects judge: null.
  if (typeof (value as Partial<Judge>).evaluate === 'function') return value as Judge
  if (typeof value === 'object' && !Array.isArray(value)) {
    const problems = checkModelSettings(value as Record<string, unknown>, 'judge')
    if (problems.length > 0) fail(problems.map((p) => p.reason).join('; '), problems[0]!.fix)
    const options = value as JudgeOptions
    let judge = fromOptions.get(options)
    if (!judge) fromOptions.set(options, (judge = judgeFromOptions(options, fail)))
    return judge
  }
  return fail(
    `the judge must be a Judge, a function or judge settings, got ${describeValue(value)}`,
    'Pass for example { model: "gpt-4.1-mini" }, or a function (request) => score.',
  )
}

/** Checks what a custom `Judge` returned, so a broken judge fails with a message instead of a NaN verdict. */
export function checkJudgeResult(result: unknown, judgeName: string): JudgeResult {
  const r = result as Partial<JudgeResult> | null
  if (r === null || typeof r !== 'object' || !isFiniteNumber(r.score) || r.score < 0 || r.score > 1) {
    const got = r !== null && typeof r === 'object' ? `a result with score ${describeValue(r.score)}` : describeValue(result)
    throw judgeError(`the judge ${judgeName} returned ${got}`, 'A Judge must resolve to { score, scaleValue, reason, raw } with score normalized to [0, 1].')
  }
  return {
    ...r,
    score: r.score,
    scaleValue: typeof r.scaleValue === 'number' ? r.scaleValue : r.score,
    reason: typeof r.reason === 'string' ? r.reason : '',
    raw: typeof r.raw === 'string' ? r.raw : '',
  }
}
