import { afterEach, describe, expect, test } from 'vitest'
import { configure, getConfig, resetConfig } from '../src/config.js'

afterEach(() => resetConfig())

describe('configure', () => {
  test('stores options that getConfig returns', () => {
    configure({ concurrency: 3 })
    expect(getConfig().concurrency).toBe(3)
  })

  test('merges later calls over earlier ones key by key', () => {
    configure({ concurrency: 3 })
    configure({ pricing: { 'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 } } })
    expect(getConfig()).toEqual({ concurrency: 3, pricing: { 'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 } } })
  })

  test('keeps its state on globalThis under Symbol.for so ESM and CJS builds share it', () => {
    configure({ concurrency: 2 })
    const state = (globalThis as Record<symbol, unknown>)[Symbol.for('expect-llm.config')]
    expect(state).toBe(getConfig())
  })

  test('rejects an unknown option by name, with a did-you-mean', () => {
    expect(() => configure({ concurency: 2 } as never)).toThrow(
      '[expect-llm] Failed to configure expect-llm: unknown option "concurency" (did you mean "concurrency"?). Valid options are judge, embedder, replay, pricing, concurrency.',
    )
  })

  test('rejects a concurrency that is not a whole number >= 1', () => {
    expect(() => configure({ concurrency: 0 })).toThrow('"concurrency" must be a whole number >= 1, got 0')
  })

  test('rejects a non-object', () => {
    expect(() => configure(null as never)).toThrow('the options must be an object')
  })
})

describe('configure checks nested options at the call', () => {
  test('a misspelled replay option fails with a did-you-mean instead of being ignored', () => {
    expect(() => configure({ replay: { host: ['http://127.0.0.1:11434'] } } as never)).toThrow(
      '[expect-llm] Failed to configure expect-llm: unknown option "replay.host" (did you mean "replay.hosts"?). Valid replay options: mode, dir, rootDir, hosts, allowedHosts, upstream, ignoreBodyFields, redact, maxAge, sequence, recordErrors, replayTiming, testPath, testName.',
    )
    expect(getConfig().replay).toBeUndefined()
  })

  test('judge settings: baseUrl is baseURL', () => {
    expect(() => configure({ judge: { baseUrl: 'http://127.0.0.1:11434/v1' } } as never)).toThrow(
      'unknown option "judge.baseUrl" (did you mean "judge.baseURL"?). Valid judge settings (or pass an object with evaluate(), or a function): model, baseURL, apiKey, client, temperature, maxRetries, timeout, structuredOutput, maxTokens.',
    )
  })

  test('embedder settings are checked too', () => {
    expect(() => configure({ embedder: { dimension: 256 } } as never)).toThrow('unknown option "embedder.dimension" (did you mean "embedder.dimensions"?)')
  })

  test('pricing entries: each field is named and checked', () => {
    expect(() => configure({ pricing: { 'my-model': { inputPerMtok: 1, outputPerMTok: 2 } } } as never)).toThrow(
      '[expect-llm] Failed to configure expect-llm: 2 problems. Nothing was changed; fix them and call configure() again.\n' +
        '  - unknown option "pricing["my-model"].inputPerMtok" (did you mean "pricing["my-model"].inputPerMTok"?). Valid price fields (USD per million tokens): inputPerMTok, outputPerMTok.\n' +
        '  - "pricing["my-model"].inputPerMTok" is missing. Give both prices in USD per million tokens.',
    )
  })

  test('values are checked: a wrong type names the option and what it got', () => {
    expect(() => configure({ judge: { temperature: '0' } } as never)).toThrow('"judge.temperature" must be a number >= 0 and <= 2, got a string ("0")')
    expect(() => configure({ replay: { hosts: 'http://127.0.0.1:11434' } } as never)).toThrow(
      `"replay.hosts" must be an array of origins such as 'http://127.0.0.1:11434', got a string`,
    )
    expect(() => configure({ replay: { hosts: ['127.0.0.1:11434'] } })).toThrow(
      `[expect-llm] Failed to configure expect-llm: "replay.hosts[0]" must be an origin such as 'http://127.0.0.1:11434' or 'https://*.example.com', got "127.0.0.1:11434". Change it, or leave it out for the default.`,
    )
    expect(() => configure({ replay: { mode: 'recrod' } } as never)).toThrow(
      '"replay.mode" must be one of "replay", "record", "rerecord", "live", got a string ("recrod")',
    )
  })

  test('the host options of record/replay take origin patterns, and upstream maps origins to servers', () => {
    const replay = {
      hosts: ['https://*.example.com', 'http://127.0.0.1:*'],
      allowedHosts: ['http://127.0.0.1:*', 'https://status.example.com'],
      upstream: { 'https://api.openai.com': 'http://127.0.0.1:8080' },
    }
    configure({ replay })
    expect(getConfig().replay).toBe(replay)
  })

  test('a host that is not an origin, or an upstream that is not a URL, names the option', () => {
    expect(() => configure({ replay: { allowedHosts: ['127.0.0.1:*'] } })).toThrow(
      `[expect-llm] Failed to configure expect-llm: "replay.allowedHosts[0]" must be an origin such as 'http://127.0.0.1:11434' or 'https://*.example.com', got "127.0.0.1:*". Change it, or leave it out for the default.`,
    )
    expect(() => configure({ replay: { upstream: 'http://127.0.0.1:8080' } } as never)).toThrow(
      `"replay.upstream" must be an object of origins and the servers to send their requests to, such as { 'https://api.openai.com': 'http://127.0.0.1:8080' }, got a string`,
    )
    expect(() => configure({ replay: { upstream: { 'api.openai.com': 'http://127.0.0.1:8080' } } })).toThrow(
      `"replay.upstream" key "api.openai.com" must be an origin such as 'http://127.0.0.1:11434' or 'https://*.example.com'`,
    )
    expect(() => configure({ replay: { upstream: { 'https://api.openai.com': '127.0.0.1:8080' } } })).toThrow(
      `"replay.upstream["https://api.openai.com"]" must be an http(s) URL such as 'http://127.0.0.1:11434/v1', got "127.0.0.1:8080"`,
    )
    expect(getConfig()).toEqual({})
  })

  test('one call with several problems stores nothing', () => {
    expect(() => configure({ concurrency: 2, replay: { host: [] }, judge: { modle: 'x' } } as never)).toThrow('2 problems')
    expect(getConfig()).toEqual({})
  })

  test('a Judge object, a function, or an Embedder object is taken as it is', () => {
    const judge = { name: 'mine', evaluate: async () => ({ score: 1, scaleValue: 1, reason: '', raw: '' }), extra: true }
    const embed = async (texts: string[]) => texts.map(() => [1, 0])
    configure({ judge, embedder: embed })
    expect(getConfig().judge).toBe(judge)
    expect(getConfig().embedder).toBe(embed)
    configure({ embedder: { embed, batch: 4 } as never })
  })

  test('valid nested options are stored as given', () => {
    const replay = {
      mode: 'record' as const,
      hosts: ['http://127.0.0.1:11434'],
      ignoreBodyFields: ['user'],
      maxAge: '30d',
      sequence: false,
      redact: <T>(f: T) => f,
    }
    configure({
      replay,
      judge: { model: 'gpt-4.1-mini', baseURL: 'http://127.0.0.1:11434/v1', temperature: 0, structuredOutput: 'auto' },
      pricing: { m: { inputPerMTok: 0, outputPerMTok: 0 } },
    })
    expect(getConfig().replay).toBe(replay)
  })
})

describe('resetConfig', () => {
  test('clears every setting in place', () => {
    const state = getConfig()
    configure({ concurrency: 5 })
    resetConfig()
    expect(getConfig()).toBe(state)
    expect(getConfig()).toEqual({})
  })
})
