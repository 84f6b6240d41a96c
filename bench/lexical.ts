// Lexical metric benchmarks (issues 2, 11 and 17):
//  - ROUGE-L on pairs of 20, 200 and 2,000 tokens: expect-llm's rougeL() against the fair baseline,
//    the same tokenizer followed by a two-row typed-array O(n·m) dynamic program over token ids
//    (the strongest simple implementation), so the ratio isolates the LCS algorithm and its setup.
//  - Tokenizer throughput (characters per microsecond) of the ROUGE, SQuAD and BLEU (13a) tokenizers,
//    before (the regex chains of bench/tokenizers-before.ts) and after issue 11, on the same texts.
//  - tokenF1, BLEU and editSimilarity throughput over the public reference pairs.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { rougeL, rougeTokenize } from '../src/metrics/rouge.js'
import { squadTokens, tokenF1 } from '../src/metrics/squad.js'
import { bleu, tokenize13a } from '../src/metrics/bleu.js'
import { editSimilarity } from '../src/metrics/edit.js'
import { fmtNum, makePair, measure, printTable } from './harness.js'
import { rougeScoreTokensBefore, rougeUnicodeTokensBefore, squadTokensBefore, tokenize13aBefore } from './tokenizers-before.js'

/** Two-row LCS over token ids in Int32Arrays: O(n·m) time, O(m) memory. */
function twoRowLcs(a: Int32Array, b: Int32Array): number {
  const m = b.length
  let previous = new Int32Array(m + 1)
  let current = new Int32Array(m + 1)
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!
    for (let j = 1; j <= m; j++) {
      current[j] = x === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!)
    }
    const swap = previous
    previous = current
    current = swap
  }
  return previous[m]!
}

function baselineRougeL(candidate: string, reference: string): number {
  const c = rougeTokenize(candidate)
  const r = rougeTokenize(reference)
  if (c.length === 0 || r.length === 0) return 0
  const ids = new Map<string, number>()
  const encode = (tokens: string[]) =>
    Int32Array.from(tokens, (t) => {
      let id = ids.get(t)
      if (id === undefined) ids.set(t, (id = ids.size))
      return id
    })
  const lcs = twoRowLcs(encode(r), encode(c))
  const p = lcs / c.length
  const rec = lcs / r.length
  return p + rec === 0 ? 0 : (2 * p * rec) / (p + rec)
}

export async function run(): Promise<void> {
  const rows: Array<Record<string, string>> = []
  for (const size of [20, 200, 2000]) {
    const [candidate, reference] = makePair(size, size).map((words) => words.join(' ')) as [string, string]
    const ours = rougeL(candidate, reference).f
    const base = baselineRougeL(candidate, reference)
    if (Math.abs(ours - base) > 1e-12) throw new Error(`ROUGE-L disagreement at ${size} tokens: ${ours} vs ${base}`)
    const m = await measure({ baseline: () => baselineRougeL(candidate, reference), ours: () => rougeL(candidate, reference) }, size >= 2000 ? 1500 : 400)
    rows.push({
      tokens: String(size),
      'baseline (two-row DP)': `${fmtNum(m.baseline!.medianMs * 1000)} µs`,
      'expect-llm rougeL': `${fmtNum(m.ours!.medianMs * 1000)} µs`,
      'rougeL speed / baseline': `${fmtNum(m.baseline!.medianMs / m.ours!.medianMs)}x`,
    })
  }
  printTable('ROUGE-L: expect-llm vs a two-row typed-array O(n·m) LCS over token ids (same tokens, median per pair)', rows)

  const root = fileURLToPath(new URL('..', import.meta.url))
  const pairs = readFileSync(`${root}/fixtures/reference/metrics-public.jsonl`, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { candidate: string; reference: string })
  const texts = pairs.flatMap((p) => [p.candidate, p.reference])
  const chars = texts.reduce((sum, t) => sum + t.length, 0)
  const tokenizers: Array<[string, (t: string) => string[], (t: string) => string[]]> = [
    ["ROUGE ('unicode')", (t) => rougeUnicodeTokensBefore(t), (t) => rougeTokenize(t)],
    ["ROUGE ('rouge-score')", (t) => rougeScoreTokensBefore(t), (t) => rougeTokenize(t, { tokenizer: 'rouge-score' })],
    ['SQuAD', squadTokensBefore, squadTokens],
    ['BLEU 13a', tokenize13aBefore, tokenize13a],
  ]
  const tokenizerRows: Array<Record<string, string>> = []
  for (const [name, before, after] of tokenizers) {
    for (const t of texts) {
      if (JSON.stringify(before(t)) !== JSON.stringify(after(t))) throw new Error(`${name} tokenizer changed its output on ${JSON.stringify(t)}`)
    }
    const passOver = (fn: (t: string) => string[]) => () => {
      let n = 0
      for (const t of texts) n += fn(t).length
      return n
    }
    const t = await measure({ before: passOver(before), after: passOver(after) })
    const rate = (ms: number) => chars / (ms * 1000)
    tokenizerRows.push({
      tokenizer: name,
      'before (chars/µs)': fmtNum(rate(t.before!.medianMs)),
      'after (chars/µs)': fmtNum(rate(t.after!.medianMs)),
      'after / before': `${fmtNum(t.before!.medianMs / t.after!.medianMs)}x`,
    })
  }
  printTable(
    `Tokenizer throughput over the ${texts.length} texts of the public reference pairs (${chars} characters; same tokens before and after)`,
    tokenizerRows,
  )

  const overAll = (fn: (c: string, r: string) => number) => () => {
    let s = 0
    for (const p of pairs) s += fn(p.candidate, p.reference)
    return s
  }
  const m = await measure({
    tokenF1: overAll(tokenF1),
    bleu: overAll(bleu),
    editSimilarity: overAll(editSimilarity),
    rougeL: overAll((c, r) => rougeL(c, r).f),
  })
  printTable(
    `Throughput over the ${pairs.length} public reference pairs (median per pass over all pairs)`,
    Object.values(m).map((x) => ({ metric: x.name, 'per pass': `${fmtNum(x.medianMs * 1000)} µs`, 'pairs / s': fmtNum((pairs.length * 1000) / x.medianMs) })),
  )
}
