/**
 * The scale a judge scores on. Scores are normalized to [0, 1] for thresholds:
 * `'binary'` 0 (FAIL) or 1 (PASS); `'1-5'` → (v - 1) / 4; `'0-5'` → v / 5; `'0-1'` as is.
 */
export type JudgeScale = 'binary' | '1-5' | '0-5' | '0-1'

/** The built-in prompt templates. */
export type BuiltInTemplate = 'correctness' | 'rubric' | 'relevance' | 'faithfulness' | 'refusal' | 'goal'

/** What a judge is asked to evaluate. `prompt` is the complete rendered prompt; the fields are its parts. */
export interface JudgeRequest {
  /** The full prompt (template + reply-format instructions) a chat-model judge sends as the user message. */
  prompt: string
  /** The template the prompt was rendered from (`'custom'` for a user template). */
  template: BuiltInTemplate | 'custom'
  /** The scale the reply is read on. */
  scale: JudgeScale
  /** The text being judged (the value passed to `expect()`). */
  output: string
  /** The question or task the output answers. */
  input?: string
  /** A reference (known-good) answer. */
  reference?: string
  /** Retrieved or supplied context documents. */
  context?: string[]
  /** Criteria the output must meet. */
  criteria?: string
  /** 0-based index of this request among `samples` repeated requests. */
  sample: number
  /**
   * `true`: `prompt` is the user's template exactly as written, and a chat-model judge sends it alone (no
   * system prompt, no reply-format instructions, no structured output), for models trained on one prompt.
   */
  verbatim?: boolean
}

/** Token usage of one judge call, recorded in the run ledger. Leave the counts out when the provider reported none. */
export interface JudgeUsage {
  model: string
  inputTokens?: number
  outputTokens?: number
}

/** One claim of the output, as checked by the faithfulness template. */
export interface Claim {
  claim: string
  supported: boolean
  /** Why it is (not) supported, when the judge says. */
  reason?: string
}

/** What a judge returns for one request. */
export interface JudgeResult {
  /** The score normalized to [0, 1] (see {@link JudgeScale}). */
  score: number
  /** The score on the request's scale (0/1 for binary, 1-5, 0-5 or 0-1). */
  scaleValue: number
  /** The judge's reasoning. */
  reason: string
  /** The raw reply text (empty for plain-function judges). */
  raw: string
  /** Token usage, when the judge is a model; recorded in the ledger by the matchers. */
  usage?: JudgeUsage
  /** For the faithfulness template: every claim with its verdict. */
  claims?: Claim[]
  /** How the reply was read: structured/JSON, a verdict word, a number, or a function's return value. */
  parsedFrom?: 'json' | 'verdict' | 'number' | 'function'
  /** A remark about the reading, e.g. a score outside the scale that was clamped. */
  note?: string
  /** The model that answered, when known. */
  model?: string
}

/** Any judge: one method that evaluates a request. Throw on failure (the assertion then fails with your message). */
export interface Judge {
  /** A name for messages, e.g. the model name. */
  name?: string
  evaluate(request: JudgeRequest): Promise<JudgeResult>
}

/** What a plain-function judge may return: a value on the request's scale, a boolean verdict, or an object. */
export type JudgeFunctionResult = number | boolean | { score: number | boolean; reason?: string; claims?: Claim[] }

/**
 * A plain function used as a judge. A number is read on `request.scale` (0 or 1 for `'binary'`, 1-5 for
 * `'1-5'`, ...); `true`/`false` mean PASS/FAIL. A value outside the scale is an error.
 */
export type JudgeFunction = (request: JudgeRequest) => JudgeFunctionResult | Promise<JudgeFunctionResult>

/**
 * A ready `openai` SDK client (`new OpenAI(...)`, `new AzureOpenAI(...)`), described by the members
 * expect-llm uses, so that the types of expect-llm compile without the optional `openai` package.
 */
export interface OpenAIClientLike {
  baseURL: string
  chat: { completions: { create: (...args: any[]) => unknown } }
  embeddings: { create: (...args: any[]) => unknown }
}

/**
 * An AI SDK language model, such as `anthropic('claude-haiku-4-5')`, `google('gemini-2.5-flash')` or
 * `openai('gpt-4.1-mini')` from the `@ai-sdk/*` providers. Typed by shape (the provider's
 * `LanguageModel` specification object), so that expect-llm's types do not depend on the `ai` package.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: string
  readonly provider: string
  readonly modelId: string
  doGenerate(options: any): PromiseLike<unknown>
}

/** An `Anthropic` client of `@anthropic-ai/sdk` (`new Anthropic()`), typed by the part the judge uses. */
export interface AnthropicClientLike {
  messages: { create(body: any, options?: any): PromiseLike<any> }
  baseURL?: string
  maxRetries?: number
}

/**
 * Settings of the built-in judges. Which judge they make depends on what they hold:
 * - `model` is an AI SDK model (`anthropic('claude-haiku-4-5')`): the AI SDK judge (`aiSdkJudge`);
 * - `client` is an Anthropic client (`new Anthropic()`): the Anthropic judge (`anthropicJudge`);
 * - otherwise the OpenAI judge (`openAIJudge`), also for OpenAI-compatible servers through `baseURL`.
 */
export interface JudgeOptions {
  /**
   * The model: a model name (default {@link DEFAULT_JUDGE_MODEL}, `'gpt-4.1-mini'`, for OpenAI;
   * `'claude-haiku-4-5'` with an Anthropic client), or an AI SDK model object.
   */
  model?: string | AiSdkLanguageModel
  /** OpenAI-compatible endpoint, e.g. `'http://127.0.0.1:11434/v1'`. Default: `OPENAI_BASE_URL`, then OpenAI. */
  baseURL?: string
  /** API key. Default: `OPENAI_API_KEY`. Any non-empty string for local servers that ignore it. */
  apiKey?: string
  /**
   * A ready client, used as it is (its baseURL, key, retries and timeout): an `OpenAI` client, or an
   * `Anthropic` client of `@anthropic-ai/sdk`.
   */
  client?: OpenAIClientLike | AnthropicClientLike
  /**
   * Sampling temperature. Default 0, dropped (with a notice) for a model that rejects it; `null` sends
   * none, so the model's default applies (models that accept no temperature, under record/replay).
   */
  temperature?: number | null
  /** Retries of 408/409/429/5xx and connection errors, by the SDK. Default: the SDK's (2). */
  maxRetries?: number
  /** Request timeout in ms. Default: the SDK's. */
  timeout?: number
  /**
   * `'auto'` (default): ask for structured output (a JSON schema of the verdict) and fall back to free
   * text, for the rest of the run, when the server rejects it; `true`: always ask; `false`: never ask.
   */
  structuredOutput?: boolean | 'auto'
  /**
   * Most output tokens of a reply, thinking included, for every model judge: OpenAI's API gets
   * `max_completion_tokens`, OpenAI-compatible servers `max_tokens`, Anthropic `max_tokens`, the AI SDK
   * `maxOutputTokens`. Default 4096 for Anthropic (its API requires a value); the provider's default otherwise.
   */
  maxTokens?: number
}

/** Anything accepted where a judge is expected: a `Judge`, a plain function, or OpenAI judge settings. */
export type JudgeLike = Judge | JudgeFunction | JudgeOptions

/**
 * What `toPassJudge` (and `calibrateJudge`) evaluate: the criteria and/or reference answer, the scale and
 * threshold, and optionally the template, judge and number of samples.
 */
export interface JudgeSpec {
  /** What the output must do ("answers politely and names the refund window"). */
  criteria?: string
  /** A full reference answer; selects the `'correctness'` template unless `template` says otherwise. */
  reference?: string
  /** The question or task, shown to the judge. */
  input?: string
  /** Context documents, shown to the judge. */
  context?: string | string[]
  /** Default `'binary'`. */
  scale?: JudgeScale
  /** Minimum normalized score to pass (inclusive). Default {@link DEFAULT_JUDGE_THRESHOLD} (0.7). */
  threshold?: number
  /** A built-in template name, or a custom template with `{output}` and any of `{input} {reference} {context} {criteria}`. */
  template?: BuiltInTemplate | (string & {})
  /** The judge to use instead of `configure({ judge })`. */
  judge?: JudgeLike
  /**
   * Ask the judge n times; the majority verdict decides and the agreement rate is reported. Default 1.
   * Or a list of judges (a panel, e.g. one OpenAI and one Anthropic model, so that no model grades its
   * own family's style alone): each is asked once, the majority decides (a tie fails), and the message
   * and report show every judge's score and the agreement. Replaces `judge`.
   */
  samples?: number | JudgeLike[]
  /**
   * Send a custom `template` exactly as written: no system prompt, no JSON reply-format suffix, no
   * structured output (for fact-checking models such as MiniCheck that expect one exact prompt). The reply
   * is read as any free-text reply (a verdict word such as "Yes"/"No", or a number). Default `false`.
   */
  verbatim?: boolean
  /**
   * A reply with no score in it (no JSON score, verdict word or number) scores the bottom of the scale,
   * with the reply as the reason, instead of failing with an error. Default `false`: an unreadable reply is
   * an error, so that a broken judge never passes quietly.
   */
  lenient?: boolean
}

/** Default chat model of the OpenAI judge: supports temperature 0 and strict JSON-schema output, and is inexpensive. */
export const DEFAULT_JUDGE_MODEL = 'gpt-4.1-mini'

/**
 * Default pass threshold on the normalized score: a binary PASS (1) passes and a FAIL (0) does not; on
 * `'1-5'` a 4 (0.75) passes and a 3 (0.5) does not; on `'0-5'` a 4 (0.8) passes and a 3 (0.6) does not;
 * on `'0-1'` 0.7 and above passes. One number that means "good, not merely acceptable" on every scale.
 */
export const DEFAULT_JUDGE_THRESHOLD = 0.7

/** Default threshold of `toBeFaithfulTo`: every claim of the output must be supported by the context. */
export const DEFAULT_FAITHFULNESS_THRESHOLD = 1

/** The keys of {@link JudgeOptions}, to tell settings from a typo. */
export const JUDGE_OPTION_KEYS = ['model', 'baseURL', 'apiKey', 'client', 'temperature', 'maxRetries', 'timeout', 'structuredOutput', 'maxTokens'] as const
