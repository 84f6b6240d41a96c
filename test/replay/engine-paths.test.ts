// Paths of the replay engine (src/replay/engine.ts) that the request-level tests leave open: the CI
// refusal's one warning, and what the engine sends and writes at the edges of recording.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { forceModeFromOptions, removeRoot, tempRoot } from './helpers.js'

let root: string | undefined
afterEach(async () => {
  if (root) await removeRoot(root)
  root = undefined
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

const msw = { bypass: (r: Request) => r, passthrough: () => new Response('passed through') }

describe('CI', () => {
  test('a recording mode under CI replays instead, with one warning for the process that names the mode and the way out', async () => {
    forceModeFromOptions()
    vi.stubEnv('CI', 'true')
    vi.stubEnv('EXPECT_LLM_ALLOW_RECORD_IN_CI', '')
    // A fresh copy of the engine module: the warning is once per process, and another test may have said it.
    vi.resetModules()
    const { ReplayEngine } = await import('../../src/replay/engine.js')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    root = await tempRoot()
    const options = { rootDir: root, hosts: ['https://ci-refusal.invalid'], testPath: () => undefined }
    const engine = new ReplayEngine({ options: { ...options, mode: 'record' } })
    const request = () => new Request('https://ci-refusal.invalid/v1/models')
    const first = await engine.handle(request(), msw)
    await engine.handle(request(), msw)
    await new ReplayEngine({ options: { ...options, mode: 'rerecord' } }).handle(request(), msw)
    expect(first?.headers.get('x-expect-llm-replay')).toBe('expect_llm_replay_miss')
    expect(warn.mock.calls).toEqual([
      [
        '[expect-llm] Failed to use replay mode "record": CI is set, so expect-llm only replays recorded fixtures and never calls a model. ' +
          'Record on your machine and commit the fixtures, or set EXPECT_LLM_ALLOW_RECORD_IN_CI=1 to record in CI on purpose.',
      ],
    ])
  })

  test('outside CI nothing is refused: live mode passes requests through without a warning', async () => {
    forceModeFromOptions()
    vi.stubEnv('CI', '')
    vi.resetModules()
    const { ReplayEngine } = await import('../../src/replay/engine.js')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const engine = new ReplayEngine({ options: { mode: 'live', hosts: ['https://ci-refusal.invalid'] } })
    expect(await (await engine.handle(new Request('https://ci-refusal.invalid/v1/models'), msw))?.text()).toBe('passed through')
    expect(warn).not.toHaveBeenCalled()
  })
})
