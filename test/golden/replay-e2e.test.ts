// A replayed end-to-end golden suite: a child Vitest records the task's chat completions and the
// semantic scorer's embeddings from a local OpenAI-compatible server, the server stops, and a second
// child run replays everything: same outputs and scores, zero requests, and the budget figures
// (latency, tokens) come from the recordings.
import { readFileSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { startOpenAIServer } from '../helpers/openai-server.js'
import { runVitest, vitestSandbox } from './helpers.js'

const dir = vitestSandbox(['e2e.golden.ts'])
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const answers: Record<string, string> = {
  'refund window': 'Refunds are accepted within 30 days of purchase.',
  'shipping cost': 'Shipping costs five dollars on every order.',
  'ship to canada': 'We ship to Canada in 5 to 7 business days.',
}

test('record against the local server, stop it, replay: identical report, recorded latency and usage', async () => {
  const server = await startOpenAIServer({
    reply: (req) => (req.endpoint === 'chat' ? { text: answers[req.lastUserText] ?? '?', latencyMs: 60, usage: { input: 12, output: 9 } } : {}),
  })
  const env = { CHILD_ORIGIN: server.origin, CHILD_BASE_URL: server.baseURL, EXPECT_LLM_REPLAY: 'record', EXPECT_LLM_ALLOW_RECORD_IN_CI: '1' }
  const reportFile = join(dir, '.expect-llm', 'reports', 'e2e.golden.ts', 'support-bot-e2e.json')
  let recorded
  try {
    recorded = await runVitest(dir, env)
    expect(recorded.code, recorded.output).toBe(1) // shipping fails rougeL 0.5 on purpose
    expect(server.requests.filter((r) => r.endpoint === 'chat')).toHaveLength(3)
    // Under record/replay each case embeds its own output and references in one request of its own (two
    // outputs are word for word their reference, so those requests hold one text), whatever ran before.
    const embedded = server.requests.filter((r) => r.endpoint === 'embeddings').map((r) => r.body.input as string[])
    expect(embedded.sort((a, b) => a[0]!.localeCompare(b[0]!))).toEqual(
      [[answers['refund window']], [answers['shipping cost'], 'Shipping is free on orders over $50.'], [answers['ship to canada']]].sort((a, b) =>
        a[0]!.localeCompare(b[0]!),
      ),
    )
  } finally {
    await server.close()
  }
  const first = JSON.parse(readFileSync(reportFile, 'utf8'))
  const fixtures = readdirSync(join(dir, '__llm_fixtures__', 'e2e.golden.ts'))
  expect(fixtures.filter((f) => f.startsWith('chat-completions.'))).toHaveLength(3)

  server.reset()
  const replayed = await runVitest(dir, { ...env, EXPECT_LLM_REPLAY: 'replay' })
  expect(replayed.code, replayed.output).toBe(1)
  expect(server.requests).toHaveLength(0)
  const titles = replayed.json.testResults[0]!.assertionResults.map((r) => [r.title, r.status])
  expect(titles).toEqual([
    ['refund: refund window', 'passed'],
    ['shipping: shipping cost', 'failed'],
    ['canada: ship to canada', 'passed'],
    ['aggregate', 'passed'],
  ])
  const second = JSON.parse(readFileSync(reportFile, 'utf8'))
  const pick = (r: { cases: Array<{ id: string; output: string; scores: unknown; usage: unknown }> }) =>
    r.cases.map((c) => ({ id: c.id, output: c.output, scores: c.scores, usage: c.usage }))
  expect(pick(second)).toEqual(pick(first))
  expect(second.cases[0].usage).toEqual({ inputTokens: 12, outputTokens: 9, costUsd: (12 * 0.15 + 9 * 0.6) / 1e6 })
  expect(second.models.app).toEqual(['gpt-4o-mini'])
  // Replayed latency is what the calls took when recorded (the server waited 60 ms), not the replay's.
  expect(second.usage.latencyMs.sources).toEqual({ recorded: 3 })
  expect(second.usage.latencyMs.p50).toBeGreaterThanOrEqual(60)
  expect(first.usage.latencyMs.sources).toEqual({ measured: 3 })
  expect(second.usage.app).toMatchObject({ calls: 3, inputTokens: 36, outputTokens: 27 })
  expect(second.usage.evaluator.byKind.embedding.calls).toBe(3) // one embeddings request per case, replayed
  expect(second.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
    ['budget.p95LatencyMs', true],
    ['budget.maxTokens', true],
  ])
  expect(replayed.output).toContain('latency: P50')
}, 90_000)
