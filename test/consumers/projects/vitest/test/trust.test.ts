// Mistakes a user makes on day one, and what they get instead of a silent pass (each is a README claim).
import { describe, expect, test } from 'vitest'
import { configure, getConfig, loadDatasetSync } from 'expect-llm'
import { llmReplay } from 'expect-llm/replay'

describe('configure() checks nested options at the call', () => {
  test('a misspelled replay option fails with a did-you-mean, and nothing is stored', () => {
    const before = getConfig().replay
    expect(() => configure({ replay: { host: ['http://127.0.0.1:11434'] } } as never)).toThrow(
      '[expect-llm] Failed to configure expect-llm: unknown option "replay.host" (did you mean "replay.hosts"?).',
    )
    expect(getConfig().replay).toBe(before)
  })

  test('judge settings: baseUrl is baseURL', () => {
    expect(() => configure({ judge: { baseUrl: 'http://127.0.0.1:11434/v1' } } as never)).toThrow('unknown option "judge.baseUrl" (did you mean "judge.baseURL"?)')
  })

  test('pricing entries are checked field by field', () => {
    expect(() => configure({ pricing: { 'my-model': { inputPerMtok: 1, outputPerMTok: 2 } } } as never)).toThrow('did you mean "pricing["my-model"].inputPerMTok"?')
  })
})

describe('llmReplay() checks its options as configure({ replay }) does', () => {
  test('a maxAge that is not an age throws instead of turning the stale warning off', () => {
    expect(() => llmReplay({ maxAge: '30 days' })).toThrow(
      `[expect-llm] Failed to create the replay handlers: "maxAge" must be an age such as '90d', '12h' or '30m', or milliseconds >= 0, got a string ("30 days").`,
    )
  })
})

describe('golden datasets', () => {
  test('a JSON Lines file reports every bad line and every bad case at once, with a did-you-mean', () => {
    let message = ''
    try {
      loadDatasetSync('test/data/bad.jsonl')
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('test/data/bad.jsonl: 4 problems.')
    expect(message).toMatch(/ {2}- test\/data\/bad\.jsonl:2: invalid JSON \(.+\)\n {2}- test\/data\/bad\.jsonl:3: field "inptu" is not a case field \(did you mean "input"\?\)/)
    expect(message).toContain('  - test/data/bad.jsonl:3: field "input" is missing\n  - test/data/bad.jsonl:4: invalid JSON (')
  })
})
