/**
 * Fakes for model-backed matcher tests: judges and embedders with scripted answers and a call log,
 * plus an async variant of `failureMessage` for matchers that return a Promise.
 */
import { stripVTControlCharacters } from 'node:util'
import type { Judge, JudgeRequest, JudgeResult, JudgeScale } from '../../src/judges/types.js'
import { normalizeScore } from '../../src/judges/parse.js'

/** Awaits an assertion that must reject and returns its message with colours stripped. */
export async function asyncFailureMessage(assertion: Promise<unknown>): Promise<string> {
  try {
    await assertion
  } catch (error) {
    if (!(error instanceof Error)) throw new Error(`Expected the assertion to reject with an Error, got ${String(error)}`)
    return stripVTControlCharacters(error.message)
  }
  throw new Error('Expected the assertion to fail, but it passed.')
}

/** A judge that answers every request with the same value on the request's scale. */
export function fixedJudge(scaleValue: number, reason = 'Scripted verdict.', extra: Partial<JudgeResult> = {}): Judge & { requests: JudgeRequest[] } {
  const requests: JudgeRequest[] = []
  return {
    name: 'fake-judge',
    requests,
    async evaluate(request) {
      requests.push(request)
      return { score: normalizeScore(scaleValue, request.scale), scaleValue, reason, raw: '', model: 'fake-judge', ...extra }
    },
  }
}

/** A judge whose n-th sample answers `values[n]` (on the scale). */
export function sampledJudge(values: number[], scale: JudgeScale = 'binary'): Judge {
  return {
    name: 'fake-judge',
    async evaluate(request) {
      const v = values[request.sample] ?? 0
      return { score: normalizeScore(v, scale), scaleValue: v, reason: `Sample ${request.sample} says ${v}.`, raw: '', model: 'fake-judge' }
    },
  }
}

/** An embedder from a fixed table of vectors; unknown texts throw. Logs each batch. */
export function tableEmbedder(table: Record<string, number[]>): { name: string; batches: string[][]; embed: (texts: string[]) => Promise<number[][]> } {
  const batches: string[][] = []
  return {
    name: 'table-embedder',
    batches,
    async embed(texts) {
      batches.push([...texts])
      return texts.map((t) => {
        const v = table[t]
        if (!v) throw new Error(`no vector for ${JSON.stringify(t)}`)
        return v
      })
    },
  }
}
