// A panel of judges from different families (`samples` listing the judges): the majority decides, and
// the message and the golden report show each judge's score and the agreement. End to end against
// local OpenAI-compatible, Anthropic and Gemini servers, recorded and replayed with them stopped.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Anthropic from '@anthropic-ai/sdk'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import * as matchers from '../../matchers/index.js'
import { resetConfig } from '../../src/config.js'
import { failWith } from '../../src/errors.js'
import { prepareJudgeCall, runJudge } from '../../src/judges/run.js'
import type { JudgeLike, JudgeOptions, JudgeRequest } from '../../src/judges/types.js'
import { getLedger, resetLedger } from '../../src/ledger.js'
import { GoldenSuite } from '../../src/golden/suite.js'
import { validateCases } from '../../src/golden/dataset.js'
import { startGoogleServer } from '../helpers/google-server.js'
import { asyncFailureMessage } from '../helpers/model-fakes.js'
import { jsonVerdict, startOpenAIServer } from '../helpers/model-server.js'
import { callLocalServersLive, recordThenReplay } from '../helpers/record-then-replay.js'

// These tests call local servers live (the record/replay ones set their hosts explicitly).
callLocalServersLive()

expect.extend(matchers)

const answer = 'Refunds are possible within 30 days, and we also refund shipping.'
const reference = 'You can ask for a refund within 30 days of purchase.'
const fail = failWith('run the judge')
const dir = mkdtempSync(join(tmpdir(), 'expect-llm-panel-'))

afterEach(() => {
  vi.unstubAllEnvs()
  resetConfig()
  resetLedger()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A plain-function judge with a fixed verdict and name (its function name). */
function named(name: string, score: number): JudgeLike {
  const judges: Record<string, (r: JudgeRequest) => { score: number; reason: string }> = { [name]: () => ({ score, reason: `${name} says ${score}.` }) }
  return judges[name]!
}

describe('prepareJudgeCall with a list of judges', () => {
  test('resolves each judge, one sample each', () => {
    const call = prepareJudgeCall({ reference, samples: [named('a', 1), named('b', 0), named('c', 1)] }, answer, {}, fail)
    expect(call).toMatchObject({ samples: 3, panel: true })
    expect(call.judges.map((j) => j.name)).toEqual(['a', 'b', 'c'])
  })

  test('names the entry that is not a judge', () => {
    expect(() => prepareJudgeCall({ reference, samples: [named('a', 1), 42] }, answer, {}, fail)).toThrow(
      '[expect-llm] Failed to run the judge: samples[1]: the judge must be a Judge, a function or judge settings, got a number (42).',
    )
  })

  test('refuses a judge next to the list, and an empty list', () => {
    expect(() => prepareJudgeCall({ reference, judge: named('a', 1), samples: [named('b', 1)] }, answer, {}, fail)).toThrow(
      '"judge" and a list of judges in "samples" cannot be combined. List every judge in samples, or pass one judge with samples: n.',
    )
    expect(() => prepareJudgeCall({ reference, samples: [] }, answer, {}, fail)).toThrow('"samples" must list 1 to 25 judges, got 0.')
  })
})

describe('the verdict of a panel', () => {
  test('is the majority, with every vote and the agreement', async () => {
    const verdict = await runJudge(prepareJudgeCall({ reference, samples: [named('a', 1), named('b', 0), named('c', 1)] }, answer, {}, fail))
    expect(verdict).toMatchObject({ pass: true, passes: 2, judgeName: 'a + b + c' })
    expect(verdict.agreement).toBeCloseTo(2 / 3, 12)
    expect(verdict.panel).toEqual([
      { judge: 'a', score: 1, scaleValue: 1, pass: true },
      { judge: 'b', score: 0, scaleValue: 0, pass: false },
      { judge: 'c', score: 1, scaleValue: 1, pass: true },
    ])
  })

  test("fails on a tie, and the message says so with each judge's score", async () => {
    const message = await asyncFailureMessage(expect(answer).toPassJudge({ reference, samples: [named('gpt-4.1-mini', 1), named('claude-haiku-4-5', 0)] }))
    expect(message).toMatchInlineSnapshot(`
      "expect(output).toPassJudge(spec)

      Expected judge score: >= 0.7
      Received judge score:    0.5 (mean of 2 judges)
      Judges: 2, 1 passed (agreement 50%, majority FAIL, a tie fails)
        gpt-4.1-mini: 1 (PASS)
        claude-haiku-4-5: 0 (FAIL)

      Judge's reasoning: "claude-haiku-4-5 says 0."

      Template:  correctness
      Reference: "You can ask for a refund within 30 days of purchase."
      Output:    "Refunds are possible within 30 days, and we also refund shipping.""
    `)
  })

  test('shows each vote on the scale for a graded panel', async () => {
    const message = await asyncFailureMessage(
      expect(answer).toPassJudge({ criteria: 'Is accurate', scale: '1-5', samples: [named('a', 4), named('b', 2), named('c', 3)] }),
    )
    expect(message).toContain(
      'Judges: 3, 1 passed (agreement 67%, majority FAIL)\n  a: 0.75 (4 on 1-5, PASS)\n  b: 0.25 (2 on 1-5, FAIL)\n  c: 0.5 (3 on 1-5, FAIL)',
    )
  })
})

describe('a panel of three families against local servers', () => {
  /** An OpenAI judge that passes it, a Claude that fails it, a Gemini that passes it. */
  async function servers() {
    const openai = await startOpenAIServer({ reply: () => jsonVerdict(1, 'States the 30-day window.') })
    const anthropic = await startOpenAIServer({
      reply: () => ({ text: JSON.stringify({ reasoning: 'Adds a shipping refund the reference does not promise.', score: 0 }) }),
    })
    const google = await startGoogleServer(() => ({ text: JSON.stringify({ reasoning: 'Same window as the reference.', score: 1 }) }))
    const panel = (): JudgeLike[] => [
      { baseURL: openai.baseURL, apiKey: 'local-test-key', model: 'gpt-4.1-mini', maxRetries: 0 } satisfies JudgeOptions,
      { client: new Anthropic({ baseURL: anthropic.origin, apiKey: 'local-test-key', maxRetries: 0 }), model: 'claude-haiku-4-5' },
      { model: createGoogleGenerativeAI({ baseURL: google.baseURL, apiKey: 'local-test-key' })('gemini-2.5-flash'), maxRetries: 0 },
    ]
    const close = async () => {
      await Promise.all([openai.close(), anthropic.close(), google.close()])
    }
    return { origins: [openai.origin, anthropic.origin, google.origin], panel, close }
  }

  test("passes by majority; .not fails with each judge's score and the agreement", async () => {
    const { panel, close } = await servers()
    try {
      await expect(answer).toPassJudge({ reference, samples: panel() })
      const message = await asyncFailureMessage(expect(answer).not.toPassJudge({ reference, samples: panel() }))
      expect(message).toMatch(/Received judge score: +0\.6667 \(mean of 3 judges\)/)
      expect(message).toContain('Judges: 3, 2 passed (agreement 67%, majority PASS)')
      expect(message).toContain('  gpt-4.1-mini: 1 (PASS)')
      expect(message).toContain('  claude-haiku-4-5: 0 (FAIL)')
      expect(message).toContain('  gemini-2.5-flash: 1 (PASS)')
      expect(getLedger().byKind.judge.calls).toBe(6)
    } finally {
      await close()
    }
  })

  test('records all three providers and replays them with the servers stopped', async () => {
    const { origins, panel, close } = await servers()
    const { recorded, replayed, fixtures } = await recordThenReplay(origins, close, async () => {
      const verdict = await runJudge(prepareJudgeCall({ reference, samples: panel() }, answer, {}, fail))
      return verdict.panel?.map((v) => [v.judge, v.score])
    })
    expect(recorded).toEqual([
      ['gpt-4.1-mini', 1],
      ['claude-haiku-4-5', 0],
      ['gemini-2.5-flash', 1],
    ])
    expect(replayed).toEqual(recorded)
    expect(fixtures.map((f) => f.meta.endpoint).sort()).toEqual(['chat-completions', 'messages', 'models-gemini-2_5-flash_generatecontent'])
  })

  test("the golden report keeps each judge's score and the agreement", async () => {
    const { panel, close } = await servers()
    try {
      const cases = [{ id: 'refund', input: 'How long do I have?', expected: reference }]
      const suite = new GoldenSuite('panel', {
        dataset: cases,
        task: () => answer,
        scorers: { judge: { samples: panel() } },
        report: { dir: join(dir, 'reports'), console: false },
      })
      suite.setCases(validateCases(cases))
      await suite.runCase(suite.cases[0]!)
      const outcome = suite.finish({ runner: 'vitest', testPath: join(dir, 'panel.test.ts'), updateMode: 'new' })
      const judge = outcome.report.cases[0]?.scores.judge
      expect(judge).toMatchObject({
        pass: true,
        judges: [
          { judge: 'gpt-4.1-mini', score: 1, pass: true },
          { judge: 'claude-haiku-4-5', score: 0, pass: false },
          { judge: 'gemini-2.5-flash', score: 1, pass: true },
        ],
      })
      expect(judge?.agreement).toBeCloseTo(2 / 3, 12)
      expect(judge?.detail).toBe('States the 30-day window. (judges: gpt-4.1-mini 1, claude-haiku-4-5 0, gemini-2.5-flash 1; agreement 67%)')
    } finally {
      await close()
    }
  })
})
