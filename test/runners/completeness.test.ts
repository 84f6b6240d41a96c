// The runner adapters' pure parts: whether a file ran completely and green, the command-line filter,
// the state of `expect` and the snapshot update mode.
import { afterEach, describe, expect, test } from 'vitest'
import { jestArgvIsUnfiltered, jestCompleteness, jestRunner } from '../../src/runners/jest.js'
import { readExpectState, updateModeOf } from '../../src/runners/state.js'
import { findSuite, vitestCompleteness, vitestRunner } from '../../src/runners/vitest.js'

describe('vitestCompleteness', () => {
  test('a file whose tests all ran and passed is complete', () => {
    const file = {
      tasks: [
        { type: 'test', mode: 'run', result: { state: 'pass' } },
        { type: 'suite', mode: 'run', tasks: [{ type: 'test', mode: 'run', result: { state: 'pass' } }] },
      ],
    }
    expect(vitestCompleteness(file)).toEqual({ complete: true })
  })

  test('a skipped or todo test, even in a nested suite, makes it filtered', () => {
    expect(vitestCompleteness({ tasks: [{ type: 'suite', mode: 'run', tasks: [{ type: 'test', mode: 'skip' }] }] })).toEqual({
      complete: false,
      reason: 'filtered',
    })
    expect(vitestCompleteness({ tasks: [{ type: 'test', mode: 'todo' }] })).toEqual({ complete: false, reason: 'filtered' })
  })

  test('a failed test makes it failed; filtered wins over failed', () => {
    expect(vitestCompleteness({ tasks: [{ type: 'test', mode: 'run', result: { state: 'fail' } }] })).toEqual({ complete: false, reason: 'failed' })
    expect(
      vitestCompleteness({
        tasks: [
          { type: 'test', mode: 'skip' },
          { type: 'test', mode: 'run', result: { state: 'fail' } },
        ],
      }),
    ).toEqual({ complete: false, reason: 'filtered' })
  })

  test('without the file task the run cannot be judged complete', () => {
    expect(vitestCompleteness(undefined)).toEqual({ complete: false, reason: 'filtered' })
  })

  test('findSuite takes the task with a tasks list from either hook signature', () => {
    const suite = { tasks: [], filepath: '/x.test.ts' }
    expect(findSuite([suite])).toBe(suite)
    expect(findSuite([{ signal: undefined }, suite])).toBe(suite)
    expect(findSuite([{}])).toBeUndefined()
  })
})

describe('jestCompleteness', () => {
  test('a tree whose tests all passed is complete, unless the command line filtered', () => {
    const root = {
      children: [
        { type: 'test', mode: undefined, errors: [] },
        { type: 'describeBlock', children: [{ type: 'test', errors: [] }] },
      ],
    }
    expect(jestCompleteness(root, true)).toEqual({ complete: true })
    expect(jestCompleteness(root, false)).toEqual({ complete: false, reason: 'filtered' })
  })

  test('a skipped describe block or todo test is filtered; a test with errors failed', () => {
    expect(jestCompleteness({ children: [{ type: 'describeBlock', mode: 'skip', children: [] }] }, true)).toEqual({ complete: false, reason: 'filtered' })
    expect(jestCompleteness({ children: [{ type: 'test', status: 'todo' }] }, true)).toEqual({ complete: false, reason: 'filtered' })
    expect(jestCompleteness({ children: [{ type: 'test', errors: [new Error('x')] }] }, true)).toEqual({ complete: false, reason: 'failed' })
  })

  test('without jest-circus state the command line decides', () => {
    expect(jestCompleteness(undefined, true)).toEqual({ complete: true })
    expect(jestCompleteness(undefined, false)).toEqual({ complete: false, reason: 'filtered' })
  })

  test('jestArgvIsUnfiltered sees -t, --testNamePattern=, -o and --onlyFailures', () => {
    expect(jestArgvIsUnfiltered(['node', 'jest', 'a.test.ts'])).toBe(true)
    for (const flag of ['-t', '--testNamePattern=x', '-o', '--onlyChanged', '--changedSince=main', '--onlyFailures', '-f', '--lastCommit']) {
      expect(jestArgvIsUnfiltered(['node', 'jest', flag])).toBe(false)
    }
    expect(jestArgvIsUnfiltered(['node', 'jest', '--testTimeout=5'])).toBe(true)
  })
})

describe('readExpectState and updateModeOf', () => {
  const saved = process.env.CI
  afterEach(() => {
    if (saved === undefined) delete process.env.CI
    else process.env.CI = saved
  })

  test('reads the given expect, the global one by default, and {} when getState throws or is missing', () => {
    expect(readExpectState({ getState: () => ({ testPath: '/a.test.ts', currentTestName: 'a' }) })).toEqual({ testPath: '/a.test.ts', currentTestName: 'a' })
    const g = globalThis as { expect?: unknown }
    expect(g.expect).toBeUndefined() // no globals: true in this repository
    expect(readExpectState()).toEqual({})
    g.expect = { getState: () => ({ testPath: '/global.test.ts' }) }
    try {
      expect(readExpectState().testPath).toBe('/global.test.ts')
    } finally {
      delete g.expect
    }
    expect(
      readExpectState({
        getState: () => {
          throw new Error('outside a test')
        },
      }),
    ).toEqual({})
    expect(readExpectState({ getState: () => undefined })).toEqual({})
  })

  test("Vitest 5's snapshotUpdateState wins over _updateSnapshot; without either, CI means none", () => {
    expect(updateModeOf({ snapshotState: { snapshotUpdateState: 'all', _updateSnapshot: 'new' } })).toBe('all')
    expect(updateModeOf({ snapshotState: { _updateSnapshot: 'none' } })).toBe('none')
    process.env.CI = '1'
    expect(updateModeOf({})).toBe('none')
    delete process.env.CI
    expect(updateModeOf({})).toBe('new')
  })
})

describe('the two runners', () => {
  test('the record command names the runner', () => {
    expect(vitestRunner.recordCommand('test/a.test.ts')).toBe('npx vitest run test/a.test.ts')
    expect(jestRunner.recordCommand('test/a.test.ts')).toBe('npx jest test/a.test.ts')
  })

  test('a matcher sees the running test as Vitest’s task or Jest’s test name', () => {
    const task = { id: 't1' }
    expect(vitestRunner.testOfMatcher({ task, currentTestName: 'x' })).toBe(task)
    expect(jestRunner.testOfMatcher({ task, currentTestName: 'x' })).toBe('x')
  })

  test('msw: Vitest requires it synchronously and keeps one server; Jest imports it and closes it after each file', () => {
    expect(vitestRunner.msw).toMatchObject({ load: 'require', serverPerFile: false, installHint: '' })
    expect(jestRunner.msw).toMatchObject({ load: 'import', serverPerFile: true })
    expect(jestRunner.msw.notLoadable).toMatch(/ESM mode/)
  })

  test('the Vitest runner reads the running test from expect', () => {
    expect(vitestRunner.testPath()).toBe(expect.getState().testPath)
    expect(vitestRunner.testName()).toBe(expect.getState().currentTestName)
  })

  test('Jest has no annotations; golden tests outside Jest fail with where to call them', async () => {
    expect(await jestRunner.annotate(undefined, { key: 'golden', meta: {}, type: 'golden' })).toBe(false)
    const g = globalThis as { describe?: unknown }
    const before = g.describe
    delete g.describe
    try {
      expect(() => jestRunner.describe('x', () => undefined)).toThrow(/Failed to define golden tests: Jest's globals/)
    } finally {
      if (before !== undefined) g.describe = before
    }
  })
})
