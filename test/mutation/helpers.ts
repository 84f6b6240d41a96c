// Shared by the mutation operator tests: sources from plain texts, one operator run on one text, and the
// golden sets the property tests use.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { seededRandom } from '../../src/golden/stats.js'
import type { GoldenCase } from '../../src/golden/types.js'
import type { Mutant, MutationOperator, MutationSource } from '../../src/mutation/types.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

export function source(text: string, id = 'case', input = 'What is the answer?', unanswerable = false): MutationSource {
  return { id, text, input, unanswerable }
}

/** The mutants `operator` makes of `text` (alone in its dataset unless `others` are given). */
export function mutate(operator: MutationOperator, text: string, others: MutationSource[] = [], seed = 1, input?: string): Mutant[] {
  const s = source(text, 'case', input)
  return operator.mutate({ source: s, dataset: [s, ...others], random: seededRandom(seed) })
}

export const texts = (mutants: readonly Mutant[]) => mutants.map((m) => m.text)

/** The support-bot golden set (examples/support-bot/golden/support-bot.jsonl), as golden cases. */
export function supportBotCases(): GoldenCase[] {
  return readFileSync(`${root}examples/support-bot/golden/support-bot.jsonl`, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as GoldenCase)
}

/** The support-bot golden set as sources (unanswerable cases have an empty text). */
export function supportBotSources(): MutationSource[] {
  return supportBotCases().map((c) => ({
    id: c.id as string,
    input: c.input as string,
    text: typeof c.expected === 'string' ? c.expected : '',
    unanswerable: c.answerable === false,
  }))
}

/** The distinct non-empty references of fixtures/reference/metrics-public.jsonl as sources. */
export function referenceSources(): MutationSource[] {
  const seen = new Set<string>()
  const out: MutationSource[] = []
  for (const line of readFileSync(`${root}fixtures/reference/metrics-public.jsonl`, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const pair = JSON.parse(line) as { id: string; reference: string }
    if (pair.reference.trim() === '' || seen.has(pair.reference)) continue
    seen.add(pair.reference)
    out.push({ id: pair.id, text: pair.reference, input: '', unanswerable: false })
  }
  return out
}
