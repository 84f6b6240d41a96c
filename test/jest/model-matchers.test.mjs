// ESM consumer (Jest's ESM mode): every async matcher of the built package, through `expect-llm/jest`,
// the real openai SDK and a scripted OpenAI-compatible server on 127.0.0.1. Each passes once and fails once.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { stripVTControlCharacters } from 'node:util'
import OpenAI from 'openai'
import { configure, resetConfig } from 'expect-llm'
import { section, startModelServer } from './model-server.mjs'

const good = 'You can ask for a refund within 30 days.'
const reversed = 'Wait 30 days before you can ask for a refund.'
const offTopic = 'Our store opens at 9am.'
const context = 'Refunds are accepted within 30 days of purchase.'
const vectors = { [good]: [1, 0], 'Refunds can be requested for 30 days.': [0.9, Math.sqrt(1 - 0.81)], [offTopic]: [0.1, Math.sqrt(1 - 0.01)] }
const verdict = (score, reasoning) => ({ text: JSON.stringify({ reasoning, score }) })

function reply({ endpoint, body, prompt }) {
  if (endpoint === 'embeddings') return { embeddings: body.input.map((t) => vectors[t] ?? [0, 1]) }
  const text = section(prompt, 'answer') ?? section(prompt, 'response') ?? ''
  if (prompt.includes('fact-checking')) {
    const claims = [{ claim: 'Refunds within 30 days.', supported: true, reason: 'stated' }]
    if (text.includes('5 business days')) claims.push({ claim: 'Refund arrives in 5 business days.', supported: false, reason: 'not in the context' })
    return { text: JSON.stringify({ claims, reasoning: 'checked', score: 1 }) }
  }
  if (prompt.includes('achieved a goal'))
    return prompt.includes('called refundOrder') ? verdict(1, 'Refunded and confirmed.') : verdict(0, 'No refund call was made.')
  if (prompt.includes('declines to answer')) return text.startsWith('That is for our team') ? verdict(1, 'deflects') : verdict(0, 'answers')
  return text === good ? verdict(1, 'Correct and on topic.') : verdict(0, 'Wrong or off topic.')
}

async function failure(promise) {
  try {
    await promise
  } catch (error) {
    return stripVTControlCharacters(error.message)
  }
  throw new Error('expected the assertion to fail, but it passed')
}

let server

beforeAll(async () => {
  server = await startModelServer(reply)
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 })
  // The server is this file's model, called live: its origin would otherwise join the replay hosts.
  configure({
    replay: { allowedHosts: [new URL(server.baseURL).origin] },
    judge: { client, model: 'judge-model' },
    embedder: { client, model: 'text-embedding-3-small' },
  })
})

afterAll(async () => {
  resetConfig()
  await server.close()
})

describe('model-backed matchers under Jest (ESM build)', () => {
  test('toBeSemanticallySimilar passes and fails', async () => {
    await expect(good).toBeSemanticallySimilar('Refunds can be requested for 30 days.')
    expect(await failure(expect(good).toBeSemanticallySimilar(offTopic))).toContain('Received cosine similarity:    0.1 (text-embedding-3-small)')
  })

  test('toPassJudge passes and fails', async () => {
    await expect(good).toPassJudge({ reference: good })
    expect(await failure(expect(reversed).toPassJudge({ reference: good }))).toContain(`Judge's reasoning: "Wrong or off topic."`)
  })

  test('toBeRelevantTo passes and fails', async () => {
    await expect(good).toBeRelevantTo('How long do I have to ask for a refund?')
    expect(await failure(expect(offTopic).toBeRelevantTo('How long do I have to ask for a refund?'))).toContain(
      'Received relevance:    0 (FAIL, judge judge-model)',
    )
  })

  test('toBeFaithfulTo passes and fails', async () => {
    await expect(good).toBeFaithfulTo(context)
    expect(await failure(expect(`${good} It arrives in 5 business days.`).toBeFaithfulTo(context))).toContain(
      'Unsupported claims (1):\n  - "Refund arrives in 5 business days." (not in the context)',
    )
  })

  test('toRefuse passes and fails', async () => {
    await expect('I don’t know.').toRefuse()
    await expect('That is for our team to decide, please contact them.').toRefuse({ judge: true })
    expect(await failure(expect(good).toRefuse({ judge: true }))).toContain('Received: no refusal phrase matched; the judge found an answer')
  })

  test('toCompleteGoal passes and fails on an agent run', async () => {
    const call = (name, args) => ({ id: `c-${name}`, type: 'function', function: { name, arguments: JSON.stringify(args) } })
    const refunded = [
      { role: 'user', content: 'Refund order A17.' },
      { role: 'assistant', content: null, tool_calls: [call('refundOrder', { orderId: 'A17', amount: 30 })] },
      { role: 'tool', tool_call_id: 'c-refundOrder', content: '{"refundId":"R-1"}' },
      { role: 'assistant', content: 'Refunded: R-1.' },
    ]
    await expect(refunded).toCompleteGoal('Refund order A17')
    expect(await failure(expect(refunded.slice(0, 1).concat({ role: 'assistant', content: 'Refunded!' })).toCompleteGoal('Refund order A17'))).toContain(
      `Judge's reasoning: "No refund call was made."`,
    )
  })

  test('toAgreeWithLabels passes and fails', async () => {
    const labelled = [
      { output: good, label: 'PASS' },
      { output: reversed, label: 'FAIL' },
    ]
    await expect({ reference: good }).toAgreeWithLabels(labelled)
    expect(await failure(expect(() => true).toAgreeWithLabels(labelled.map((c) => ({ ...c, criteria: 'x' }))))).toContain(
      "Received: agreement 0.5 (1 of 2, 50%), Cohen's kappa 0",
    )
  })
})
