// Shared benchmark helpers. Figures are ratios of medians measured in the same process and the same
// run, never absolute timings compared with a constant.
import { Bench } from 'tinybench'

export interface Measured {
  name: string
  /** Median time per call in milliseconds. */
  medianMs: number
  /** Calls per second at the median. */
  opsPerSec: number
  samples: number
}

/**
 * Runs each function for about `timeMs` after a warm-up and returns its median latency. tinybench also
 * runs at least `iterations` calls (its default, 64); pass fewer for functions that take seconds.
 */
export async function measure(fns: Record<string, () => unknown>, timeMs = 400, iterations?: number): Promise<Record<string, Measured>> {
  const bench = new Bench({ time: timeMs, warmupTime: 100, ...(iterations === undefined ? {} : { iterations, warmupIterations: 1 }) })
  for (const [name, fn] of Object.entries(fns)) bench.add(name, fn)
  await bench.run()
  const out: Record<string, Measured> = {}
  for (const task of bench.tasks) {
    const result = task.result
    if (result.state !== 'completed')
      throw new Error(`benchmark task ${task.name} did not complete: ${result.state === 'errored' ? result.error.message : result.state}`)
    const median = result.latency.p50 ?? result.latency.mean
    out[task.name] = { name: task.name, medianMs: median, opsPerSec: 1000 / median, samples: result.latency.samplesCount }
  }
  return out
}

/** A deterministic PRNG, so every run benchmarks the same inputs (the one the bootstrap uses). */
export { seededRandom as prng } from '../src/golden/stats.js'
import { seededRandom } from '../src/golden/stats.js'

/**
 * A reference of `tokens` words over a 400-word vocabulary and a candidate that keeps ~70% of it,
 * replaces some words and inserts others: a paraphrase-like edit pattern, so overlaps are large but
 * not trivial. Deterministic for a seed. Returns [candidate words, reference words].
 */
export function makePair(tokens: number, seed: number): [string[], string[]] {
  const rand = seededRandom(seed)
  const vocab = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x`)
  const reference = Array.from({ length: tokens }, () => vocab[Math.floor(rand() * vocab.length)]!)
  const candidate: string[] = []
  for (const word of reference) {
    const r = rand()
    if (r < 0.7) candidate.push(word)
    else if (r < 0.85) candidate.push(vocab[Math.floor(rand() * vocab.length)]!)
    else if (r < 0.95) candidate.push(word, vocab[Math.floor(rand() * vocab.length)]!)
  }
  return [candidate, reference]
}

export function fmtNum(n: number, digits = 3): string {
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toPrecision(digits)
}

export function printTable(title: string, rows: Array<Record<string, string>>): void {
  console.log(`\n${title}`)
  const cols = Object.keys(rows[0] ?? {})
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)))
  console.log(cols.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  '))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const r of rows) console.log(cols.map((c, i) => (r[c] ?? '').padEnd(widths[i] ?? 0)).join('  '))
}
