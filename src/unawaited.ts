/**
 * Fails a test that ends with an expect-llm assertion it never awaited.
 *
 * A model-backed matcher (`toPassJudge`, `toBeSemanticallySimilar`, ...) returns a promise. Without
 * `await`, the test ends before the verdict, passes, and the verdict is lost: the worst bug a test library
 * can have. The runner setup entries (`expect-llm/vitest`, `expect-llm/jest`) therefore register the
 * matchers through {@link trackAsyncMatchers} and check, after each test, that every such promise was
 * awaited (or returned); one that was not fails the test with
 * `[expect-llm] toPassJudge(...) was not awaited: add await`, at the line of the `expect(...)` call.
 *
 * How "awaited" is seen: the promise a matcher returns is an {@link AssertionPromise}. The runner wraps it
 * while the `expect(...)` call runs (Vitest: `.then`; Jest: `.then().catch()`) and hands the last wrapper to
 * the test; those wrappers are AssertionPromises too. `await`, `return`, `Promise.all` and the like call
 * `.then` on that wrapper once the call has returned, so a `.then` made while the `expect(...)` line is no
 * longer on the stack means someone waits for the result. The rejection of an unawaited assertion is
 * marked as handled, so that it is reported once, by this check, instead of as an unhandled rejection.
 *
 * `.resolves` / `.rejects` call the matcher only once the received promise settles, and hand the test a
 * promise of the runner's. Under Vitest the entry wraps those modifiers ({@link trackPromiseModifiers});
 * under Jest that promise cannot be reached, so an assertion made through them is reported only when it
 * is still running at the end of the test (the case that passed silently).
 *
 * @module
 */
import { relative } from 'node:path'
import { formatMessage } from './errors.js'
import { processSlot, sharedMark } from './process-state.js'
import type { MatcherThisLike, TestRunner } from './runners/types.js'

/** One assertion whose promise is watched. */
interface Watched {
  /** `toPassJudge(...)`, `not.toPassJudge(...)`, `resolves.toPassJudge(...)`. */
  label: string
  /** The test it belongs to (Vitest: the task; Jest: the test name), `undefined` outside a test. */
  test: unknown
  /** The stack of the `expect(...)` call, user frames only; `undefined` when the call site is unknown. */
  frames: string | undefined
  state: 'running' | 'passed' | 'failed'
  failure?: string
  /** `.then` was called after the turn of the matcher call: the test waits for it. */
  awaited: boolean
  /** Still in the turn of the matcher call (used when the call site is unknown). */
  sync: boolean
  /** `file:line` of the `expect(...)` call: while that line is on the stack, `.then` is the runner's wrapping. */
  callLine: string | undefined
  /** Only a result still running at the end of the test can be reported (Jest `.resolves` / `.rejects`). */
  runningOnly: boolean
}

const RECORD = Symbol('expect-llm.assertion-record')

/** Every watched assertion of this worker, kept process-wide so the ESM and CJS builds share it. */
function watched(): Set<Watched> {
  return processSlot('unawaited-assertions', () => new Set<Watched>())
}

const noop = () => undefined

/**
 * The promise an expect-llm assertion returns under the runner setup entries. It behaves as a Promise;
 * calling `.then` (which `await`, `return` from a test, `.catch` and `.finally` all do) after the turn
 * of the `expect(...)` call marks the assertion as awaited. Its derived promises share the record.
 */
export class AssertionPromise<T> extends Promise<T> {
  declare [RECORD]?: Watched

  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    const record = this[RECORD]
    const wrapping = record !== undefined && isWrapping(record)
    if (record && !wrapping) record.awaited = true
    const child = super.then(onFulfilled, onRejected) as AssertionPromise<A | B>
    if (record) {
      child[RECORD] = record
      // The runner's wrappers: their rejection is handled here and reported by the check (or by the
      // user's await), never as an unhandled rejection. Promise.prototype.then directly, so that this
      // handler does not count as a wait.
      if (wrapping) Promise.prototype.then.call(child, undefined, noop)
    }
    return child
  }
}

/**
 * Whether a `.then` call is the runner wrapping the matcher's promise (or the user chaining `.then` on the
 * `expect(...)` line itself) rather than a wait: the `expect(...)` call is still on the stack. The runner
 * wraps while that call runs (Vitest: `.then`; Jest: `.then().catch()`); `await`, `Promise.all` and a
 * runner waiting for a test's returned promise call `.then` once it has returned (Jest even in the same
 * turn, so the turn alone cannot tell). Without a known call site, the turn of the call decides.
 */
function isWrapping(record: Watched): boolean {
  if (record.callLine === undefined) return record.sync
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 40
  const holder: { stack?: string } = {}
  Error.captureStackTrace?.(holder)
  Error.stackTraceLimit = limit
  return (holder.stack ?? '').includes(record.callLine)
}

/** `/abs/test.ts:12:` of the first frame: the call's file and line (the column differs between the frames of one call). */
function callLineOf(frames: string | undefined): string | undefined {
  const first = frames?.split('\n')[0]
  const m = first && /\(?((?:file:\/\/)?[^\s()]+):(\d+):\d+\)?\s*$/.exec(first)
  return m ? `${m[1]}:${m[2]}:` : undefined
}

/** `file.ts:12:5` of the first stack frame, relative to the working directory. */
function siteOf(frames: string | undefined): string | undefined {
  const first = frames?.split('\n')[0]
  const m = first && /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?\s*$/.exec(first)
  if (!m) return undefined
  const file = m[1]!.replace(/^file:\/\//, '')
  const rel = relative(process.cwd(), file)
  return `${rel && !rel.startsWith('..') ? rel : file}:${m[2]}:${m[3]}`
}

/** The stack frames of the user's call: `fn` and everything above it cut, runner and Node frames skipped. */
function userFrames(fn: (...args: any[]) => unknown): string | undefined {
  const holder: { stack?: string } = {}
  Error.captureStackTrace?.(holder, fn)
  const frames = holder.stack
    ?.split('\n')
    .slice(1)
    .filter((line) => !/[\\/]node_modules[\\/]|\(node:|^\s*at node:|<anonymous>\)?$/.test(line))
  return frames && frames.length > 0 ? frames.join('\n') : undefined
}

/** The first line of an error or a failed matcher's message, for the report of an unawaited assertion. */
function firstLines(text: string): string {
  return text.replace(/\s+$/, '').split('\n').slice(0, 12).join('\n')
}

/** What a matcher's `this` tells the tracker. */
interface MatcherThis extends MatcherThisLike {
  isNot?: boolean
  promise?: string
}

function labelOf(name: string, promise: string | undefined, isNot: boolean | undefined): string {
  return `${promise ? `${promise}.` : ''}${isNot ? 'not.' : ''}${name}(...)`
}

/**
 * Watches a thenable returned to the test: returns an {@link AssertionPromise} that settles with it and
 * records whether it is awaited.
 */
export function watch<T>(
  thenable: PromiseLike<T>,
  label: string,
  test: unknown,
  frames: string | undefined,
  options: { runningOnly?: boolean; failed?: (value: T) => string | undefined } = {},
): AssertionPromise<T> {
  const record: Watched = {
    label,
    test,
    frames,
    state: 'running',
    awaited: false,
    sync: true,
    callLine: callLineOf(frames),
    runningOnly: options.runningOnly ?? false,
  }
  queueMicrotask(() => {
    record.sync = false
  })
  watched().add(record)
  const root = new AssertionPromise<T>((resolve, reject) => {
    thenable.then(
      (value) => {
        const failure = options.failed?.(value)
        record.state = failure === undefined ? 'passed' : 'failed'
        if (failure !== undefined) record.failure = failure
        resolve(value)
      },
      (error: unknown) => {
        record.state = 'failed'
        record.failure = error instanceof Error ? error.message : String(error)
        reject(error)
      },
    )
  })
  root[RECORD] = record
  Promise.prototype.then.call(root, undefined, noop)
  return root
}

/**
 * Wraps each matcher so that a promise it returns is watched ({@link watch}). Synchronous matchers are
 * returned as they are. Where the runner's `.resolves` / `.rejects` can be wrapped (Vitest), a matcher
 * called through them is not watched here: {@link trackPromiseModifiers} watches the promise the test gets.
 * Elsewhere (Jest) it is watched for the end of the test only (see the module notes).
 *
 * @example
 * ```ts
 * expect.extend(trackAsyncMatchers(matchers, vitestRunner))
 * ```
 */
export function trackAsyncMatchers<M extends Record<string, unknown>>(matchers: M, runner: Pick<TestRunner, 'testOfMatcher' | 'wrapsPromiseModifiers'>): M {
  const out: Record<string, unknown> = {}
  for (const [name, matcher] of Object.entries(matchers)) {
    if (typeof matcher !== 'function') {
      out[name] = matcher
      continue
    }
    const tracked = function (this: MatcherThis, ...args: unknown[]): unknown {
      const result: unknown = (matcher as (...a: unknown[]) => unknown).apply(this, args)
      if (result === null || typeof result !== 'object' || typeof (result as PromiseLike<unknown>).then !== 'function') return result
      const modifier = this.promise === 'resolves' || this.promise === 'rejects' ? this.promise : undefined
      if (modifier && runner.wrapsPromiseModifiers) return result
      const isNot = Boolean(this.isNot)
      const label = labelOf(name, modifier, isNot)
      return watch(result as PromiseLike<{ pass: boolean; message: () => string }>, label, runner.testOfMatcher(this), userFrames(tracked), {
        runningOnly: modifier !== undefined,
        failed: (r) => (r && typeof r === 'object' && r.pass === isNot ? firstLines(r.message()) : undefined),
      })
    }
    Object.defineProperty(tracked, 'name', { value: name })
    out[name] = tracked
  }
  return out as M
}

/** The part of chai (as Vitest exports it) that {@link trackPromiseModifiers} uses. */
export interface ChaiLike {
  Assertion: { prototype: object }
  util: {
    overwriteProperty(ctx: object, name: string, getter: (original: () => unknown) => (this: object) => unknown): void
    flag(assertion: object, name: string): unknown
  }
}

const MODIFIERS_WRAPPED = sharedMark('promise-modifiers-tracked')

/**
 * Vitest: watches what `expect(x).resolves.toX()` / `.rejects.toX()` return to the test, for the expect-llm
 * matchers `names`. Vitest's own record of that promise is consumed here, so that an unawaited assertion is
 * reported once, by expect-llm. Idempotent per chai instance.
 *
 * @example
 * ```ts
 * import { chai } from 'vitest'
 * trackPromiseModifiers(chai, Object.keys(matchers))
 * ```
 */
export function trackPromiseModifiers(chai: ChaiLike, names: readonly string[]): void {
  const proto = chai.Assertion.prototype as Record<symbol, unknown>
  if (proto[MODIFIERS_WRAPPED]) return
  proto[MODIFIERS_WRAPPED] = true
  const ours = new Set(names)
  for (const modifier of ['resolves', 'rejects'] as const) {
    chai.util.overwriteProperty(
      chai.Assertion.prototype,
      modifier,
      (original) =>
        function (this: object) {
          const assertion = this
          const target = original.call(assertion) as object
          if (target === null || typeof target !== 'object') return target
          const proxy: object = new Proxy(target, {
            get(t, key, receiver) {
              const value: unknown = Reflect.get(t, key, receiver)
              if (value === t) return proxy
              if (typeof key !== 'string' || !ours.has(key) || typeof value !== 'function') return value
              const call = function (...args: unknown[]): unknown {
                const result: unknown = (value as (...a: unknown[]) => unknown)(...args)
                if (result === null || typeof result !== 'object' || typeof (result as PromiseLike<unknown>).then !== 'function') return result
                const label = labelOf(key, modifier, Boolean(chai.util.flag(assertion, 'negate')))
                return watch(result as PromiseLike<unknown>, label, chai.util.flag(assertion, 'vitest-test'), userFrames(call))
              }
              return call
            },
          })
          return proxy
        },
    )
  }
}

/** The message of one unawaited assertion. */
function describe(w: Watched): string {
  const site = siteOf(w.frames)
  const head = `${w.label} was not awaited: add await${site ? ` (${site})` : ''}.`
  if (w.state === 'running') return `${head} The test ended before it finished, so its result was never checked.`
  if (w.state === 'failed') return `${head} It failed after the test had moved on:\n\n${w.failure ?? ''}`
  return `${head} It passed this time, but a failure would have gone unnoticed.`
}

/**
 * Takes the watched assertions of `test` (all of them with `test` `undefined` and `all`) and returns an
 * error for those that were not awaited, or `undefined`. Its stack starts at the first one's `expect` call.
 *
 * @example
 * ```ts
 * afterEach((ctx) => {
 *   const error = takeUnawaited(ctx.task)
 *   if (error) throw error
 * })
 * ```
 */
export function takeUnawaited(test: unknown, all = false): Error | undefined {
  const set = watched()
  const unawaited: Watched[] = []
  for (const w of set) {
    if (!all && w.test !== test) continue
    set.delete(w)
    // A runningOnly record is adopted by a promise of the runner, which counts as awaiting it: only a
    // result still running when the test ended tells that the test did not wait.
    if (w.runningOnly ? w.state !== 'running' : w.awaited) continue
    unawaited.push(w)
  }
  if (unawaited.length === 0) return undefined
  const message =
    unawaited.length === 1
      ? formatMessage(describe(unawaited[0]!))
      : `${formatMessage(`${unawaited.length} assertions were not awaited:`)}\n` +
        unawaited.map((w) => `  - ${describe(w).replace(/\n/g, '\n    ')}`).join('\n')
  const error = new Error(message)
  const frames = unawaited.find((w) => w.frames)?.frames
  if (frames) error.stack = `${error.name}: ${message}\n${frames}`
  return error
}

/**
 * Registers, once per test file, the `afterEach` that fails a test which left an assertion unawaited,
 * and the `afterAll` that reports those made outside a test (in `beforeAll`, at the top level).
 *
 * @example
 * ```ts
 * registerAwaitChecks(vitestRunner)
 * ```
 */
export function registerAwaitChecks(runner: Pick<TestRunner, 'afterEach' | 'afterAll' | 'testPath'>): void {
  // A file may load the setup entry twice (Jest: the CommonJS build as the setup file, the ESM build
  // imported by the test file); the record is process-wide because the builds are separate modules.
  const files = processSlot('await-checks-registered-files', () => new Set<string>())
  const file = runner.testPath() ?? ''
  if (files.has(file)) return
  files.add(file)
  runner.afterEach(({ test }) => {
    const error = takeUnawaited(test)
    if (error) throw error
  })
  runner.afterAll(() => {
    files.delete(file)
    const error = takeUnawaited(undefined, true)
    if (error) throw error
  })
}
