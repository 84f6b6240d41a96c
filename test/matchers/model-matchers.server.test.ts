// Every model-backed matcher end to end: the real openai SDK, configured through configure(), against a
// scripted OpenAI-compatible server on 127.0.0.1 whose judge replies and embeddings are deterministic.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import * as matchers from '../../matchers/index.js'
import { calibrateJudge, type CalibrationCase } from '../../src/calibration.js'
import { configure, resetConfig } from '../../src/config.js'
import { clearEmbeddingCache } from '../../src/embedders/batch.js'
import { getLedger, resetLedger } from '../../src/ledger.js'
import { asyncFailureMessage } from '../helpers/model-fakes.js'
import {
  chatRequests,
  clientFor,
  jsonVerdict,
  judgedText,
  section,
  startOpenAIServer,
  type OpenAIServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../helpers/model-server.js'

expect.extend(matchers)

let server: OpenAIServer

const refundDoc = 'Refunds are accepted within 30 days of purchase. Refunds go back to the original payment method.'
const good = 'You can ask for a refund within 30 days.'
const reversed = 'Wait 30 days before you can ask for a refund.'
const offTopic = 'Our store opens at 9am.'

/** Unit vectors at chosen angles, so cosines are known: cos(good, paraphrase) = 0.9, cos(good, offTopic) = 0.1. */
const vectors: Record<string, number[]> = {
  [good]: [1, 0],
  'Refunds can be requested for 30 days.': [0.9, Math.sqrt(1 - 0.81)],
  [offTopic]: [0.1, Math.sqrt(1 - 0.01)],
}

/** The scripted judge: reads the template from the prompt and answers like a careful grader would. */
function carefulJudge(req: RecordedRequest): ScriptedReply {
  if (req.endpoint === 'embeddings') return { embeddings: (req.body.input as string[]).map((t) => vectors[t] ?? [0, 1]) }
  const text = judgedText(req)
  if (section(req, 'reference_answer') !== undefined && req.lastUserText.includes('grading an answer against a reference')) {
    return text === reversed
      ? jsonVerdict(0, 'The answer makes the customer wait 30 days; the reference allows asking within 30 days.')
      : jsonVerdict(1, 'Same facts as the reference.')
  }
  if (req.lastUserText.includes('checking whether a response answers the question')) {
    return text === offTopic ? jsonVerdict(0, 'It gives opening hours, not the refund window.') : jsonVerdict(1, 'It answers the refund question.')
  }
  if (req.lastUserText.includes('fact-checking a response')) {
    const claims = [{ claim: 'Refunds are possible within 30 days.', supported: true, reason: 'stated' }]
    if (text.includes('5 business days'))
      claims.push({ claim: 'The refund arrives within 5 business days.', supported: false, reason: 'no processing time in the context' })
    return { text: JSON.stringify({ claims, reasoning: `${claims.filter((c) => c.supported).length} of ${claims.length} supported.`, score: 1 }) }
  }
  if (req.lastUserText.includes('checking whether a response declines')) {
    return text.startsWith('That is something our team handles') ? jsonVerdict(1, 'It deflects instead of answering.') : jsonVerdict(0, 'It answers.')
  }
  return jsonVerdict(text.toLowerCase().includes('please') ? 1 : 0, 'Politeness check.')
}

beforeAll(async () => {
  server = await startOpenAIServer({ reply: carefulJudge })
})
afterAll(() => server.close())
beforeEach(() => {
  configure({
    // The server is this file's model, called live: its origin would otherwise join the replay hosts.
    replay: { allowedHosts: [server.origin] },
    judge: { client: clientFor(server.baseURL), model: 'judge-model' },
    embedder: { client: clientFor(server.baseURL), model: 'text-embedding-3-small' },
  })
})
afterEach(() => {
  resetConfig()
  clearEmbeddingCache()
  resetLedger()
  server.reset()
  server.setReply(carefulJudge)
})

describe('toBeSemanticallySimilar through the server', () => {
  test('passes for a paraphrase, and its embedding requests reach the server', async () => {
    await expect(good).toBeSemanticallySimilar('Refunds can be requested for 30 days.')
    expect(server.requests.map((r) => r.endpoint)).toEqual(['embeddings'])
  })

  test('fails for unrelated text', async () => {
    const message = await asyncFailureMessage(expect(good).toBeSemanticallySimilar(offTopic))
    expect(message).toContain('Received cosine similarity:    0.1 (text-embedding-3-small)')
  })

  test('.not passes for unrelated text', async () => {
    await expect(good).not.toBeSemanticallySimilar(offTopic)
  })
})

describe('toPassJudge through the server', () => {
  test('passes a correct answer against the reference', async () => {
    await expect(good).toPassJudge({ reference: good })
  })

  test('fails the answer that has every keyword but the wrong meaning', async () => {
    const message = await asyncFailureMessage(expect(reversed).toPassJudge({ reference: good }))
    expect(message).toContain('Received judge score:    0 (FAIL, judge judge-model)')
    expect(message).toContain(`Judge's reasoning: "The answer makes the customer wait 30 days; the reference allows asking within 30 days."`)
  })

  test('.not passes the wrong answer', async () => {
    await expect(reversed).not.toPassJudge({ reference: good })
  })

  test('reports disagreement between samples', async () => {
    server.setReply((_req, index) => jsonVerdict(index % 3 === 0 ? 1 : 0, `sample ${index}`))
    const message = await asyncFailureMessage(expect(good).toPassJudge('Is polite', { samples: 3 }))
    expect(message).toContain('Samples: 3, 1 passed (agreement 67%, majority FAIL); scores 1, 0, 0')
    expect(chatRequests(server.requests)).toHaveLength(3)
  })

  test('fails with the raw reply when the judge answers unreadable text, under .not too', async () => {
    server.setReply(() => ({ text: 'It depends.' }))
    await expect(expect(good).not.toPassJudge('Is polite')).rejects.toThrow('Raw reply: "It depends."')
  })

  test('fails with the server error on a 401', async () => {
    server.setReply(() => ({ status: 401, errorMessage: 'Incorrect API key provided.' }))
    await expect(expect(good).toPassJudge('Is polite')).rejects.toThrow('the server refused the API key (401: Incorrect API key provided.)')
  })

  test('records judge usage in the ledger, apart from embeddings', async () => {
    await expect(good).toPassJudge({ reference: good })
    await expect(good).toBeSemanticallySimilar('Refunds can be requested for 30 days.')
    const ledger = getLedger()
    expect([ledger.byKind.judge.calls, ledger.byKind.embedding.calls]).toEqual([1, 1])
  })
})

describe('toBeRelevantTo through the server', () => {
  test('passes an answer to the question', async () => {
    await expect(good).toBeRelevantTo('How long do I have to ask for a refund?', { context: refundDoc })
  })

  test('fails an off-topic answer', async () => {
    const message = await asyncFailureMessage(expect(offTopic).toBeRelevantTo('How long do I have to ask for a refund?'))
    expect(message).toContain(`Judge's reasoning: "It gives opening hours, not the refund window."`)
  })

  test('.not passes an off-topic answer', async () => {
    await expect(offTopic).not.toBeRelevantTo('How long do I have to ask for a refund?')
  })
})

describe('toBeFaithfulTo through the server', () => {
  test('passes when every claim is supported', async () => {
    await expect(good).toBeFaithfulTo(refundDoc)
  })

  test('fails and lists the unsupported claim', async () => {
    const message = await asyncFailureMessage(expect(`${good} It arrives within 5 business days.`).toBeFaithfulTo(refundDoc))
    expect(message).toContain('Received share of supported claims:    0.5 (judge judge-model)')
    expect(message).toContain('Unsupported claims (1):\n  - "The refund arrives within 5 business days." (no processing time in the context)')
  })

  test('.not passes when a claim is unsupported', async () => {
    await expect(`${good} It arrives within 5 business days.`).not.toBeFaithfulTo(refundDoc)
  })
})

describe('toRefuse through the server', () => {
  test('passes a refusal phrase without any request', async () => {
    await expect('I don’t know the parking fees.').toRefuse({ judge: true })
    expect(server.requests).toHaveLength(0)
  })

  test('passes a refusal in other words found by the judge', async () => {
    await expect('That is something our team handles personally; please reach out to them.').toRefuse({ judge: true })
  })

  test('fails an answer', async () => {
    const message = await asyncFailureMessage(expect(good).toRefuse({ judge: true }))
    expect(message).toContain('Received: no refusal phrase matched; the judge found an answer')
  })

  test('.not passes an answer', async () => {
    await expect(good).not.toRefuse({ judge: true })
  })
})

// Calibration: a judge served by the server that passes any answer containing "refund" and "30 days".
function keywordJudgeServer(req: RecordedRequest): ScriptedReply {
  const text = judgedText(req)
  return jsonVerdict(/refund/i.test(text) && /30 days/i.test(text) ? 1 : 0, 'Mentions a refund and 30 days.')
}

const labelled: CalibrationCase[] = [
  { output: good, label: 'PASS' },
  { output: 'Refunds are possible for 30 days after purchase.', label: 'PASS' },
  { output: 'Within a month of buying you may return it for your money back.', label: 'PASS' },
  { output: reversed, label: 'FAIL' },
  { output: 'No refund is possible, not even within 30 days.', label: 'FAIL' },
  { output: 'We do not offer refunds.', label: 'FAIL' },
  { output: 'Refund requests take 30 days to process, and only store credit is given.', label: 'FAIL' },
  { output: 'Ask us about it.', label: 'FAIL' },
]

describe('calibration through the server', () => {
  test('measures a keyword-fooled judge exactly', async () => {
    server.setReply(keywordJudgeServer)
    const result = await calibrateJudge({ criteria: 'Says refunds can be requested within 30 days' }, labelled)
    // Judge PASS on cases 0, 1, 3, 4, 6; FAIL on 2, 5, 7.
    // truePass 2 (0, 1), falseFail 1 (2), falsePass 3 (3, 4, 6), trueFail 2 (5, 7).
    // p_o = 4/8 = 0.5; p_e = (5/8)(3/8) + (3/8)(5/8) = 30/64; kappa = (32/64 - 30/64) / (34/64) = 2/34 = 1/17.
    expect(result).toMatchObject({ n: 8, agreement: 0.5, truePass: 2, trueFail: 2 })
    expect(result.kappa).toBeCloseTo(1 / 17, 15)
    expect(result.falsePasses.map((c) => c.index)).toEqual([3, 4, 6])
    expect(result.falseFails.map((c) => c.index)).toEqual([2])
    expect(chatRequests(server.requests)).toHaveLength(8)
  })

  test('toAgreeWithLabels fails the keyword-fooled judge', async () => {
    server.setReply(keywordJudgeServer)
    const message = await asyncFailureMessage(expect({ criteria: 'Says refunds can be requested within 30 days' }).toAgreeWithLabels(labelled))
    expect(message).toContain("Received: agreement 0.5 (4 of 8, 50%), Cohen's kappa 0.0588")
    expect(message).toContain('False passes (judge PASS, label FAIL) (3):\n  #3 score 1: "Wait 30 days before you can ask for a refund."')
  })

  test('toAgreeWithLabels passes a judge that reads the meaning', async () => {
    server.setReply((req) => {
      const index = labelled.findIndex((c) => c.output === judgedText(req))
      return jsonVerdict(labelled[index]?.label === 'PASS' ? 1 : 0, 'Reads the condition.')
    })
    await expect({ criteria: 'Says refunds can be requested within 30 days' }).toAgreeWithLabels(labelled)
  })

  test('.not.toAgreeWithLabels passes the keyword-fooled judge', async () => {
    server.setReply(keywordJudgeServer)
    await expect({ criteria: 'Says refunds can be requested within 30 days' }).not.toAgreeWithLabels(labelled)
  })
})
