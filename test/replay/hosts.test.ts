// Which hosts replay handles by default, and the CI network rule for every other host.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { DEFAULT_HOSTS, isLoopback, isPlaceholderKey, matchesHost, parseHostPattern, providerFor } from '../../src/replay/hosts.js'
import { forceModeFromOptions, optionsFor, removeRoot, startReplay, tempRoot } from './helpers.js'

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

/** One URL per default provider host, as its SDK calls it. */
const PROVIDER_URLS: Array<[string, string]> = [
  ['OpenAI', 'https://api.openai.com/v1/chat/completions'],
  ['Azure OpenAI', 'https://my-resource.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21'],
  ['Azure OpenAI', 'https://my-resource.cognitiveservices.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21'],
  ['Anthropic', 'https://api.anthropic.com/v1/messages'],
  ['Google Gemini API', 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent'],
  [
    'Google Vertex AI',
    'https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.0-flash:generateContent',
  ],
  ['Google Vertex AI', 'https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini-2.0-flash:generateContent'],
  ['Mistral', 'https://api.mistral.ai/v1/chat/completions'],
  ['Groq', 'https://api.groq.com/openai/v1/chat/completions'],
  ['Together AI', 'https://api.together.xyz/v1/chat/completions'],
  ['Fireworks', 'https://api.fireworks.ai/inference/v1/chat/completions'],
  ['DeepSeek', 'https://api.deepseek.com/chat/completions'],
  ['OpenRouter', 'https://openrouter.ai/api/v1/chat/completions'],
  ['Cohere', 'https://api.cohere.com/v2/chat'],
  ['Voyage AI', 'https://api.voyageai.com/v1/embeddings'],
  ['Perplexity', 'https://api.perplexity.ai/chat/completions'],
  ['xAI', 'https://api.x.ai/v1/chat/completions'],
  ['Amazon Bedrock', 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1:0/converse'],
  ['Vercel AI Gateway', 'https://ai-gateway.vercel.sh/v1/ai/language-model'],
]

describe('default provider hosts', () => {
  test.each(PROVIDER_URLS)('%s (%s) is a default host', (provider, url) => {
    expect(matchesHost(DEFAULT_HOSTS, url)).toBe(true)
    expect(providerFor(url)?.name).toBe(provider)
  })

  test('a wildcard matches one DNS label, not a longer suffix or another scheme', () => {
    expect(matchesHost(['https://*.openai.azure.com'], 'https://a-b.openai.azure.com/x')).toBe(true)
    expect(matchesHost(['https://*.openai.azure.com'], 'https://openai.azure.com/x')).toBe(false)
    expect(matchesHost(['https://*.openai.azure.com'], 'https://evil.com.openai.azure.com.attacker.net/')).toBe(false)
    expect(matchesHost(['https://*.openai.azure.com'], 'http://a.openai.azure.com/')).toBe(false)
    expect(matchesHost(['http://127.0.0.1:*'], 'http://127.0.0.1:5173/v1')).toBe(true)
    expect(matchesHost(['http://127.0.0.1:11434'], 'http://127.0.0.1:11435/')).toBe(false)
    expect(matchesHost(['https://api.openai.com'], 'https://api.openai.com:443/v1')).toBe(true)
  })

  test('a host that is not an origin fails with the option and examples', () => {
    expect(() => parseHostPattern('api.openai.com')).toThrow(
      `[expect-llm] Failed to configure replay hosts: "api.openai.com" is not a URL origin. Pass origins such as 'http://127.0.0.1:11434', 'https://my-resource.openai.azure.com' or 'https://*.example.com' (a path is ignored).`,
    )
    expect(parseHostPattern('http://127.0.0.1:11434/v1').port).toBe('11434')
  })

  test('loopback hosts are the machine itself', () => {
    for (const url of ['http://localhost:3000/', 'http://127.0.0.1:8080/', 'http://127.1.2.3/', 'http://[::1]:9/', 'http://api.localhost/'])
      expect(isLoopback(url), url).toBe(true)
    for (const url of ['http://10.0.0.1/', 'https://api.openai.com/', 'http://localhost.example.com/']) expect(isLoopback(url), url).toBe(false)
  })

  test('placeholder keys are recognised, real-looking keys are not', () => {
    for (const key of [
      'expect-llm-replay-no-key',
      'replay-without-a-key',
      'scripted-model-no-key',
      '',
      'sk-...',
      'your-api-key',
      'YOUR_OPENAI_API_KEY',
      '<key>',
      'dummy',
      'test',
      'xxxxxxxx',
      '${OPENAI_API_KEY}',
    ]) {
      expect(isPlaceholderKey(key), key).toBe(true)
    }
    for (const key of [['sk', 'proj', 'abcDEF0123456789ghijKLMN'].join('-'), 'ollama', 'lm-studio', 'test-key-local'])
      expect(isPlaceholderKey(key), key).toBe(false)
  })
})

describe('replay answers every default host without a network request', () => {
  test.each(PROVIDER_URLS)('%s: a request to %s in replay mode is a miss, answered at once', async (_provider, url) => {
    forceModeFromOptions()
    const root = await tempRoot()
    const phase = startReplay({ mode: 'replay', rootDir: root, testPath: () => `${root}/test/a.test.ts` })
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      })
      expect(res.status).toBe(404)
      expect(res.headers.get('x-expect-llm-replay')).toBe('expect_llm_replay_miss')
      expect(phase.escaped).toEqual([])
      expect(phase.replay.takeProblems().map((p) => p.kind)).toEqual(['miss'])
    } finally {
      phase.close()
      await removeRoot(root)
    }
  })
})

describe('the CI network rule', () => {
  async function send(url: string, extra: Parameters<typeof optionsFor>[3] = {}, ci = 'true') {
    forceModeFromOptions()
    vi.stubEnv('CI', ci)
    const root = await tempRoot()
    const phase = startReplay(optionsFor(root, 'http://127.0.0.1:1', 'replay', extra), { guard: true })
    try {
      const res = await fetch(url)
      return { status: res.status, body: await res.text(), escaped: [...phase.escaped], problems: phase.replay.takeProblems() }
    } finally {
      phase.close()
      await removeRoot(root)
    }
  }

  test('under CI, a request to a host that is neither replayed nor allowed fails at once and names the host and the options', async () => {
    const { status, escaped, problems } = await send('https://weather.example.com/today?city=Paris')
    expect(status).toBe(404)
    expect(escaped).toEqual([])
    expect(problems.map((p) => p.kind)).toEqual(['network'])
    expect(problems[0]!.message).toBe(
      `[expect-llm] Failed to send GET https://weather.example.com/today: CI is set, so mode "replay" lets no request leave the machine, and https://weather.example.com is not a replay host. If the test should reach it, add 'https://weather.example.com' to configure({ replay: { allowedHosts } }); if it is a model API to record and replay, add it to configure({ replay: { hosts } }).`,
    )
  })

  test('allowedHosts lets a host through under CI', async () => {
    const { escaped, problems } = await send('https://weather.example.com/today', { allowedHosts: ['https://*.example.com'] })
    expect(problems).toEqual([])
    expect(escaped).toEqual(['GET https://weather.example.com/today'])
  })

  test('loopback hosts pass under CI without being listed', async () => {
    const { escaped, problems } = await send('http://localhost:4/health')
    expect(problems).toEqual([])
    expect(escaped).toEqual(['GET http://localhost:4/health'])
  })

  test('data: URLs are not the network', async () => {
    const { escaped, problems } = await send('data:,hello')
    expect(problems).toEqual([])
    expect(escaped).toEqual([])
  })

  test('outside CI the rule does not apply', async () => {
    const { escaped, problems } = await send('https://weather.example.com/today', {}, '')
    expect(problems).toEqual([])
    expect(escaped).toEqual(['GET https://weather.example.com/today'])
  })
})
