const { test, expect } = require('@jest/globals')
const http = require('node:http')
const { configure, resetConfig } = require('expect-llm')
test('probe', async () => {
  const server = http.createServer((req, res) => { let b=''; req.on('data', c => b+=c); req.on('end', () => { const t = JSON.stringify({ id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: '{"reasoning":"ok","score":1}' }, finish_reason: 'stop' }] }); res.writeHead(200, {'content-type':'application/json'}); res.end(t) }) })
  await new Promise(r => server.listen(0, '127.0.0.1', r))
  configure({ judge: { baseURL: `http://127.0.0.1:${server.address().port}/v1`, apiKey: 'k', maxRetries: 0 } })
  try { await expect('hi').toPassJudge('Is polite') } finally { resetConfig(); server.close(); server.closeAllConnections() }
})
