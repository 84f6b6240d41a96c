// Checks every key and value of `configure()` options, nested ones included, before any is stored: a
// misspelled option (`replay: { host }`, `judge: { baseUrl }`) must fail at the call, with a did-you-mean,
// instead of being ignored (the judge would then reach the live server in replay mode).
//
// Written by hand rather than with ajv (already a dependency, for toMatchSchema): several values are
// functions, clients or Judge objects, which JSON Schema cannot describe, and the messages need the
// option's path and a suggestion, not ajv's error objects.
import type { EMBEDDER_OPTION_KEYS } from './embedders/types.js'
import { MAX_EMBEDDING_BATCH, type EmbedderOptions } from './embedders/types.js'
import { describeValue, formatMessage } from './errors.js'
import type { JUDGE_OPTION_KEYS } from './judges/types.js'
import type { JudgeOptions } from './judges/types.js'
import type { ModelPrice } from './pricing.js'
import { parseAge } from './replay/age.js'
import { parseHostPattern } from './replay/hosts.js'
import { REPLAY_MODES } from './replay/mode.js'
import type { ReplayOptions } from './replay/types.js'
import { didYouMean } from './suggest.js'

/** One problem: what is wrong, and how to fix it. */
export interface OptionProblem {
  reason: string
  fix: string
}

/** The top-level keys of `configure()`. */
export const CONFIG_KEYS = ['judge', 'embedder', 'replay', 'pricing', 'concurrency'] as const

/** The keys of `ReplayOptions`, to tell settings from a typo. */
export const REPLAY_OPTION_KEYS = [
  'mode',
  'dir',
  'rootDir',
  'hosts',
  'allowedHosts',
  'upstream',
  'ignoreBodyFields',
  'redact',
  'maxAge',
  'sequence',
  'recordErrors',
  'replayTiming',
  'testPath',
  'testName',
] as const satisfies ReadonlyArray<keyof ReplayOptions>

const PRICE_KEYS = ['inputPerMTok', 'outputPerMTok'] as const satisfies ReadonlyArray<keyof ModelPrice>

// Every option type's keys must be listed above: a new option without an entry fails `npm run typecheck`
// here (add it to the list and give it a check below), instead of being rejected as unknown at run time.
type AllListed<T, Listed> = Exclude<keyof T, Listed> extends never ? true : { missing: Exclude<keyof T, Listed> }
const listed: [
  AllListed<ReplayOptions, (typeof REPLAY_OPTION_KEYS)[number]>,
  AllListed<JudgeOptions, (typeof JUDGE_OPTION_KEYS)[number]>,
  AllListed<EmbedderOptions, (typeof EMBEDDER_OPTION_KEYS)[number]>,
  AllListed<ModelPrice, (typeof PRICE_KEYS)[number]>,
] = [true, true, true, true]
void listed

type ValueCheck = (value: unknown) => string | undefined

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)
const got = (v: unknown) => `got ${describeValue(v)}`

const nonEmptyString: ValueCheck = (v) => (typeof v === 'string' && v.trim() !== '' ? undefined : `must be a non-empty string, ${got(v)}`)
const string: ValueCheck = (v) => (typeof v === 'string' ? undefined : `must be a string, ${got(v)}`)
const boolean: ValueCheck = (v) => (typeof v === 'boolean' ? undefined : `must be true or false, ${got(v)}`)
const func: ValueCheck = (v) => (typeof v === 'function' ? undefined : `must be a function, ${got(v)}`)
const object: ValueCheck = (v) => (isObject(v) ? undefined : `must be an object, ${got(v)}`)
const number =
  (min: number, max = Infinity, exclusiveMin = false): ValueCheck =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && (exclusiveMin ? v > min : v >= min) && v <= max
      ? undefined
      : `must be a number ${exclusiveMin ? '>' : '>='} ${min}${max !== Infinity ? ` and <= ${max}` : ''}, ${got(v)}`
const integer =
  (min: number, max = Infinity): ValueCheck =>
  (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max
      ? undefined
      : `must be a whole number >= ${min}${max !== Infinity ? ` and <= ${max}` : ''}, ${got(v)}`
const oneOf =
  (values: readonly unknown[]): ValueCheck =>
  (v) =>
    values.includes(v) ? undefined : `must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}, ${got(v)}`
const httpUrl: ValueCheck = (v) => {
  if (typeof v !== 'string') return `must be a URL string, ${got(v)}`
  try {
    const url = new URL(v)
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : `must be an http(s) URL, got ${JSON.stringify(v)}`
  } catch {
    return `must be an http(s) URL such as 'http://127.0.0.1:11434/v1', got ${JSON.stringify(v)}`
  }
}
/** An origin pattern of `hosts` / `allowedHosts` (`*` for a DNS label or the port), parsed as record/replay parses it. */
const origin: ValueCheck = (v) => {
  const shown = typeof v === 'string' ? JSON.stringify(v) : describeValue(v)
  const problem = `must be an origin such as 'http://127.0.0.1:11434' or 'https://*.example.com', got ${shown}`
  if (typeof v !== 'string') return problem
  try {
    parseHostPattern(v)
    return undefined
  } catch {
    return problem
  }
}
// Problems of an item are reported as `[<index or JSON key>] <problem>` (see checkObject).
const arrayOf =
  (each: ValueCheck, what: string): ValueCheck =>
  (v) => {
    if (!Array.isArray(v)) return `must be an array of ${what}, ${got(v)}`
    for (const [i, item] of v.entries()) {
      const problem = each(item)
      if (problem) return `[${i}] ${problem}`
    }
    return undefined
  }

/** `upstream`: origin patterns, each mapped to the server its requests go to while recording. */
const upstream: ValueCheck = (v) => {
  if (!isObject(v))
    return `must be an object of origins and the servers to send their requests to, such as { 'https://api.openai.com': 'http://127.0.0.1:8080' }, ${got(v)}`
  for (const [from, to] of Object.entries(v)) {
    const key = origin(from)
    if (key) return `key ${JSON.stringify(from)} ${key.replace(/, got .*$/s, '')}`
    const problem = httpUrl(to) ?? origin(to)
    if (problem) return `[${JSON.stringify(from)}] ${problem}`
  }
  return undefined
}

/** A model name, or an AI SDK model object (`anthropic('claude-haiku-4-5')`, `google.textEmbeddingModel(...)`). */
const model: ValueCheck = (v) =>
  typeof v === 'string'
    ? nonEmptyString(v)
    : isObject(v) && typeof v.modelId === 'string' && typeof v.provider === 'string'
      ? undefined
      : `must be a model name or an AI SDK model, ${got(v)}`
const maxRetries = integer(0)
const timeout = number(0, Infinity, true)

// In the order of the option lists, which is the order the messages list them in.
const JUDGE_CHECKS: Record<(typeof JUDGE_OPTION_KEYS)[number], ValueCheck> = {
  model,
  baseURL: httpUrl,
  apiKey: string,
  client: object,
  temperature: (v) => (v === null ? undefined : number(0, 2)(v)),
  maxRetries,
  timeout,
  structuredOutput: oneOf([true, false, 'auto']),
  maxTokens: integer(1),
}

const EMBEDDER_CHECKS: Record<(typeof EMBEDDER_OPTION_KEYS)[number], ValueCheck> = {
  model,
  baseURL: httpUrl,
  apiKey: string,
  client: object,
  dimensions: integer(1),
  maxRetries,
  timeout,
  maxBatchSize: integer(1, MAX_EMBEDDING_BATCH),
}

const REPLAY_CHECKS: Record<(typeof REPLAY_OPTION_KEYS)[number], ValueCheck> = {
  mode: oneOf(REPLAY_MODES),
  dir: nonEmptyString,
  rootDir: nonEmptyString,
  hosts: arrayOf(origin, "origins such as 'http://127.0.0.1:11434'"),
  allowedHosts: arrayOf(origin, "origins such as 'http://127.0.0.1:11434'"),
  upstream,
  ignoreBodyFields: arrayOf(nonEmptyString, "field paths such as 'metadata.trace_id'"),
  redact: func,
  maxAge: (v) =>
    (typeof v === 'string' || typeof v === 'number') && parseAge(v) !== undefined
      ? undefined
      : `must be an age such as '90d', '12h' or '30m', or milliseconds >= 0, ${got(v)}`,
  sequence: boolean,
  recordErrors: boolean,
  replayTiming: oneOf(['none', 'recorded']),
  testPath: func,
  testName: func,
}

/** Checks the keys and values of an options object against `checks`; `path` prefixes the names (`replay.`). */
function checkObject(value: Record<string, unknown>, checks: Record<string, ValueCheck>, path: string, what: string): OptionProblem[] {
  const problems: OptionProblem[] = []
  const keys = Object.keys(checks)
  for (const [key, v] of Object.entries(value)) {
    const check = checks[key]
    if (!check) {
      problems.push({ reason: `unknown option "${path}${key}"${didYouMean(key, keys, path)}`, fix: `Valid ${what}: ${keys.join(', ')}.` })
      continue
    }
    if (v === undefined) continue
    const problem = check(v)
    if (!problem) continue
    // arrayOf() reports `[i] <problem>` for its i-th item, upstream `["<key>"] <problem>` for a key's value.
    const item = /^\[(\d+|"(?:[^"\\]|\\.)*")\] ([\s\S]*)$/.exec(problem)
    problems.push({
      reason: item ? `"${path}${key}[${item[1]}]" ${item[2]}` : `"${path}${key}" ${problem}`,
      fix: 'Change it, or leave it out for the default.',
    })
  }
  return problems
}

/**
 * The problems of judge or embedder settings (`{ model, baseURL, ... }`), key by key; `path` prefixes the
 * names in messages (`judge.` under configure(), `` for the judge option of a matcher).
 */
export function checkModelSettings(value: Record<string, unknown>, key: 'judge' | 'embedder', path = `${key}.`): OptionProblem[] {
  const method = key === 'judge' ? 'evaluate' : 'embed'
  return checkObject(value, key === 'judge' ? JUDGE_CHECKS : EMBEDDER_CHECKS, path, `${key} settings (or pass an object with ${method}(), or a function)`)
}

/** A judge or embedder value: a function, an object with the method, or settings (checked key by key). */
function checkModel(value: unknown, key: 'judge' | 'embedder'): OptionProblem[] {
  const method = key === 'judge' ? 'evaluate' : 'embed'
  if (typeof value === 'function') return []
  if (isObject(value)) {
    if (typeof value[method] === 'function') return []
    return checkModelSettings(value, key)
  }
  return [
    {
      reason: `"${key}" must be ${key === 'judge' ? 'a Judge' : 'an Embedder'} (an object with ${method}()), a function, or settings, ${got(value)}`,
      fix: key === 'judge' ? "Pass for example { judge: { model: 'gpt-4.1-mini' } }." : "Pass for example { embedder: { model: 'text-embedding-3-small' } }.",
    },
  ]
}

/**
 * Every problem of `llmReplay()`'s options: the checks of `configure({ replay })`, names without the prefix.
 *
 * @example
 * ```ts
 * checkReplayOptions({ maxAge: '30 days' })
 * // [{ reason: '"maxAge" must be an age such as \'90d\', \'12h\' or \'30m\', ...', fix: 'Change it, or leave it out for the default.' }]
 * ```
 */
export function checkReplayOptions(options: Record<string, unknown>): OptionProblem[] {
  return checkObject(options, REPLAY_CHECKS, '', 'options')
}

/**
 * The error for options with problems (`undefined` when there is none): one problem in one sentence, several
 * listed under a headline that says nothing was changed and what to call again.
 *
 * @example
 * ```ts
 * const error = optionsError('configure expect-llm', checkConfig(options), 'call configure() again')
 * if (error) throw error
 * ```
 */
export function optionsError(action: string, problems: readonly OptionProblem[], again: string): TypeError | undefined {
  if (problems.length === 0) return undefined
  if (problems.length === 1) return new TypeError(formatMessage(`Failed to ${action}: ${problems[0]!.reason}. ${problems[0]!.fix}`))
  return new TypeError(
    `${formatMessage(`Failed to ${action}: ${problems.length} problems. Nothing was changed; fix them and ${again}.`)}\n` +
      problems.map((p) => `  - ${p.reason}. ${p.fix}`).join('\n'),
  )
}

/**
 * Every problem of a `configure()` options object, nested options included, in the order of its keys.
 *
 * @example
 * ```ts
 * checkConfig({ replay: { host: ['http://127.0.0.1:11434'] } })
 * // [{ reason: 'unknown option "replay.host" (did you mean "replay.hosts"?)', fix: 'Valid replay options: mode, dir, ...' }]
 * ```
 */
export function checkConfig(options: Record<string, unknown>): OptionProblem[] {
  const problems: OptionProblem[] = []
  for (const [key, value] of Object.entries(options)) {
    if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
      problems.push({ reason: `unknown option "${key}"${didYouMean(key, CONFIG_KEYS)}`, fix: `Valid options are ${CONFIG_KEYS.join(', ')}.` })
      continue
    }
    if (value === undefined) continue
    if (key === 'judge' || key === 'embedder') problems.push(...checkModel(value, key))
    else if (key === 'replay') {
      if (isObject(value)) problems.push(...checkObject(value, REPLAY_CHECKS, 'replay.', 'replay options'))
      else problems.push({ reason: `"replay" must be an object, ${got(value)}`, fix: "Pass for example { replay: { hosts: ['http://127.0.0.1:11434'] } }." })
    } else if (key === 'pricing') {
      if (!isObject(value)) {
        problems.push({
          reason: `"pricing" must be an object of model prices, ${got(value)}`,
          fix: "Pass for example { pricing: { 'my-model': { inputPerMTok: 0.15, outputPerMTok: 0.6 } } }.",
        })
        continue
      }
      for (const [model, price] of Object.entries(value)) {
        const path = `pricing[${JSON.stringify(model)}]`
        if (!isObject(price)) {
          problems.push({ reason: `"${path}" must be { inputPerMTok, outputPerMTok }, ${got(price)}`, fix: 'Give both prices in USD per million tokens.' })
          continue
        }
        problems.push(...checkObject(price, { inputPerMTok: number(0), outputPerMTok: number(0) }, `${path}.`, 'price fields (USD per million tokens)'))
        for (const k of PRICE_KEYS)
          if (price[k] === undefined) problems.push({ reason: `"${path}.${k}" is missing`, fix: 'Give both prices in USD per million tokens.' })
      }
    } else if (key === 'concurrency') {
      if (integer(1)(value))
        problems.push({
          reason: `"concurrency" must be a whole number >= 1, got ${typeof value === 'number' ? String(value) : describeValue(value)}`,
          fix: 'Pass for example { concurrency: 4 }.',
        })
    }
  }
  return problems
}
