// `ai` (and the provider SDKs) are optional peers: the built package must not load them unless an AI SDK
// model is configured. Checked on dist/ (as users get it; `npm test` builds first), in ESM and CommonJS,
// with a module hook that fails any attempt to load them; the positive control shows the hook works.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { isAiSdkEmbeddingModel, isAiSdkLanguageModel } from '../src/ai-sdk.js'

const dist = join(fileURLToPath(new URL('..', import.meta.url)), 'dist')
const OPTIONAL = '/^(?:ai|@ai-sdk\\/.*|@anthropic-ai\\/.*)$/'
// A fake AI SDK language model: evaluating it makes the judge load `ai`.
const FAKE_MODEL = "{ specificationVersion: 'v3', provider: 'fake', modelId: 'fake-model', doGenerate: async () => ({}) }"
const EVALUATE = `judge.evaluate({ prompt: 'p', template: 'rubric', scale: 'binary', output: 'o', sample: 0 }).then(() => console.log('evaluated'), (e) => console.log(e.message))`

function node(args: string[]): string {
  if (!existsSync(join(dist, 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does).')
  return execFileSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })
}

describe('the built package and the optional AI SDK peer', () => {
  test('ESM: importing every entry loads neither ai nor a provider SDK; the AI SDK judge loads ai on its first call', () => {
    const hooks = `export async function resolve(s, c, next) { if (${OPTIONAL}.test(s)) throw new Error('refused to load ' + s); return next(s, c) }`
    const register = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}))`
    const script = `
      const core = await import(${JSON.stringify(join(dist, 'index.js'))})
      await import(${JSON.stringify(join(dist, 'matchers.js'))})
      console.log('imported')
      const judge = core.aiSdkJudge({ model: ${FAKE_MODEL} })
      await ${EVALUATE}`
    const out = node(['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', script])
    expect(out).toContain('imported')
    expect(out).toContain('[expect-llm] Failed to use the AI SDK judge: the "ai" package could not be loaded (refused to load ai).')
  })

  test('CommonJS: requiring every entry loads neither ai nor a provider SDK; the AI SDK judge requires ai on its first call', () => {
    const script = `
      const Module = require('node:module')
      const load = Module._load
      Module._load = function (request, ...rest) { if (${OPTIONAL}.test(request)) throw new Error('refused to load ' + request); return load.call(this, request, ...rest) }
      const core = require(${JSON.stringify(join(dist, 'index.cjs'))})
      require(${JSON.stringify(join(dist, 'matchers.cjs'))})
      console.log('required')
      const judge = core.aiSdkJudge({ model: ${FAKE_MODEL} })
      ${EVALUATE}`
    const out = node(['-e', script])
    expect(out).toContain('required')
    expect(out).toContain('[expect-llm] Failed to use the AI SDK judge: the "ai" package could not be loaded (refused to load ai).')
  })
})

describe('AI SDK model detection', () => {
  const language = { specificationVersion: 'v3', provider: 'anthropic.messages', modelId: 'claude-haiku-4-5', doGenerate: async () => ({}) }
  const embedding = { specificationVersion: 'v3', provider: 'google.generative-ai', modelId: 'gemini-embedding-001', doEmbed: async () => ({}) }

  test('tells language models from embedding models by their spec methods', () => {
    expect([isAiSdkLanguageModel(language), isAiSdkEmbeddingModel(language)]).toEqual([true, false])
    expect([isAiSdkLanguageModel(embedding), isAiSdkEmbeddingModel(embedding)]).toEqual([false, true])
  })

  test('does not take a model name, an OpenAI client or a partial object for a model', () => {
    for (const value of ['claude-haiku-4-5', { chat: {} }, { provider: 'x', modelId: 'y', doGenerate: () => 1 }, null]) {
      expect(isAiSdkLanguageModel(value)).toBe(false)
    }
  })
})
