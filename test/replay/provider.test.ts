import { describe, expect, test } from 'vitest'
import { modelFromPath, providerOf } from '../../src/replay/provider.js'

describe('providerOf', () => {
  test.each([
    ['https://api.openai.com', '/v1/chat/completions', 'OpenAI'],
    ['https://my-resource.openai.azure.com', '/openai/deployments/gpt/chat/completions', 'Azure OpenAI'],
    ['https://api.anthropic.com', '/v1/messages', 'Anthropic'],
    ['https://generativelanguage.googleapis.com', '/v1beta/models/gemini-2.5-flash:generateContent', 'Google Gemini API'],
    ['https://us-central1-aiplatform.googleapis.com', '/v1/projects/p/locations/l/publishers/google/models/m:generateContent', 'Google Vertex AI'],
    ['https://bedrock-runtime.us-east-1.amazonaws.com', '/model/anthropic.claude-haiku-4-5/invoke', 'Amazon Bedrock'],
    ['https://openrouter.ai', '/api/v1/chat/completions', 'OpenRouter'],
  ])('names the hosted API at %s', (origin, path, name) => {
    expect(providerOf(origin, path)).toBe(name)
  })

  test('names local servers by their default port and the API of the path', () => {
    expect(providerOf('http://127.0.0.1:11434', '/v1/chat/completions')).toBe('Ollama (OpenAI-compatible API)')
    expect(providerOf('http://localhost:11434', '/api/chat')).toBe('Ollama (native API)')
    expect(providerOf('http://127.0.0.1:1234', '/v1/embeddings')).toBe('LM Studio (OpenAI-compatible API)')
  })

  test('names an unknown server by the API its path belongs to', () => {
    expect(providerOf('http://127.0.0.1:8000', '/v1/chat/completions')).toBe('an OpenAI-compatible server')
    expect(providerOf('http://127.0.0.1:40123', '/v1/messages')).toBe('an Anthropic Messages-compatible server')
    expect(providerOf('http://127.0.0.1:40123', '/v1beta/models/m:batchEmbedContents')).toBe('a Gemini-compatible server')
    expect(providerOf('http://10.0.0.5:9000', '/api/embed')).toBe('Ollama (native API)')
  })

  test('names the API of a local server for every wire format', () => {
    expect(providerOf('http://127.0.0.1:11434', '/v1/messages')).toBe('Ollama (Anthropic Messages API)')
    expect(providerOf('http://localhost:1234', '/v1beta/models/m:generateContent')).toBe('LM Studio (Gemini API)')
  })

  test('a path that only starts like an API path names no API', () => {
    expect(providerOf('http://127.0.0.1:8000', '/v1/messages/batches')).toBeUndefined()
    expect(providerOf('http://127.0.0.1:8000', '/v1beta/models/m:generateContent/extra')).toBeUndefined()
    expect(providerOf('http://127.0.0.1:8000', '/v1/responses/resp_123')).toBeUndefined()
  })

  test('an OpenAI path under /api/ is not the Ollama native API', () => {
    expect(providerOf('http://127.0.0.1:8080', '/api/chat/completions')).toBe('an OpenAI-compatible server')
  })

  test('a local server is told by its whole hostname', () => {
    expect(providerOf('http://127.0.0.10:11434', '/v1/chat/completions')).toBe('Ollama (OpenAI-compatible API)')
    expect(providerOf('http://my-localhost:11434', '/v1/chat/completions')).toBe('an OpenAI-compatible server')
    expect(providerOf('http://localhost.example:11434', '/v1/chat/completions')).toBe('an OpenAI-compatible server')
  })

  test('returns undefined when nothing is known', () => {
    expect(providerOf('https://example.com', '/upload')).toBeUndefined()
    expect(providerOf('not a url', '/v1/messages')).toBeUndefined()
  })
})

describe('modelFromPath', () => {
  test('reads the model of Gemini and Bedrock paths', () => {
    expect(modelFromPath('/v1beta/models/gemini-embedding-001:batchEmbedContents')).toBe('gemini-embedding-001')
    expect(modelFromPath('/model/anthropic.claude-haiku-4-5-20251001-v1%3A0/invoke')).toBe('anthropic.claude-haiku-4-5-20251001-v1:0')
  })

  test('returns null for paths without a model', () => {
    expect(modelFromPath('/v1/chat/completions')).toBeNull()
  })

  test('returns null when the model path goes on past the action', () => {
    expect(modelFromPath('/v1beta/models/gemini-2.5-flash:generateContent/extra')).toBeNull()
    expect(modelFromPath('/model/anthropic.claude-haiku-4-5/invoke/extra')).toBeNull()
  })
})
