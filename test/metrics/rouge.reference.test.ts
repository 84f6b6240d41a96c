// ROUGE against the public reference vectors: 95 (reference, candidate) pairs scored by Google's
// rouge-score (with nltk 3.8's Porter stemmer). See fixtures/reference/README.md, sections 4.2 and 5.
//
// The vectors are committed in fixtures/reference/ so the repository is self-contained. When the
// project's shared/ folder sits beside the repository (../shared/reference), the copy is also checked
// against it byte for byte.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { rouge, rougeTokenize, type RougeScore, type RougeType } from '../../src/metrics/rouge.js'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
const fixtureDir = path.join(repoRoot, 'fixtures/reference')
const sharedDir = path.resolve(repoRoot, '../shared/reference')
const FILES = ['metrics-public.jsonl', 'metrics-public.expected.json', 'README.md']

interface Pair {
  id: string
  reference: string
  candidate: string
  tags: string[]
}
interface Parts {
  precision: number
  recall: number
  fmeasure: number
}
type Variant = 'nostem' | 'stem'
interface Sides<T> {
  reference: T
  candidate: T
}
interface Expected {
  header: { corpus_sha256: string; pair_count: number }
  pairs: Record<
    string,
    {
      rouge: Record<Variant, Record<RougeType, Parts>>
      debug: { rouge_tokens: Sides<string[]>; rouge_tokens_stemmed: Sides<string[]> }
    }
  >
}

const pairsBytes = readFileSync(path.join(fixtureDir, 'metrics-public.jsonl'))
// Never normalize these strings: the file escapes NFD text, BOMs, NBSPs, ... on purpose.
const pairs: Pair[] = pairsBytes
  .toString('utf8')
  .split('\n')
  .filter((line) => line.length > 0)
  .map((line) => JSON.parse(line) as Pair)
const expected = JSON.parse(readFileSync(path.join(fixtureDir, 'metrics-public.expected.json'), 'utf8')) as Expected

const TOLERANCE = 1e-9
const VARIANTS: readonly Variant[] = ['nostem', 'stem']
const TYPES: readonly RougeType[] = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum']

function expectedFor(id: string): Expected['pairs'][string] {
  const entry = expected.pairs[id]
  if (entry === undefined) throw new Error(`no expected values for ${id}`)
  return entry
}

/** The parts that differ by more than the tolerance (empty when all match). */
function mismatches(actual: RougeScore, want: Parts): string[] {
  const out: string[] = []
  const check = (name: string, a: number, e: number): void => {
    if (!(Math.abs(a - e) <= TOLERANCE)) out.push(`${name}: got ${a}, rouge-score ${e} (diff ${Math.abs(a - e)})`)
  }
  check('precision', actual.precision, want.precision)
  check('recall', actual.recall, want.recall)
  check('fmeasure', actual.f, want.fmeasure)
  return out
}

describe('reference vectors: the files', () => {
  test(`the pairs file has the SHA-256 recorded in the expected file's header`, () => {
    expect(createHash('sha256').update(pairsBytes).digest('hex')).toBe(expected.header.corpus_sha256)
  })

  test('the pairs file holds pair_count pairs, each with expected values', () => {
    expect(pairs).toHaveLength(expected.header.pair_count)
    expect(pairs.filter((p) => expected.pairs[p.id] === undefined).map((p) => p.id)).toEqual([])
  })

  test.skipIf(!existsSync(sharedDir))('the committed copy is byte-identical to ../shared/reference', () => {
    for (const file of FILES) {
      const committed = readFileSync(path.join(fixtureDir, file))
      const shared = readFileSync(path.join(sharedDir, file))
      expect(committed.equals(shared), `${file} differs from ${path.join(sharedDir, file)}`).toBe(true)
    }
  })
})

const scoreRows = pairs.flatMap((pair) => VARIANTS.flatMap((variant) => TYPES.map((type) => [`${pair.id} ${variant} ${type}`, pair, variant, type] as const)))

describe("reference vectors: rouge(candidate, reference, { tokenizer: 'rouge-score' }) equals rouge-score", () => {
  test.each(scoreRows)('%s', (_title, pair, variant, type) => {
    const actual = rouge(pair.candidate, pair.reference, { type, stemmer: variant === 'stem', tokenizer: 'rouge-score' })
    expect(mismatches(actual, expectedFor(pair.id).rouge[variant][type])).toEqual([])
  })
})

describe("reference vectors: rougeTokenize(text, { tokenizer: 'rouge-score' }) equals rouge-score's tokens", () => {
  test.each(pairs.map((pair) => [pair.id, pair] as const))('%s', (_id, pair) => {
    const { debug } = expectedFor(pair.id)
    const tokens = (stemmer: boolean): Sides<string[]> => ({
      reference: rougeTokenize(pair.reference, { tokenizer: 'rouge-score', stemmer }),
      candidate: rougeTokenize(pair.candidate, { tokenizer: 'rouge-score', stemmer }),
    })
    expect({ nostem: tokens(false), stem: tokens(true) }).toEqual({
      nostem: debug.rouge_tokens,
      stem: debug.rouge_tokens_stemmed,
    })
  })
})

// The default tokenizer keeps Unicode letters, so it must differ from rouge-score only on non-ASCII
// text. On every pure-ASCII pair it has to give rouge-score's exact values.
const isAscii = (s: string): boolean => /^[\x00-\x7f]*$/.test(s)
const asciiRows = pairs
  .filter((pair) => isAscii(pair.reference) && isAscii(pair.candidate))
  .flatMap((pair) => VARIANTS.map((variant) => [`${pair.id} ${variant}`, pair, variant] as const))

describe("reference vectors: the default 'unicode' tokenizer equals rouge-score on the pure-ASCII pairs", () => {
  test('most pairs are pure ASCII', () => {
    expect(asciiRows.length / 2).toBeGreaterThanOrEqual(60)
  })

  test.each(asciiRows)('%s', (_title, pair, variant) => {
    const found = TYPES.flatMap((type) =>
      mismatches(rouge(pair.candidate, pair.reference, { type, stemmer: variant === 'stem' }), expectedFor(pair.id).rouge[variant][type]).map(
        (m) => `${type} ${m}`,
      ),
    )
    expect(found).toEqual([])
  })
})
