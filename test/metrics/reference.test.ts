// Reproduces the public reference vectors (fixtures/reference/, see its README in shared/reference)
// for SQuAD exact match / F1, sacrebleu sentence and corpus BLEU and Levenshtein. Each row names its
// pair so a failure points at the case. Doubles pass within 1e-9, integers and strings must be equal.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { bleuDetails, corpusBleuDetails, tokenize13a } from '../../src/metrics/bleu.js'
import { editSimilarity, levenshteinDistance } from '../../src/metrics/edit.js'
import { exactMatch, normalizeAnswer, tokenF1 } from '../../src/metrics/squad.js'
import { codePointLength } from '../../src/metrics/text.js'

interface Pair {
  id: string
  reference: string
  candidate: string
  tags: string[]
}

interface BleuStats {
  counts: number[]
  totals: number[]
  bp: number
  sys_len: number
  ref_len: number
}

interface ExpectedPair {
  squad: { exact_match: number; f1: number }
  bleu: { sacrebleu_sentence_bleu: number }
  levenshtein: { distance: number; similarity: number }
  debug: {
    codepoints: { reference: number; candidate: number }
    squad_normalized: { reference: string; candidate: string }
    sacrebleu_13a: { reference: string; candidate: string }
    sacrebleu_stats: BleuStats
  }
}

interface ExpectedFile {
  header: { corpus_sha256: string; pair_count: number }
  pairs: Record<string, ExpectedPair>
  corpus: Record<string, { ids: string[]; sacrebleu_corpus_bleu: number; sacrebleu_corpus_stats: BleuStats }>
}

const dir = fileURLToPath(new URL('../../fixtures/reference/', import.meta.url))
const corpusBytes = readFileSync(`${dir}metrics-public.jsonl`)
const expected = JSON.parse(readFileSync(`${dir}metrics-public.expected.json`, 'utf8')) as ExpectedFile
const pairs: Pair[] = corpusBytes
  .toString('utf8')
  .split('\n')
  .filter((line) => line.length > 0)
  .map((line) => JSON.parse(line) as Pair)

const TOLERANCE = 1e-9

function expectClose(actual: number, wanted: number): void {
  expect(Number.isFinite(actual)).toBe(true)
  expect(Math.abs(actual - wanted), `actual ${actual}, expected ${wanted}`).toBeLessThanOrEqual(TOLERANCE)
}

function expectedFor(id: string): ExpectedPair {
  const entry = expected.pairs[id]
  if (entry === undefined) throw new Error(`no expected values for ${id}`)
  return entry
}

const rows = pairs.map((pair) => [pair.id, pair] as const)

describe('the reference set itself', () => {
  test('the pairs file has the bytes the expected values were computed from (sha256)', () => {
    expect(createHash('sha256').update(corpusBytes).digest('hex')).toBe(expected.header.corpus_sha256)
  })

  test('has one expected entry per pair, and the pair count of the header', () => {
    expect(pairs).toHaveLength(expected.header.pair_count)
    expect(new Set(pairs.map((p) => p.id)).size).toBe(pairs.length)
    expect(Object.keys(expected.pairs).sort()).toEqual(pairs.map((p) => p.id).sort())
  })

  test.each(rows)('%s: code point lengths agree with Python len()', (id, pair) => {
    const { codepoints } = expectedFor(id).debug
    expect(codePointLength(pair.reference)).toBe(codepoints.reference)
    expect(codePointLength(pair.candidate)).toBe(codepoints.candidate)
  })
})

describe('SQuAD v1.1', () => {
  test.each(rows)('%s: squad.exact_match', (id, pair) => {
    expect(exactMatch(pair.candidate, pair.reference)).toBe(expectedFor(id).squad.exact_match)
  })

  test.each(rows)('%s: squad.f1', (id, pair) => {
    expectClose(tokenF1(pair.candidate, pair.reference), expectedFor(id).squad.f1)
  })

  test.each(rows)('%s: debug.squad_normalized', (id, pair) => {
    const { squad_normalized } = expectedFor(id).debug
    expect(normalizeAnswer(pair.reference)).toBe(squad_normalized.reference)
    expect(normalizeAnswer(pair.candidate)).toBe(squad_normalized.candidate)
  })
})

describe('sacrebleu sentence BLEU', () => {
  test.each(rows)('%s: bleu.sacrebleu_sentence_bleu', (id, pair) => {
    expectClose(bleuDetails(pair.candidate, pair.reference).score, expectedFor(id).bleu.sacrebleu_sentence_bleu)
  })

  test.each(rows)('%s: debug.sacrebleu_13a', (id, pair) => {
    const { sacrebleu_13a } = expectedFor(id).debug
    expect(tokenize13a(pair.reference).join(' ')).toBe(sacrebleu_13a.reference)
    expect(tokenize13a(pair.candidate).join(' ')).toBe(sacrebleu_13a.candidate)
  })

  test.each(rows)('%s: debug.sacrebleu_stats', (id, pair) => {
    const stats = expectedFor(id).debug.sacrebleu_stats
    const details = bleuDetails(pair.candidate, pair.reference)
    expect(details.counts).toEqual(stats.counts)
    expect(details.totals).toEqual(stats.totals)
    expect(details.sysLen).toBe(stats.sys_len)
    expect(details.refLen).toBe(stats.ref_len)
    expectClose(details.bp, stats.bp)
  })
})

describe('Levenshtein over code points', () => {
  test.each(rows)('%s: levenshtein.distance', (id, pair) => {
    expect(levenshteinDistance(pair.candidate, pair.reference)).toBe(expectedFor(id).levenshtein.distance)
  })

  test.each(rows)('%s: levenshtein.similarity', (id, pair) => {
    expectClose(editSimilarity(pair.candidate, pair.reference), expectedFor(id).levenshtein.similarity)
  })
})

describe('sacrebleu corpus BLEU', () => {
  const byId = new Map(pairs.map((p) => [p.id, p]))
  test.each(Object.entries(expected.corpus))('corpus.%s: sacrebleu_corpus_bleu and its statistics', (_group, entry) => {
    const group = entry.ids.map((id) => {
      const pair = byId.get(id)
      if (pair === undefined) throw new Error(`unknown id ${id}`)
      return pair
    })
    const details = corpusBleuDetails(
      group.map((p) => p.candidate),
      group.map((p) => p.reference),
    )
    expectClose(details.score, entry.sacrebleu_corpus_bleu)
    expect(details.counts).toEqual(entry.sacrebleu_corpus_stats.counts)
    expect(details.totals).toEqual(entry.sacrebleu_corpus_stats.totals)
    expect(details.sysLen).toBe(entry.sacrebleu_corpus_stats.sys_len)
    expect(details.refLen).toBe(entry.sacrebleu_corpus_stats.ref_len)
    expectClose(details.bp, entry.sacrebleu_corpus_stats.bp)
  })

  test('the groups are the ones the README defines (all, support, qa), in file order', () => {
    expect(expected.corpus.all?.ids).toEqual(pairs.map((p) => p.id))
    expect(expected.corpus.support?.ids).toEqual(pairs.filter((p) => p.tags.includes('support')).map((p) => p.id))
    expect(expected.corpus.qa?.ids).toEqual(pairs.filter((p) => p.id.startsWith('pub-qa-')).map((p) => p.id))
  })
})
