import { formatMessage } from '../errors.js'
import type { ReplayMode } from './types.js'

/** Every valid mode. */
export const REPLAY_MODES: readonly ReplayMode[] = ['replay', 'record', 'rerecord', 'live']

/** The resolved mode, and the mode that was asked for when the CI guard overrode it. */
export interface ResolvedMode {
  mode: ReplayMode
  /** Set when a recording mode was requested but `CI` forced `replay`. */
  refusedInCi?: ReplayMode
  /** Where the mode came from. */
  source: 'env' | 'options' | 'default'
}

/**
 * Returns `true` when `CI` is set to something other than `''`, `'0'` or `'false'` (any case).
 *
 * @example
 * ```ts
 * import { isCi } from 'expect-llm/replay'
 * isCi({ CI: 'true' }) // true
 * isCi({ CI: 'false' }) // false
 * isCi() // reads process.env.CI
 * ```
 */
export function isCi(env: Record<string, string | undefined> = process.env): boolean {
  const v = env.CI
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false'
}

/**
 * Resolves the mode: `EXPECT_LLM_REPLAY` wins over the `mode` option, which wins over the default
 * `replay`. When `CI` is set, every mode but `replay` is refused (forced to `replay`) unless
 * `EXPECT_LLM_ALLOW_RECORD_IN_CI=1`. Throws on an unknown mode name.
 *
 * @example
 * ```ts
 * resolveMode('record', { CI: 'true' }) // { mode: 'replay', refusedInCi: 'record', source: 'options' }
 * ```
 */
export function resolveMode(optionMode: ReplayMode | undefined, env: Record<string, string | undefined> = process.env): ResolvedMode {
  const raw = env.EXPECT_LLM_REPLAY?.trim().toLowerCase()
  const source: ResolvedMode['source'] = raw ? 'env' : optionMode ? 'options' : 'default'
  const requested = (raw || optionMode || 'replay') as ReplayMode
  if (!REPLAY_MODES.includes(requested)) {
    const where = raw ? `EXPECT_LLM_REPLAY is ${JSON.stringify(env.EXPECT_LLM_REPLAY)}` : `the replay mode option is ${JSON.stringify(optionMode)}`
    throw new TypeError(formatMessage(`Failed to choose a replay mode: ${where}. Use one of ${REPLAY_MODES.join(', ')}.`))
  }
  if (requested !== 'replay' && isCi(env) && env.EXPECT_LLM_ALLOW_RECORD_IN_CI !== '1') {
    return { mode: 'replay', refusedInCi: requested, source }
  }
  return { mode: requested, source }
}

/** The message printed once when the CI guard refuses a recording mode. */
export function ciRefusalMessage(requested: ReplayMode): string {
  return formatMessage(
    `Failed to use replay mode "${requested}": CI is set, so expect-llm only replays recorded fixtures ` +
      `and never calls a model. Record on your machine and commit the fixtures, or set ` +
      `EXPECT_LLM_ALLOW_RECORD_IN_CI=1 to record in CI on purpose.`,
  )
}

/** What an intercepted request does in a mode other than `live` (see {@link requestPlan}). */
export interface RequestPlan {
  /** Take the key's turn first, so that concurrent requests for one key record once. */
  claim: boolean
  /** Answer from the key's fixture when there is one. */
  lookUp: boolean
  /** Without a fixture: fail at once (`replay`) or record from the network. */
  onMiss: 'fail' | 'record'
}

/**
 * The steps of an intercepted request in a mode: `replay` looks its fixture up and fails on a miss,
 * `record` takes the key, replays a fixture it finds and records a miss, `rerecord` takes the key and
 * records.
 *
 * @example
 * ```ts
 * requestPlan('record') // { claim: true, lookUp: true, onMiss: 'record' }
 * ```
 */
export function requestPlan(mode: Exclude<ReplayMode, 'live'>): RequestPlan {
  return { claim: mode !== 'replay', lookUp: mode !== 'rerecord', onMiss: mode === 'replay' ? 'fail' : 'record' }
}
