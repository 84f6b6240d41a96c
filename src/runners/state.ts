/**
 * The one place that reads the runner's `expect.getState()`: the running test file and name, and the
 * snapshot update mode. `getState()` throws outside a test under some runners, and `expect` may be absent
 * (a plain script), so every read goes through {@link readExpectState}.
 *
 * @module
 */
import type { ExpectState, UpdateMode } from './types.js'

/** Something with Vitest's or Jest's `expect.getState()`. */
export interface ExpectWithState {
  getState(): unknown
}

/**
 * The state of `expect` (by default the global one), or `{}` when there is none or it cannot be read.
 *
 * @example
 * ```ts
 * const file = readExpectState().testPath // undefined outside a test
 * ```
 */
export function readExpectState(expect?: ExpectWithState): ExpectState {
  const e = expect ?? (globalThis as { expect?: Partial<ExpectWithState> }).expect
  if (typeof e?.getState !== 'function') return {}
  try {
    return (e.getState() as ExpectState | undefined) ?? {}
  } catch {
    return {}
  }
}

/**
 * The snapshot update mode in a runner's state: Vitest 5's `snapshotUpdateState`, Vitest 4's and Jest's
 * `_updateSnapshot`; without either, `'none'` on CI (a baseline is never written there) and `'new'` elsewhere.
 *
 * @example
 * ```ts
 * updateModeOf(readExpectState()) // 'all' under `vitest -u`
 * ```
 */
export function updateModeOf(state: ExpectState): UpdateMode {
  const s = state.snapshotState
  return s?.snapshotUpdateState ?? s?._updateSnapshot ?? (process.env.CI ? 'none' : 'new')
}
