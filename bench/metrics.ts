// Benchmarks of the metrics added by issue 18, each against a straightforward implementation in the
// same run (bench/naive-metrics.ts: the same results, written as directly as the Python):
//  - chrF on 20-, 200- and 2,000-word pairs (character n-gram counting);
//  - TER on the same pairs (Tercom's shift search within sacrebleu's bounds: the straightforward
//    version recomputes the whole banded table for every shift candidate), and the absolute time of
//    one 2,000-token pair, which must stay well under a second;
//  - GLEU on the same pairs.
import { chrF } from '../src/metrics/chrf.js'
import { gleu } from '../src/metrics/gleu.js'
import { ter } from '../src/metrics/ter.js'
import { fmtNum, makePair, measure, printTable } from './harness.js'
import { naiveChrF, naiveGleu, naiveTer } from './naive-metrics.js'

/** A paraphrase-like pair (see `makePair`) with one block of up to 8 words moved: what TER's shifts are for. */
function makeShiftedPair(tokens: number, seed: number): [string, string] {
  const [candidate, reference] = makePair(tokens, seed)
  const at = Math.floor(candidate.length / 3)
  const block = candidate.splice(at, Math.min(8, Math.floor(candidate.length / 4)))
  candidate.splice(Math.min(candidate.length, at + Math.floor(tokens / 10) + 1), 0, ...block)
  return [candidate.join(' '), reference.join(' ')]
}

export async function run(): Promise<void> {
  const rows: Array<Record<string, string>> = []
  let ter2000Ms = 0
  for (const size of [20, 200, 2000]) {
    const [candidate, reference] = makeShiftedPair(size, size + 1)
    const checks: Array<[string, () => number, () => number]> = [
      ['chrF', () => chrF(candidate, reference), () => naiveChrF(candidate, [reference])],
      ['TER', () => ter(candidate, reference), () => naiveTer(candidate, reference)],
      ['GLEU', () => gleu(candidate, reference), () => naiveGleu(candidate, reference)],
    ]
    for (const [name, ours, naive] of checks) {
      if (Math.abs(ours() - naive()) > 1e-12) throw new Error(`${name} disagrees with the straightforward version at ${size} tokens: ${ours()} vs ${naive()}`)
      const m = await measure({ baseline: naive, ours }, size >= 2000 ? 1000 : 300, size >= 2000 ? 2 : undefined)
      if (name === 'TER' && size === 2000) ter2000Ms = m.ours!.medianMs
      rows.push({
        metric: name,
        tokens: String(size),
        straightforward: `${fmtNum(m.baseline!.medianMs * 1000)} µs`,
        'expect-llm': `${fmtNum(m.ours!.medianMs * 1000)} µs`,
        speedup: `${fmtNum(m.baseline!.medianMs / m.ours!.medianMs)}x`,
      })
    }
  }
  printTable('chrF, TER and GLEU: expect-llm vs a straightforward implementation with the same results (median per pair)', rows)
  console.log(
    `\nTER on one 2,000-token pair: ${fmtNum(ter2000Ms)} ms (median; sacrebleu's bounds: shifts of <= 10 words over <= 50 positions, beam 25, <= 1,000 candidates)`,
  )
}
