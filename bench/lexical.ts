// Lexical metric benchmarks (issue 2):
//  - ROUGE-L on pairs of 20, 200 and 2,000 tokens: expect-llm's rougeL() against a baseline that
//    uses the same tokenizer and a textbook O(n·m) dynamic-programming LCS (written here, as the
//    issue asks), so the ratio isolates the LCS algorithm.
//  - tokenF1, BLEU and editSimilarity throughput over the public reference pairs.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { rougeL, rougeTokenize } from '../src/metrics/rouge.js'
import { tokenF1 } from '../src/metrics/squad.js'
import { bleu } from '../src/metrics/bleu.js'
import { editSimilarity } from '../src/metrics/edit.js'
import { fmtNum, measure, printTable, prng } from './harness.js'

/** Textbook LCS: the full (n+1)×(m+1) table, as in any algorithms course. */
function textbookLcs(a: string[], b: string[]): number {
  const n = a.length
  const m = b.length
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0))
  for (let i = 1; i <= n; i++) {
    const row = table[i]!
    const prev = table[i - 1]!
    for (let j = 1; j <= m; j++) {
      row[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!)
    }
  }
  return table[n]![m]!
}

function baselineRougeL(candidate: string, reference: string): number {
  const c = rougeTokenize(candidate)
  const r = rougeTokenize(reference)
  if (c.length === 0 || r.length === 0) return 0
  const lcs = textbookLcs(r, c)
  const p = lcs / c.length
  const rec = lcs / r.length
  return p + rec === 0 ? 0 : (2 * p * rec) / (p + rec)
}

function makePair(tokens: number, seed: number): [string, string] {
  const rand = prng(seed)
  const vocab = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x`)
  const reference = Array.from({ length: tokens }, () => vocab[Math.floor(rand() * vocab.length)]!)
  // The candidate keeps ~70% of the reference, replaces some words and inserts others: a realistic
  // paraphrase-like edit pattern, so the LCS is long but not trivial.
  const candidate: string[] = []
  for (const word of reference) {
    const r = rand()
    if (r < 0.7) candidate.push(word)
    else if (r < 0.85) candidate.push(vocab[Math.floor(rand() * vocab.length)]!)
    else if (r < 0.95) candidate.push(word, vocab[Math.floor(rand() * vocab.length)]!)
  }
  return [candidate.join(' '), reference.join(' ')]
}

export async function run(): Promise<void> {
  const rows: Array<Record<string, string>> = []
  for (const size of [20, 200, 2000]) {
    const [candidate, reference] = makePair(size, size)
    const ours = rougeL(candidate, reference).f
    const base = baselineRougeL(candidate, reference)
    if (Math.abs(ours - base) > 1e-12) throw new Error(`ROUGE-L disagreement at ${size} tokens: ${ours} vs ${base}`)
    const m = await measure({ baseline: () => baselineRougeL(candidate, reference), ours: () => rougeL(candidate, reference) }, size >= 2000 ? 1500 : 400)
    rows.push({
      tokens: String(size),
      'baseline (textbook DP)': `${fmtNum(m.baseline!.medianMs * 1000)} µs`,
      'expect-llm rougeL': `${fmtNum(m.ours!.medianMs * 1000)} µs`,
      speedup: `${fmtNum(m.baseline!.medianMs / m.ours!.medianMs)}x`,
    })
  }
  printTable('ROUGE-L: expect-llm vs textbook O(n·m) LCS (same tokenizer, median per pair)', rows)

  const root = fileURLToPath(new URL('..', import.meta.url))
  const pairs = readFileSync(`${root}/fixtures/reference/metrics-public.jsonl`, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { candidate: string; reference: string })
  const overAll = (fn: (c: string, r: string) => number) => () => {
    let s = 0
    for (const p of pairs) s += fn(p.candidate, p.reference)
    return s
  }
  const m = await measure({ tokenF1: overAll(tokenF1), bleu: overAll(bleu), editSimilarity: overAll(editSimilarity), rougeL: overAll((c, r) => rougeL(c, r).f) })
  printTable(
    `Throughput over the ${pairs.length} public reference pairs (median per pass over all pairs)`,
    Object.values(m).map((x) => ({ metric: x.name, 'per pass': `${fmtNum(x.medianMs * 1000)} µs`, 'pairs / s': fmtNum((pairs.length * 1000) / x.medianMs) })),
  )
}
