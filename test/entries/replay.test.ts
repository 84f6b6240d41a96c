// llmReplay() (src/entries/replay.ts) checks its options as configure({ replay }) does: a typo or a wrong
// value throws at the call instead of being ignored (a maxAge that is not an age turned the stale warning off).
import { describe, expect, test } from 'vitest'
import { llmReplay } from '../../src/entries/replay.js'
import type { ReplayOptions } from '../../src/replay/types.js'

describe('llmReplay options', () => {
  test('a maxAge that is not an age throws, naming the option and the ages it takes', () => {
    expect(() => llmReplay({ maxAge: '30 days' })).toThrow(
      new TypeError(
        `[expect-llm] Failed to create the replay handlers: "maxAge" must be an age such as '90d', '12h' or '30m', or milliseconds >= 0, got a string ("30 days"). Change it, or leave it out for the default.`,
      ),
    )
  })

  test('an unknown option throws with a did-you-mean', () => {
    expect(() => llmReplay({ host: ['http://127.0.0.1:11434'] } as ReplayOptions)).toThrow(
      /^\[expect-llm\] Failed to create the replay handlers: unknown option "host" \(did you mean "hosts"\?\)\. Valid options: mode, dir, /,
    )
  })

  test('several problems are listed together', () => {
    expect(() => llmReplay({ mode: 'replays', sequence: 'yes' } as unknown as ReplayOptions)).toThrow(
      /^\[expect-llm\] Failed to create the replay handlers: 2 problems\. Nothing was changed; fix them and call llmReplay\(\) again\.\n {2}- "mode" .*\n {2}- "sequence" /,
    )
  })

  test('options that are not an object throw', () => {
    expect(() => llmReplay(null as unknown as ReplayOptions)).toThrow(
      new TypeError(
        '[expect-llm] Failed to create the replay handlers: the options must be an object. Call llmReplay({ ... }), or llmReplay() for the defaults.',
      ),
    )
  })

  test('valid options, and none, give handlers', () => {
    expect(llmReplay({ maxAge: '90d', hosts: ['http://127.0.0.1:11434'] }).handlers.length).toBeGreaterThan(0)
    expect(llmReplay().handlers.length).toBeGreaterThan(0)
  })
})
