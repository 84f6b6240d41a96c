/**
 * Process-wide state, in one place. The ESM and CommonJS builds of expect-llm (and the entries of one test
 * worker: the setup file, the core, the matchers) are separate module instances, so state they must share
 * lives on `globalThis` under `Symbol.for('expect-llm.<name>')`. Every such slot is listed here, with what
 * it holds; nothing else in the library calls `Symbol.for`.
 *
 * @module
 */

/** The slots on `globalThis`, and what each holds. */
const SLOTS = {
  config: 'the settings of configure()',
  limiter: 'the model calls in flight and waiting (concurrency)',
  ledger: 'the run ledger of the library’s own model calls',
  'unpriced-models-warned': 'models already reported as unpriced',
  'default-judge': 'the default judge, built once',
  'default-embedder': 'the default embedder, built once',
  'embedding-cache': 'embeddings of texts already embedded in this worker',
  'judge-fallback-notices': 'structured-output fallbacks already reported',
  'replay-session': 'the MSW server and replay handlers started by a setup entry',
  'replay-folder-usage': 'fixtures used and created, per fixture folder',
  'replay-own-requests': 'requests the library itself sends past MSW (not escapes)',
  'replay-library-hosts': 'hosts of the configured judges and embedders, answered by replay',
  'replay-registered-files': 'test files whose replay hooks are registered, per session',
  'unawaited-assertions': 'async assertions watched until their test ends',
  'await-checks-registered-files': 'test files whose await checks are registered',
} as const

/** Shared symbols that mark objects (not `globalThis`), so that a mark set by one build is seen by the other. */
const MARKS = {
  check: 'a check made by defineCheck (seen by the expect-llm/expect bundle too)',
  'batching-embedder': 'an embedder that already batches and caches',
  'embedder-per-call': 'how a batching embedder tells it has just been called once per text',
  'golden-capture': 'an MSW server whose events golden suites already listen to',
  'replay-escape-watcher': 'the escape watcher of a replay session',
  'replay-session-stop': 'how a replay session stops (its afterAll, or a newer session starting: the diagnostics channel in replay/setup.ts)',
  'turn-by-turn-task': 'a golden task made by turnByTurn (seen by every bundle)',
  'promise-modifiers-tracked': 'a chai Assertion prototype whose resolves/rejects are already wrapped',
} as const

export type SlotName = keyof typeof SLOTS
export type MarkName = keyof typeof MARKS

const key = (name: string): symbol => Symbol.for(`expect-llm.${name}`)
type Global = Record<symbol, unknown>

/**
 * The value of a process-wide slot, created on first use.
 *
 * @example
 * ```ts
 * const usage = processSlot('replay-folder-usage', () => new Map<string, FileUsage>())
 * ```
 */
export function processSlot<T>(name: SlotName, create: () => T): T {
  const g = globalThis as unknown as Global
  const k = key(name)
  if (!(k in g) || g[k] === undefined) g[k] = create()
  return g[k] as T
}

/**
 * The value of a process-wide slot, or `undefined` when it was never set.
 *
 * @example
 * ```ts
 * const session = peekProcessSlot<ReplaySession>('replay-session')
 * ```
 */
export function peekProcessSlot<T>(name: SlotName): T | undefined {
  return (globalThis as unknown as Global)[key(name)] as T | undefined
}

/**
 * Sets a process-wide slot; `undefined` removes it.
 *
 * @example
 * ```ts
 * setProcessSlot('replay-session', undefined)
 * ```
 */
export function setProcessSlot<T>(name: SlotName, value: T | undefined): void {
  const g = globalThis as unknown as Global
  if (value === undefined) delete g[key(name)]
  else g[key(name)] = value
}

/**
 * A symbol shared by every build, for marking objects.
 *
 * @example
 * ```ts
 * const BATCHING = sharedMark('batching-embedder')
 * ```
 */
export function sharedMark(name: MarkName): symbol {
  return key(name)
}
