// The error a test fails with when replay saw problems (src/replay/handlers.ts ReplayError), and the
// LlmReplay object around an engine.
import { describe, expect, test, vi } from 'vitest'
import { ReplayEngine } from '../../src/replay/engine.js'
import { createLlmReplay, ReplayError } from '../../src/replay/handlers.js'
import type { ReplayProblem } from '../../src/replay/types.js'

const problem = (message: string): ReplayProblem => ({ kind: 'miss', message, testPath: '/p/a.test.ts', testName: 't' })

describe('ReplayError', () => {
  test('one problem: its message as it is', () => {
    const error = new ReplayError([problem('[expect-llm] Failed to replay POST /v1/x: no fixture.')])
    expect(error.message).toBe('[expect-llm] Failed to replay POST /v1/x: no fixture.')
    expect(error.name).toBe('ReplayError')
    expect(error.problems).toEqual([problem('[expect-llm] Failed to replay POST /v1/x: no fixture.')])
  })

  test('several problems: a headline with the count, then each one', () => {
    expect(new ReplayError([problem('first'), problem('second')]).message).toBe(
      '[expect-llm] Failed to replay 2 model requests in this test:\n\nfirst\n\nsecond',
    )
  })

  test('a problem repeated by the client’s retries is said once, with the count', () => {
    expect(new ReplayError([problem('same'), problem('same'), problem('same')]).message).toBe(
      '[expect-llm] Failed to replay 3 model requests in this test:\n\nsame\n  (3 times: the client retried)',
    )
    expect(new ReplayError([problem('same'), problem('other'), problem('same')]).message).toBe(
      '[expect-llm] Failed to replay 3 model requests in this test:\n\nsame\n  (2 times: the client retried)\n\nother',
    )
  })
})

describe('createLlmReplay', () => {
  const msw = {
    http: { all: (path: string, resolver: unknown) => ({ path, resolver }) },
    bypass: (r: Request) => r,
    passthrough: () => new Response(null),
  }

  test('one catch-all handler and the network guard, both handing requests to the engine', async () => {
    const engine = new ReplayEngine({ options: { mode: 'replay' } })
    const handle = vi.spyOn(engine, 'handle').mockResolvedValue(undefined)
    const guard = vi.spyOn(engine, 'guard').mockReturnValue(undefined)
    const replay = createLlmReplay(msw as never, engine)
    expect(replay.handlers).toHaveLength(1)
    const request = new Request('https://api.openai.com/v1/models')
    const [handler] = replay.handlers as unknown as Array<{ path: string; resolver: (i: { request: Request }) => unknown }>
    expect(handler!.path).toBe('*')
    await handler!.resolver({ request })
    expect(handle).toHaveBeenCalledWith(request, msw)
    const networkGuard = replay.networkGuard as unknown as { path: string; resolver: (i: { request: Request }) => unknown }
    expect(networkGuard.path).toBe('*')
    networkGuard.resolver({ request })
    expect(guard).toHaveBeenCalledWith(request)
    expect(replay.engine).toBe(engine)
  })

  test('assertNoProblems throws the problems of the test file once, then nothing', () => {
    const engine = new ReplayEngine({ options: { mode: 'replay' } })
    const replay = createLlmReplay(msw as never, engine)
    engine.reportProblem(problem('a miss'))
    engine.reportProblem({ ...problem('elsewhere'), testPath: '/p/b.test.ts' })
    expect(() => replay.assertNoProblems('/p/a.test.ts')).toThrow(new ReplayError([problem('a miss')]))
    expect(() => replay.assertNoProblems('/p/a.test.ts')).not.toThrow()
    expect(replay.takeProblems().map((p) => p.message)).toEqual(['elsewhere'])
  })

  test('mode, resetSequences and flush go to the engine', async () => {
    vi.stubEnv('EXPECT_LLM_REPLAY', '')
    vi.stubEnv('CI', '')
    try {
      const engine = new ReplayEngine({ options: { mode: 'live' } })
      const replay = createLlmReplay(msw as never, engine)
      expect(replay.mode()).toBe('live')
      const reset = vi.spyOn(engine, 'resetSequences')
      replay.resetSequences()
      expect(reset).toHaveBeenCalledTimes(1)
      await expect(replay.flush()).resolves.toBeUndefined()
    } finally {
      vi.unstubAllEnvs()
    }
  })

  test('printSummary prints nothing when there is nothing to say', async () => {
    const engine = new ReplayEngine({ options: { mode: 'replay' } })
    const replay = createLlmReplay(msw as never, engine)
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    try {
      await replay.printSummary()
      expect(log).not.toHaveBeenCalled()
    } finally {
      log.mockRestore()
    }
  })

  test('printSummary prints one line per test file, paths relative to the root', async () => {
    const engine = new ReplayEngine({ options: { mode: 'replay', rootDir: '/p' } })
    vi.spyOn(engine, 'summary').mockResolvedValue([
      { testPath: '/p/test/a.test.ts', folder: '/p/test/__llm_fixtures__/a.test.ts', used: ['/p/x.json'], created: [], unused: [] },
    ])
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    try {
      await createLlmReplay(msw as never, engine).printSummary('/p/test/a.test.ts')
      expect(log.mock.calls).toEqual([['[expect-llm] Replay fixtures for test/a.test.ts: 1 used, 0 new, 0 unused in test/__llm_fixtures__/a.test.ts.']])
      expect(engine.summary).toHaveBeenCalledWith('/p/test/a.test.ts')
    } finally {
      log.mockRestore()
    }
  })
})
