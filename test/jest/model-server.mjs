// A minimal scripted OpenAI-compatible server for the Jest suites (which run plain JavaScript, so they
// cannot import test/helpers/openai-server.ts): chat completions (JSON) and embeddings (float or
// base64), bound to 127.0.0.1 on an ephemeral port. `reply(request)` returns `{ text }`, `{ embeddings }`
// or `{ status, errorMessage }`.
import { createServer } from 'node:http'

export async function startModelServer(reply) {
  const requests = []
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')
      const endpoint = req.url.endsWith('/embeddings') ? 'embeddings' : req.url.endsWith('/chat/completions') ? 'chat' : 'other'
      const prompt = endpoint === 'chat' ? String(body.messages?.at(-1)?.content ?? '') : ''
      const request = { endpoint, body, prompt }
      requests.push(request)
      const r = reply(request)
      const send = (status, json) => {
        const text = JSON.stringify(json)
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
        res.end(text)
      }
      if (r.status) return send(r.status, { error: { message: r.errorMessage ?? 'error', type: 'invalid_request_error' } })
      if (endpoint === 'embeddings') {
        const base64 = body.encoding_format === 'base64'
        const data = r.embeddings.map((v, index) => ({
          object: 'embedding',
          index,
          embedding: base64 ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v,
        }))
        return send(200, { object: 'list', data, model: body.model, usage: { prompt_tokens: body.input.length, total_tokens: body.input.length } })
      }
      return send(200, {
        id: 'chatcmpl-jest',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: r.text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      })
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** The text between <tag> and </tag> in a judge prompt. */
export function section(prompt, tag) {
  const m = new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(prompt)
  return m?.[1]
}
