// Golden agent and multi-turn cases under Jest (ESM mode, against the built package), run by
// test/golden/agent-jest-runner.test.ts: the tool checks on runs captured from the SDKs
// (fixtures/golden/agent-runs.json) and a turn-by-turn conversation.
import { readFileSync } from 'node:fs'
import { turnByTurn } from 'expect-llm'
import { describeGolden } from 'expect-llm/jest'

const runs = JSON.parse(readFileSync(process.env.AGENT_RUNS, 'utf8'))
const sloppy = process.env.AGENT_VARIANT === 'sloppy'

function botReply(messages) {
  if (!/order number/.test(messages.at(-1).content)) return 'Noted.'
  const id = messages.map((m) => /\b([A-Z]\d+)\b/.exec(m.content)?.[1]).find(Boolean)
  return id ? `Your order number is ${id}.` : 'I do not know your order number.'
}

describeGolden('refund agent under jest', {
  dataset: process.env.AGENT_DATASET,
  task: turnByTurn((messages, c) => (c.messages ? botReply(messages) : c.tags?.includes('anthropic') ? runs.anthropic : sloppy ? runs.sloppy : runs.right)),
  scorers: { toolF1: true, 'toolF1:names': { level: 'name' } },
  thresholds: { mean: { toolF1: 0.9 } },
})
