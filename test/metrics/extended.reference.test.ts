// The sacrebleu/NLTK/rouge-score options, chrF, TER, GLEU, multi-reference ROUGE and the bootstrap
// aggregator against the values the canonical Python implementations return on the 95 public pairs
// (fixtures/reference/extended/README.md says how they were computed). Tolerance 1e-9.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { bleuDetails, bleuTokenize, corpusBleuDetails, type BleuOptions } from '../../src/metrics/bleu.js'
import { chrF, corpusChrF, type ChrFOptions } from '../../src/metrics/chrf.js'
import { corpusGleu, gleu } from '../../src/metrics/gleu.js'
import { rouge, rougeMulti, type RougeType } from '../../src/metrics/rouge.js'
import { corpusTerDetails, terDetails, terTokenize, type TerOptions } from '../../src/metrics/ter.js'
import { BootstrapAggregator } from '../../src/golden/stats.js'

const root = fileURLToPath(new URL('../../fixtures/reference/', import.meta.url))
interface Pair {
  id: string
  reference: string
  candidate: string
  tags: string[]
}
const pairs: Pair[] = readFileSync(path.join(root, 'metrics-public.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.length > 0)
  .map((l) => JSON.parse(l) as Pair)
const byId = new Map(pairs.map((p) => [p.id, p]))
interface BleuFields {
  score: number
  counts: number[]
  totals: number[]
  bp: number
  sys_len: number
  ref_len: number
  precisions: number[]
}
interface TerFields {
  score: number
  edits: number
  ref_length: number
}
type Parts = { precision: number; recall: number; fmeasure: number }
interface Expected {
  pairs: Record<
    string,
    {
      bleu: Record<string, BleuFields>
      bleu_no_effective_order: Record<string, BleuFields>
      bleu_tokens: Record<string, { candidate: string[]; reference: string[] }>
      chrf: Record<string, number>
      ter: Record<string, TerFields>
      ter_tokens: Record<string, { candidate: string[]; reference: string[] }>
      gleu: Record<string, number>
    }
  >
  multi: Record<
    string,
    {
      references: [string, string]
      bleu: BleuFields
      chrf: number
      'chrf++': number
      ter: TerFields
      gleu: number
      rouge_score_multi_nostem: Record<string, Parts>
      rouge_score_multi_stem: Record<string, Parts>
    }
  >
  corpus: Record<string, { ids: string[]; bleu: Record<string, BleuFields>; chrf: Record<string, number>; ter: Record<string, TerFields>; gleu: number }>
  bootstrap: Record<string, { seed: number; samples: number; confidence: number; result: Record<string, Record<'low' | 'mid' | 'high', Parts>> }>
}
const expected = JSON.parse(readFileSync(path.join(root, 'extended/metrics-options.expected.json'), 'utf8')) as Expected

const close = (actual: number, want: number, what: string) => {
  if (!(Math.abs(actual - want) <= 1e-9)) throw new Error(`${what}: got ${actual}, expected ${want}`)
}

const BLEU_OPTIONS: Record<string, BleuOptions> = {
  default: {},
  'tok-none': { tokenize: 'none' },
  'tok-intl': { tokenize: 'intl' },
  'tok-char': { tokenize: 'char' },
  'tok-zh': { tokenize: 'zh' },
  lowercase: { lowercase: true },
  'intl-lowercase': { tokenize: 'intl', lowercase: true },
  'smooth-floor': { smoothMethod: 'floor' },
  'smooth-floor-0.5': { smoothMethod: 'floor', smoothValue: 0.5 },
  'smooth-add-k': { smoothMethod: 'add-k' },
  'smooth-add-k-2': { smoothMethod: 'add-k', smoothValue: 2 },
  'smooth-none': { smoothMethod: 'none' },
  'max-order-2': { maxNgramOrder: 2 },
  'max-order-6': { maxNgramOrder: 6 },
}
const CHRF_OPTIONS: Record<string, ChrFOptions> = {
  chrF: {},
  'chrF++': { wordOrder: 2 },
  'beta-1': { beta: 1 },
  lowercase: { lowercase: true },
  whitespace: { whitespace: true },
  'eps-smoothing': { epsSmoothing: true },
  'char-order-3': { charOrder: 3 },
  'word-only': { charOrder: 0, wordOrder: 2 },
}
const TER_OPTIONS: Record<string, TerOptions> = {
  default: {},
  normalized: { normalized: true },
  'no-punct': { noPunct: true },
  asian: { normalized: true, asianSupport: true },
  'asian-no-punct': { noPunct: true, asianSupport: true },
  'case-sensitive': { caseSensitive: true },
  all: { normalized: true, noPunct: true, asianSupport: true, caseSensitive: true },
}

function checkBleu(actual: ReturnType<typeof bleuDetails>, want: BleuFields, smoothAddK: number | undefined, what: string) {
  close(actual.score, want.score, `${what} score`)
  close(actual.bp, want.bp, `${what} bp`)
  expect([actual.sysLen, actual.refLen], what).toEqual([want.sys_len, want.ref_len])
  // sacrebleu's add-k adds k to its counts and totals from order 2 on; ours are the raw counts.
  const k = smoothAddK ?? 0
  expect(
    actual.counts.map((c, i) => (i > 0 ? c + k : c)),
    `${what} counts`,
  ).toEqual(want.counts)
  expect(
    actual.totals.map((t, i) => (i > 0 ? t + k : t)),
    `${what} totals`,
  ).toEqual(want.totals)
  actual.precisions.forEach((p, i) => close(p, want.precisions[i] as number, `${what} precision ${i + 1}`))
}
const addK = (o: BleuOptions) => (o.smoothMethod === 'add-k' && !(o.smoothMethod === 'add-k' && false) ? (o.smoothValue ?? 1) : undefined)

describe('sacrebleu BLEU options, sentence level (95 pairs × 14 settings)', () => {
  test.each(pairs.map((p) => [p.id, p] as const))('%s', (id, p) => {
    const e = expected.pairs[id]!
    for (const [name, options] of Object.entries(BLEU_OPTIONS)) {
      const details = bleuDetails(p.candidate, p.reference, options)
      // sacrebleu returns before the add-k loop when nothing matches: its counts stay raw.
      const k = details.counts.every((c) => c === 0) ? undefined : addK(options)
      checkBleu(details, e.bleu[name]!, k, `${id} ${name}`)
    }
    checkBleu(bleuDetails(p.candidate, p.reference, { effectiveOrder: false }), e.bleu_no_effective_order.default!, undefined, `${id} no effective order`)
  })
})

describe('sacrebleu BLEU tokenizers none, intl, char, zh: tokens', () => {
  test.each(pairs.map((p) => [p.id, p] as const))('%s', (id, p) => {
    for (const tokenize of ['none', 'intl', 'char', 'zh'] as const) {
      expect({ candidate: bleuTokenize(p.candidate, { tokenize }), reference: bleuTokenize(p.reference, { tokenize }) }, tokenize).toEqual(
        expected.pairs[id]!.bleu_tokens[tokenize],
      )
    }
  })
})

describe('sacrebleu chrF / chrF++ (95 pairs × 8 settings)', () => {
  test.each(pairs.map((p) => [p.id, p] as const))('%s', (id, p) => {
    for (const [name, options] of Object.entries(CHRF_OPTIONS)) close(chrF(p.candidate, p.reference, options), expected.pairs[id]!.chrf[name]!, `${id} ${name}`)
  })
})

describe('sacrebleu TER (95 pairs × 7 settings)', () => {
  test.each(pairs.map((p) => [p.id, p] as const))('%s', (id, p) => {
    for (const [name, options] of Object.entries(TER_OPTIONS)) {
      const want = expected.pairs[id]!.ter[name]!
      const d = terDetails(p.candidate, p.reference, options)
      close(d.score, want.score, `${id} ${name}`)
      expect([d.edits, d.referenceLength], `${id} ${name}`).toEqual([want.edits, want.ref_length])
      expect({ candidate: terTokenize(p.candidate, options), reference: terTokenize(p.reference, options) }, `${id} ${name} tokens`).toEqual(
        expected.pairs[id]!.ter_tokens[name],
      )
    }
  })
})

describe('NLTK GLEU', () => {
  test.each(pairs.map((p) => [p.id, p] as const))('%s', (id, p) => {
    close(gleu(p.candidate, p.reference), expected.pairs[id]!.gleu.default!, `${id} default`)
    close(gleu(p.candidate, p.reference, { minLen: 1, maxLen: 2 }), expected.pairs[id]!.gleu['1-2']!, `${id} 1-2`)
  })
})

describe("two references per pair (this pair's and the next pair's)", () => {
  test.each(pairs.map((p) => [p.id, p] as const))('%s', (id, p) => {
    const m = expected.multi[id]!
    const refs = m.references.map((r) => byId.get(r)!.reference)
    checkBleu(bleuDetails(p.candidate, refs), m.bleu, undefined, `${id} bleu`)
    close(chrF(p.candidate, refs), m.chrf, `${id} chrF`)
    close(chrF(p.candidate, refs, { wordOrder: 2 }), m['chrf++'], `${id} chrF++`)
    const t = terDetails(p.candidate, refs)
    close(t.score, m.ter.score, `${id} TER`)
    expect([t.edits, t.referenceLength]).toEqual([m.ter.edits, m.ter.ref_length])
    close(gleu(p.candidate, refs), m.gleu, `${id} GLEU`)
    for (const stem of [false, true]) {
      const want = stem ? m.rouge_score_multi_stem : m.rouge_score_multi_nostem
      // score_multi([next reference, this reference]): ties go to the first.
      const got = rougeMulti(p.candidate, [refs[1]!, refs[0]!], { stemmer: stem, tokenizer: 'rouge-score' })
      for (const type of ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as RougeType[]) {
        const g = got[type]!
        close(g.precision, want[type]!.precision, `${id} ${type} precision`)
        close(g.recall, want[type]!.recall, `${id} ${type} recall`)
        close(g.f, want[type]!.fmeasure, `${id} ${type} f`)
        expect(rouge(p.candidate, [refs[1]!, refs[0]!], { type, stemmer: stem, tokenizer: 'rouge-score' })).toEqual({
          precision: g.precision,
          recall: g.recall,
          f: g.f,
        })
      }
    }
  })
})

describe('corpus level (all, support, qa)', () => {
  test.each(Object.keys(expected.corpus))('%s', (group) => {
    const c = expected.corpus[group]!
    const cands = c.ids.map((id) => byId.get(id)!.candidate)
    const refs = c.ids.map((id) => byId.get(id)!.reference)
    for (const [name, options] of Object.entries(BLEU_OPTIONS)) {
      const d = corpusBleuDetails(cands, refs, options)
      const k = d.counts.every((x) => x === 0) ? undefined : addK(options)
      checkBleu(d, c.bleu[name]!, k, `${group} ${name}`)
    }
    checkBleu(corpusBleuDetails(cands, refs, { effectiveOrder: true }), c.bleu['effective-order']!, undefined, `${group} effective order`)
    for (const [name, options] of Object.entries(CHRF_OPTIONS)) close(corpusChrF(cands, refs, options), c.chrf[name]!, `${group} chrF ${name}`)
    for (const [name, options] of Object.entries(TER_OPTIONS)) {
      const d = corpusTerDetails(cands, refs, options)
      close(d.score, c.ter[name]!.score, `${group} TER ${name}`)
      expect(d.edits).toBe(c.ter[name]!.edits)
      close(d.referenceLength, c.ter[name]!.ref_length, `${group} TER ${name} length`)
    }
    close(corpusGleu(cands, refs), c.gleu, `${group} GLEU`)
  })
})

describe("rouge-score's BootstrapAggregator, resampling with the library's seeded PRNG", () => {
  test.each(Object.keys(expected.bootstrap))('%s', (key) => {
    const b = expected.bootstrap[key]!
    const aggregator = new BootstrapAggregator({ seed: b.seed, samples: b.samples, confidence: b.confidence })
    for (const p of pairs) {
      aggregator.addScores({
        rouge1: rouge(p.candidate, p.reference, { type: 'rouge1', tokenizer: 'rouge-score' }),
        rouge2: rouge(p.candidate, p.reference, { type: 'rouge2', tokenizer: 'rouge-score' }),
        rougeL: rouge(p.candidate, p.reference, { type: 'rougeL', tokenizer: 'rouge-score' }),
      })
    }
    const result = aggregator.aggregate()
    for (const type of ['rouge1', 'rouge2', 'rougeL']) {
      for (const bound of ['low', 'mid', 'high'] as const) {
        const got = result[type]![bound] as Record<string, number>
        const want = b.result[type]![bound]
        close(got.precision!, want.precision, `${type} ${bound} precision`)
        close(got.recall!, want.recall, `${type} ${bound} recall`)
        close(got.f!, want.fmeasure, `${type} ${bound} f`)
      }
    }
  })
})
