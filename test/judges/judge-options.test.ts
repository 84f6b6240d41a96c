// The judge options of the second wave: a template sent verbatim, {query}/{response} aliases, the lenient
// parse, maxTokens on the OpenAI judge, and refusal detection that asks the judge first. The OpenAI judge
// runs through the real openai SDK against a local server on 127.0.0.1.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { configure, resetConfig } from '../../src/config.js'
import { openAIJudge, type OpenAIJudgeOptions } from '../../src/judges/openai.js'
import { failWith } from '../../src/errors.js'
import { prepareJudgeCall, runJudge } from '../../src/judges/run.js'
import type { JudgeSpec } from '../../src/judges/types.js'
import { planScorers, runScorer } from '../../src/golden/scorers.js'
import { chatRequests, clientFor, startOpenAIServer, type OpenAIServer } from '../helpers/model-server.js'

let server: OpenAIServer
beforeAll(async () => {
  server = await startOpenAIServer()
  configure({ replay: { allowedHosts: [server.origin] } })
})
afterAll(async () => {
  resetConfig()
  await server.close()
})
afterEach(() => server.reset())

const judgeWith = (options: OpenAIJudgeOptions = {}) => openAIJudge({ model: 'judge-model', client: clientFor(server.baseURL, { maxRetries: 0 }), ...options })
const verdictOf = (spec: JudgeSpec, output = 'Paris is the capital of France.') => runJudge(prepareJudgeCall(spec, output, {}, failWith('run the judge')))

// The prompt of a fact-checking model (MiniCheck style): it expects exactly this and answers Yes or No.
const MINICHECK = 'Document: {context}\nClaim: {response}'

describe('verbatim templates', () => {
  test('the template alone is the conversation: no system prompt, no JSON suffix, no response_format', async () => {
    server.setReply(() => ({ text: 'Yes' }))
    const v = await verdictOf({ template: MINICHECK, context: 'Paris is the capital and largest city of France.', verbatim: true, judge: judgeWith() })
    const body = chatRequests(server.requests)[0]?.body
    expect(body.messages).toEqual([
      { role: 'user', content: 'Document: Paris is the capital and largest city of France.\nClaim: Paris is the capital of France.' },
    ])
    expect(body.response_format).toBeUndefined()
    expect(v).toMatchObject({ pass: true, score: 1 })
  })

  test('a "No" fails', async () => {
    server.setReply(() => ({ text: 'No' }))
    expect(await verdictOf({ template: MINICHECK, context: 'Lyon is in France.', verbatim: true, judge: judgeWith() })).toMatchObject({ pass: false, score: 0 })
  })

  test('without verbatim the same template gets the system prompt and the reply format', async () => {
    server.setReply(() => ({ text: '{"reasoning": "ok", "score": 1}' }))
    await verdictOf({ template: MINICHECK, context: 'doc', judge: judgeWith() })
    const body = chatRequests(server.requests)[0]?.body
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user'])
    expect(body.messages[1].content).toContain('Reply with only a JSON object')
  })

  test('verbatim with a built-in template is a usage error', () => {
    expect(() => prepareJudgeCall({ criteria: 'x', template: 'rubric', verbatim: true }, 'o', {}, failWith('run the judge'))).toThrow(
      '"verbatim" sends a custom template as written, but "rubric" is a built-in template',
    )
  })
})

describe('placeholder aliases', () => {
  test('{query} is {input} and {response} is {output}', async () => {
    let prompt = ''
    await verdictOf({ template: 'Q: {query}\nA: {response}', input: 'Capital of France?', judge: (req) => ((prompt = req.prompt), 1) })
    expect(prompt.startsWith('Q: Capital of France?\nA: Paris is the capital of France.\n\n')).toBe(true)
  })

  test('{query} without an input is reported as {input}', () => {
    expect(() => prepareJudgeCall({ template: 'Q: {query} A: {response}' }, 'o', {}, failWith('run the judge'))).toThrow(
      'the template uses {input} but no input was given',
    )
  })
})

describe('lenient parse', () => {
  test('a reply with no score scores the bottom of the scale, the reply its reason', async () => {
    server.setReply(() => ({ text: 'I cannot grade this.' }))
    const v = await verdictOf({ criteria: 'Is correct', lenient: true, judge: judgeWith({ structuredOutput: false }) })
    expect(v).toMatchObject({ pass: false, score: 0, reason: 'no score in the reply (lenient: scored 0): I cannot grade this.' })
  })

  test('without it the same reply is an error, never a pass', async () => {
    server.setReply(() => ({ text: 'I cannot grade this.' }))
    await expect(verdictOf({ criteria: 'Is correct', judge: judgeWith({ structuredOutput: false }) })).rejects.toThrow("Failed to read the judge's reply")
  })

  test('on 1-5 the bottom is 1', async () => {
    server.setReply(() => ({ text: '...' }))
    const v = await verdictOf({ criteria: 'Is correct', scale: '1-5', lenient: true, judge: judgeWith({ structuredOutput: false }) })
    expect(v.results[0]).toMatchObject({ score: 0, scaleValue: 1 })
  })
})

describe('maxTokens', () => {
  test('an OpenAI-compatible server gets max_tokens', async () => {
    server.setReply(() => ({ text: '{"reasoning": "ok", "score": 1}' }))
    await verdictOf({ criteria: 'Is correct', judge: judgeWith({ maxTokens: 64 }) })
    const body = chatRequests(server.requests)[0]?.body
    expect([body.max_tokens, body.max_completion_tokens]).toEqual([64, undefined])
  })

  test('without it no limit is sent', async () => {
    server.setReply(() => ({ text: '{"reasoning": "ok", "score": 1}' }))
    await verdictOf({ criteria: 'Is correct', judge: judgeWith() })
    const body = chatRequests(server.requests)[0]?.body
    expect([body.max_tokens, body.max_completion_tokens]).toEqual([undefined, undefined])
  })
})

describe('refusal: the judge first', () => {
  const run = (options: Record<string, unknown>, output: string) => {
    const [plan] = planScorers({ refusal: options as never })
    return runScorer(plan!, { output, c: { id: 'paypal', input: 'Do you accept PayPal?' }, inputText: 'Do you accept PayPal?' }, {})
  }
  const answer = 'No, the context does not mention PayPal, so we only take cards.'

  test('a phrase rule alone takes "No, the context does not mention PayPal" for a refusal', async () => {
    expect(await run({}, answer)).toMatchObject({ score: 0, pass: false, detail: expect.stringContaining('refused an answerable question; refused (rule') })
  })

  test('with judgeFirst the judge decides: an answer', async () => {
    const judge = () => ({ score: false, reason: 'It answers: PayPal is not accepted.' })
    expect(await run({ judge, judgeFirst: true }, answer)).toMatchObject({ score: 1, pass: true })
  })

  test('judgeFirst without a judge is a usage error', () => {
    expect(() => planScorers({ refusal: { judgeFirst: true } })).toThrow('refusal.judgeFirst needs a judge')
  })
})
