// Golden agent and multi-turn cases in a child Vitest, run by test/golden/agent-runner.test.ts: the tool
// checks on runs captured from the openai and Anthropic SDKs (fixtures/golden/agent-runs.json, checked
// against the replayed SDK loops by agent-cases.replay.test.ts), a turn-by-turn conversation, a gate on
// toolF1's mean, the baseline, and compareGolden deciding on a tool check.
import { readFileSync } from 'node:fs'
import { compareGolden, describeGolden } from '../../../src/entries/vitest.js'
import { turnByTurn } from '../../../src/golden/conversation.js'

const runs = JSON.parse(readFileSync(process.env.AGENT_RUNS as string, 'utf8')) as Record<'right' | 'sloppy' | 'anthropic', unknown>
const dataset = process.env.AGENT_DATASET as string
const sloppy = process.env.AGENT_VARIANT === 'sloppy'

/** A scripted bot: it remembers the order number of an earlier turn, unless it forgets (sees only the last message). */
function botReply(messages: Array<{ role: string; content: string }>, forgets: boolean): string {
  const seen = forgets ? messages.slice(-1) : messages
  if (!/order number/.test(messages.at(-1)!.content)) return 'Noted.'
  const id = seen.map((m) => /\b([A-Z]\d+)\b/.exec(m.content)?.[1]).find(Boolean)
  return id ? `Your order number is ${id}.` : 'I do not know your order number.'
}

describeGolden('refund agent', {
  dataset,
  // Called once per user turn; the agent cases have one turn and return what the SDK returned.
  task: turnByTurn((messages, c) => (c.messages ? botReply(messages, sloppy) : c.tags?.includes('anthropic') ? runs.anthropic : sloppy ? runs.sloppy : runs.right)),
  scorers: { toolF1: true, 'toolF1:names': { level: 'name' } },
  thresholds: { mean: { toolF1: 0.9 } },
  baseline: true,
})

compareGolden('right vs sloppy agent', {
  dataset,
  filter: { ids: ['refund'] },
  variants: { sloppy: () => runs.sloppy, right: () => runs.right },
  scorers: { toolF1: true },
  expect: { better: 'right', scorer: 'toolF1' },
  resamples: 200,
})
