// The model-backed matchers from committed recordings, with no server running: the judge and embedder
// point at a closed port on 127.0.0.1, so any request not answered from a fixture fails to connect.
//
// Recorded against the scripted local server (test/helpers/openai-server.ts) with
//   EXPECT_LLM_REPLAY=record npx vitest run test/matchers/model-matchers.replay.test.ts
// which starts the server, records what is missing into __llm_fixtures__/model-matchers.replay.test.ts/,
// and keys every fixture under RECORDED_ORIGIN so that the server's ephemeral port does not matter.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import * as matchers from '../../matchers/index.js'
import { configure, resetConfig } from '../../src/config.js'
import { clearEmbeddingCache } from '../../src/embedders/batch.js'
import { getLedger, resetLedger } from '../../src/ledger.js'
import { asyncFailureMessage } from '../helpers/model-fakes.js'
import { escalateRun, refundRun } from '../helpers/trajectories.js'
import { clientFor, jsonVerdict, judgedText, replayRecordings, type RecordedReplay, type RecordedRequest, type ScriptedReply } from '../helpers/model-server.js'

expect.extend(matchers)

const good = 'You can ask for a refund within 30 days.'
const reversed = 'Wait 30 days before you can ask for a refund.'
const offTopic = 'Our store opens at 9am.'
const context = 'Refunds are accepted within 30 days of purchase. Refunds go back to the original payment method.'
const vectors: Record<string, number[]> = {
  [good]: [1, 0],
  'Refunds can be requested for 30 days.': [0.9, Math.sqrt(1 - 0.81)],
  [offTopic]: [0.1, Math.sqrt(1 - 0.01)],
}

/** The scripted judge used when recording. */
function script(req: RecordedRequest): ScriptedReply {
  if (req.endpoint === 'embeddings') return { embeddings: (req.body.input as string[]).map((t) => vectors[t] ?? [0, 1]) }
  const text = judgedText(req)
  const prompt = req.lastUserText
  if (prompt.includes('fact-checking')) {
    const claims = [{ claim: 'Refunds are possible within 30 days.', supported: true, reason: 'stated' }]
    if (text.includes('5 business days'))
      claims.push({ claim: 'The refund arrives within 5 business days.', supported: false, reason: 'no processing time in the context' })
    return { text: JSON.stringify({ claims, reasoning: 'Checked each claim.', score: 1 }) }
  }
  if (prompt.includes('achieved a goal'))
    return prompt.includes('called refundOrder')
      ? jsonVerdict(1, 'refundOrder was called for A17 and the refund id was given.')
      : jsonVerdict(0, 'The agent escalated; no refund was made.')
  if (prompt.includes('declines to answer'))
    return text.startsWith('That is something') || text.startsWith("I don't know") ? jsonVerdict(1, 'It deflects.') : jsonVerdict(0, 'It answers.')
  if (prompt.includes('answers the question'))
    return text === offTopic ? jsonVerdict(0, 'Opening hours, not refunds.') : jsonVerdict(1, 'Answers the refund question.')
  return text === good ? jsonVerdict(1, 'Same facts as the reference.') : jsonVerdict(0, 'Reverses the condition: wait 30 days instead of within 30 days.')
}

let recorded: RecordedReplay

beforeAll(async () => {
  recorded = await replayRecordings(import.meta.url, script)
  // Clients are built after interception starts (a client built before would escape it).
  const client = clientFor(`${recorded.origin}/v1`)
  configure({ judge: { client, model: 'judge-model' }, embedder: { client, model: 'text-embedding-3-small' } })
})

afterEach(() => {
  recorded.replay.assertNoProblems()
  clearEmbeddingCache()
})

afterAll(async () => {
  await recorded.close()
  resetConfig()
  resetLedger()
})

describe('model-backed matchers replayed from committed recordings', () => {
  test('toBeSemanticallySimilar passes and fails', async () => {
    await expect(good).toBeSemanticallySimilar('Refunds can be requested for 30 days.')
    expect(await asyncFailureMessage(expect(good).toBeSemanticallySimilar(offTopic))).toContain('Received cosine similarity:    0.1 (text-embedding-3-small)')
  })

  test('toPassJudge passes and fails', async () => {
    await expect(good).toPassJudge({ reference: good })
    expect(await asyncFailureMessage(expect(reversed).toPassJudge({ reference: good }))).toContain(
      `Judge's reasoning: "Reverses the condition: wait 30 days instead of within 30 days."`,
    )
  })

  test('toBeRelevantTo passes and fails', async () => {
    await expect(good).toBeRelevantTo('How long do I have to ask for a refund?')
    await expect(offTopic).not.toBeRelevantTo('How long do I have to ask for a refund?')
  })

  test('toBeFaithfulTo passes and fails with the unsupported claim', async () => {
    await expect(good).toBeFaithfulTo(context)
    expect(await asyncFailureMessage(expect(`${good} It arrives within 5 business days.`).toBeFaithfulTo(context))).toContain(
      '  - "The refund arrives within 5 business days." (no processing time in the context)',
    )
  })

  test('toRefuse with a judge passes and fails', async () => {
    await expect('That is something our team handles personally; please reach out to them.').toRefuse({ judge: true })
    await expect(good).not.toRefuse({ judge: true })
  })

  test('toRefuse with judgeFirst: the judge decides over a phrase rule', async () => {
    const input = 'Can I pay with PayPal?'
    const answer = 'No, the context does not mention PayPal: we accept cards only.'
    await expect(answer).toRefuse() // the phrase rule alone calls it a refusal
    await expect(answer).not.toRefuse({ judge: true, judgeFirst: true, input })
    await expect("I don't know; the handbook does not say.").toRefuse({ judge: true, judgeFirst: true, input })
    expect(await asyncFailureMessage(expect(answer).toRefuse({ judge: true, judgeFirst: true, input }))).toContain(
      'Received: refusal rule "context-does-not-mention" matched "the context does not mention"; asked first, the judge found an answer',
    )
  })

  test('toAgreeWithLabels passes and fails', async () => {
    const labelled = [
      { output: good, label: 'PASS' as const },
      { output: reversed, label: 'FAIL' as const },
    ]
    await expect({ reference: good }).toAgreeWithLabels(labelled)
    await expect({ reference: good }).not.toAgreeWithLabels(labelled.map((c) => ({ ...c, label: c.label === 'PASS' ? ('FAIL' as const) : ('PASS' as const) })))
  })

  test('toCompleteGoal passes and fails on an agent run', async () => {
    const goal = 'Refund order A17 in full and tell the customer the refund id'
    await expect(refundRun()).toCompleteGoal(goal)
    expect(await asyncFailureMessage(expect(escalateRun()).toCompleteGoal(goal))).toContain(`Judge's reasoning: "The agent escalated; no refund was made."`)
  })

  test('the ledger counts the recorded token usage on replay', async () => {
    resetLedger()
    await expect(good).toPassJudge({ reference: good })
    expect(getLedger().byKind.judge.calls).toBe(1)
    expect(getLedger().byKind.judge.inputTokens).toBeGreaterThan(0)
  })
})
