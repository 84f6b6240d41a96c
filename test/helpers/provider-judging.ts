/**
 * What the provider judge tests share: the answers under test, a grader that scripts a server's verdict
 * from the judge prompt, a one-call verdict helper, and the hooks that isolate each test (notices spied
 * on, config, ledger and env stubs reset).
 */
import { afterEach, beforeEach, vi, type MockInstance } from 'vitest'
import { resetConfig } from '../../src/config.js'
import { resetFallbackNotices } from '../../src/judges/capabilities.js'
import { failWith } from '../../src/errors.js'
import { prepareJudgeCall, runJudge, type JudgeVerdict } from '../../src/judges/run.js'
import type { JudgeLike } from '../../src/judges/types.js'
import { resetLedger } from '../../src/ledger.js'
import { callLocalServersLive } from './record-then-replay.js'

/** The right answer: the judge passes it. */
export const good = 'You can ask for a refund within 30 days.'
/** The answer with the right words and the reversed condition: the judge fails it. */
export const wrong = 'Wait 30 days before you can ask for a refund.'
export const reference = 'Refunds can be requested within 30 days of purchase.'
/** A fake Anthropic key, assembled at run time so that secret scanners do not flag the repository. */
export const fakeAnthropicKey = ['sk', 'ant', 'api03', 'local0test0key0not0real0000'].join('-')

/** The verdict a scripted server gives for the answer in a judge prompt. */
export function gradedVerdict(prompt: string): { reasoning: string; score: number } {
  return prompt.includes(`<answer>\n${good}\n</answer>`)
    ? { reasoning: 'Same facts as the reference.', score: 1 }
    : { reasoning: 'Reverses the condition.', score: 0 }
}

/** The same verdict as JSON text, as a model would reply. */
export function graded(prompt: string): string {
  return JSON.stringify(gradedVerdict(prompt))
}

/** Runs one correctness judge call on `output` against {@link reference}. */
export function verdictOf(judge: JudgeLike, output = good): Promise<JudgeVerdict> {
  return runJudge(prepareJudgeCall({ reference, judge }, output, {}, failWith('run the judge')))
}

/** Registers the isolation hooks; read `warn` inside tests (it changes per test). */
export function useProviderTestHooks(): { readonly warn: MockInstance } {
  let warn: MockInstance
  callLocalServersLive()
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    resetFallbackNotices()
    // Also before: under the mutation run's shared module graph (isolate: false) a test file that does not
    // reset the ledger leaves its calls in it, and the counts asserted here would include them.
    resetLedger()
  })
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.restoreAllMocks()
    resetConfig()
    resetLedger()
  })
  return {
    get warn() {
      return warn
    },
  }
}
