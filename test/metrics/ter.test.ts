// TER's shift search and edit distance on inputs chosen to pin each rule of sacrebleu 2.6.0's lib_ter
// (the Tercom algorithm), with the values sacrebleu gives (`TER().sentence_score(h, [r])`, sacrebleu at
// f615c72 run on this machine's Python, edits = score * reference length / 100). The upstream and
// public-corpus reference tests (test/metrics/upstream/sacrebleu.test.ts, extended.reference.test.ts)
// cover real sentences; these cover the boundaries they happen to miss.
import { describe, expect, test } from 'vitest'
import { __testing, corpusTerDetails, terDetails, terTokenize } from '../../src/metrics/ter.js'

describe('shifts', () => {
  test('a block moved to a target inside itself near the end keeps every word (sacrebleu: 3 edits)', () => {
    // The second round tries moving the 6 words at 4 to position 5: Python's slices stop at the end of
    // the list, so the words stay as they are. Reading past the end made up a word there and found a
    // shift that saves 2 edits, giving 2 edits in all.
    const d = terDetails('w1 w0 w0 w1 w1 w0 w0 w0 w0 w0', 'w0 w0 w0 w1 w1 w0 w0 w1 w1 w0')
    expect(d).toEqual({ score: 0.3, edits: 3, referenceLength: 10, bestReferenceIndex: 0 })
  })

  test('a block moved to right after itself swaps places with the words that follow it (sacrebleu: 5 edits)', () => {
    // The first round's best shift moves the 8 words at 0 to position 8 (= start + length): they change places with the
    // next 8 words, as sacrebleu's third case of _perform_shift does. Taking that target for a move past the block (its
    // second case) left the words as they were, and the search went another way: 6 edits.
    const d = terDetails('a b c d e a b d f d c a a a b g h', 'b a a a b a a b c d e a b d d h')
    expect(d).toEqual({ score: 5 / 16, edits: 5, referenceLength: 16, bestReferenceIndex: 0 })
  })

  test('a block moved to the very front, before every reference word (sacrebleu: 1 and 2 edits)', () => {
    // The first reference word's block (b, at reference 0) goes to position 0: the target of offset -1, which has no
    // reference word to align after.
    expect(terDetails('a a a a b', 'b a a a a')).toEqual({ score: 0.2, edits: 1, referenceLength: 5, bestReferenceIndex: 0 })
    expect(terDetails('a b c', 'c a d')).toEqual({ score: 2 / 3, edits: 2, referenceLength: 3, bestReferenceIndex: 0 })
  })

  const words = (prefix: string, count: number) => Array.from({ length: count }, (_, k) => `${prefix}${k}`)

  test('a block matched 50 reference positions away is in reach: one shift (sacrebleu: 51 edits)', () => {
    // a b (hypothesis 0) match the reference at 50: moving them to the end leaves 50 substitutions.
    const d = terDetails(['a', 'b', ...words('f', 50)].join(' '), [...words('g', 50), 'a', 'b'].join(' '))
    expect(d).toEqual({ score: 51 / 52, edits: 51, referenceLength: 52, bestReferenceIndex: 0 })
  })

  test('a block matched 51 reference positions away is out of reach: no shift (sacrebleu: 53 edits)', () => {
    const d = terDetails(['a', 'b', ...words('f', 51)].join(' '), [...words('g', 51), 'a', 'b'].join(' '))
    expect(d).toEqual({ score: 1, edits: 53, referenceLength: 53, bestReferenceIndex: 0 })
  })

  test('a block of 10 words moves in one shift (sacrebleu: 1 edit)', () => {
    const d = terDetails([...words('b', 10), ...words('c', 11)].join(' '), [...words('c', 11), ...words('b', 10)].join(' '))
    expect(d).toEqual({ score: 1 / 21, edits: 1, referenceLength: 21, bestReferenceIndex: 0 })
  })

  test('a block of 11 words takes two shifts: 10 words is the most one shift moves (sacrebleu: 2 edits)', () => {
    const d = terDetails([...words('b', 11), ...words('c', 12)].join(' '), [...words('c', 12), ...words('b', 11)].join(' '))
    expect(d).toEqual({ score: 2 / 23, edits: 2, referenceLength: 23, bestReferenceIndex: 0 })
  })

  test('a block without an error in the hypothesis is not shifted, even where that would save edits (sacrebleu: 5 edits)', () => {
    // a a (hypothesis 0-1) are matched by the alignment; moving them to the end would save 2 edits, but sacrebleu only
    // shifts a block holding an error on both sides. Shifting it gives 4 edits.
    const d = terDetails('a a b c c', 'd c a a c a a')
    expect(d).toEqual({ score: 5 / 7, edits: 5, referenceLength: 7, bestReferenceIndex: 0 })
  })

  test('a block without an error in the reference is not shifted (sacrebleu: 6 edits)', () => {
    // Trying blocks whose reference words are all matched finds other shifts from the second round on: 7 edits.
    const d = terDetails('a b c b a d e b b d e f', 'd g d e b e a c b a b e')
    expect(d).toEqual({ score: 0.5, edits: 6, referenceLength: 12, bestReferenceIndex: 0 })
  })

  test('a target already tried for the previous offset is neither tried nor counted again (sacrebleu: 19 edits)', () => {
    // Eight rounds check 944 candidates here, near sacrebleu's budget of 1,000 for a sentence. Counting each repeated
    // target spends the budget sooner and the search stops a round early: 20 edits.
    const d = terDetails(
      'a a b a c a d e f g h h i j k l k m b j n g k l b j b j o g a f c k j i p e',
      'j k k k a k j h f l b j b j o g a f c k b j g e f g h i q c k i j f k',
    )
    expect(d).toEqual({ score: 19 / 35, edits: 19, referenceLength: 35, bestReferenceIndex: 0 })
  })
})

describe('tokenizer', () => {
  test('normalized turns the &quot; &amp; &lt; &gt; entities into characters, then splits them off', () => {
    expect(terTokenize('&quot;A&quot; &amp; &lt;b&gt;', { normalized: true })).toEqual(['"', 'a', '"', '&', '<', 'b', '>'])
  })

  test('noPunct with asianSupport also removes CJK and full-width punctuation', () => {
    expect(terTokenize('a。b？c', { noPunct: true, asianSupport: true })).toEqual(['abc'])
  })

  test('noPunct alone keeps CJK and full-width punctuation', () => {
    expect(terTokenize('a。b？c', { noPunct: true })).toEqual(['a。b？c'])
  })

  test('a text that is not a string is refused with the action named', () => {
    expect(() => terTokenize(5 as never)).toThrow(
      new TypeError('[expect-llm] Failed to tokenize for TER: the text must be a string, got a number (5). Pass the text as a string.'),
    )
  })

  test('a bad option is refused with the action named', () => {
    expect(() => terTokenize('a', { normalized: 1 } as never)).toThrow(
      new TypeError('[expect-llm] Failed to tokenize for TER: options.normalized must be a boolean, got a number (1). Pass true or false.'),
    )
  })
})

describe('beam', () => {
  // sacrebleu's BeamEditDistance only computes row i over j within the beam of floor(i * m / n), the beam being
  // 25, or ceil(ratio / 2 + 25) when the length ratio m / n is above 50. A one-word hypothesis matching only
  // the first of m reference words: that match lies outside the last row's band, so the edits are m, not m - 1.
  const refOf = (m: number) => ['w0', ...Array.from({ length: m - 1 }, (_, k) => `x${k + 1}`)].join(' ')

  test('ratio 40: the beam stays 25, so the match at 0 is outside the band from 15', () => {
    expect(terDetails('w0', refOf(40)).edits).toBe(40)
  })

  test('ratio 50: the beam stays 25 (only a ratio above 50 widens it)', () => {
    expect(terDetails('w0', refOf(50)).edits).toBe(50)
  })

  test('ratio 120: the beam widens to 85, still not reaching the match at 0', () => {
    expect(terDetails('w0', refOf(120)).edits).toBe(120)
  })

  // A hypothesis longer than the reference moves the band right by less than a column per row, so some rows start at
  // the same column as the row above. That first cell's diagonal lies outside the row above's band (infinite), and
  // the cell above it is inside.
  test('a band that stays put has no diagonal into the row above: 61 a against 38 a is 23 deletions (sacrebleu: 23)', () => {
    // Rows 42 and 43 both start at column 1 (floor(i * 38 / 61) = 26, less the beam 25). Reading cell (42, 0) there
    // took the packed table's cell before row 42's band (row 41's last, cost 3) and found 22 edits through a cell
    // without an operation.
    const d = terDetails(Array(61).fill('a').join(' '), Array(38).fill('a').join(' '))
    expect(d).toEqual({ score: 23 / 38, edits: 23, referenceLength: 38, bestReferenceIndex: 0 })
  })

  test('a band that stays put reaches its first cell from above: 66 extra words before the 43 of the reference are 67 edits (sacrebleu: 67)', () => {
    // Row 66's band starts at column 1 (floor(66 * 43 / 109) = 26), so only 65 of the extra words are deleted in
    // column 0; the 66th is substituted by x0, and the hypothesis' x0 deleted at (67, 1), the first cell of row 67,
    // which also starts at column 1. Without that deletion from above, the cheapest path takes 68 edits.
    const ref = Array.from({ length: 43 }, (_, k) => `x${k}`)
    const hyp = [...Array.from({ length: 66 }, (_, k) => `j${k}`), ...ref]
    expect(terDetails(hyp.join(' '), ref.join(' '))).toEqual({ score: 67 / 43, edits: 67, referenceLength: 43, bestReferenceIndex: 0 })
  })
})

// The shift search costs each candidate from the last full table: its own rows up to where the shift's changes end,
// then the costs from there to the end, read backwards from the base (`fillBackward`). Those backward costs at a band's
// left edge only matter for a long enough pair, where the band no longer starts at column 0.
describe('the backward costs of the shift search', () => {
  test('a cell left of the band below costs no move down: a b c against 25 other words and a is 26 edits (sacrebleu: 26)', () => {
    // Row 3's band starts at column 1 (floor(3 * 26 / 3) - 25). Reading row 2's cell 0 a move down took row 2's own last
    // cell for row 3's, a cost of 2 from there to the end, and a shift of a to position 1 seemed to save 22 edits.
    const ref = [...Array.from({ length: 25 }, (_, k) => `x${k}`), 'a']
    expect(terDetails('a b c', ref.join(' '))).toEqual({ score: 1, edits: 26, referenceLength: 26, bestReferenceIndex: 0 })
  })

  test('each row of backward costs starts at the band end, not past it into the next row: 27 edits (sacrebleu: 27)', () => {
    // Starting 2 columns past the band's end wrote cheap costs over the first cells of the row below, and a third
    // shift seemed to save 16 edits: 28 in all.
    const ref = 'x0 e x1 g x2 d x3 x4 x5 h x6 a x7 x8 x9 x10 x11 i x12 x13 b x14 x15 x16 x17 c x18 x19 x20 x21 x22'
    expect(terDetails('a b c d e z g h i', ref)).toEqual({ score: 27 / 31, edits: 27, referenceLength: 31, bestReferenceIndex: 0 })
  })

  test('a candidate that deletes before the match: distanceFrom costs it as the full table does (2 edits)', () => {
    // Reference a, hypothesis b b a, candidate c b a (position 0 changed): from row 1 the cheapest way deletes b, moves
    // down at column 0, then matches a. Without that move down the backward cost from (1, 0) is 2 and the total 3.
    const ref = new Int32Array([0])
    const table = new __testing.BeamEditDistance(ref, 3)
    table.distanceWithTrace(new Int32Array([1, 1, 0]))
    const candidate = new Int32Array([2, 1, 0])
    expect(new __testing.BeamEditDistance(ref, 3).distanceWithTrace(candidate).cost).toBe(2)
    expect(table.distanceFrom(candidate, 0, 1)).toBe(2)
  })

  test('the last row takes no diagonal step past the table: a a a a against a, from row 1, is 3 edits as in the full table', () => {
    // Row 4 is the last: a diagonal from its cells would read past the band of the (empty) row 5, into memory that holds
    // no backward cost.
    const ref = new Int32Array([0])
    const hyp = new Int32Array([0, 0, 0, 0])
    const table = new __testing.BeamEditDistance(ref, 4)
    expect(table.distanceWithTrace(hyp).cost).toBe(3)
    expect(table.distanceFrom(hyp, 0, 1)).toBe(3)
  })

  test('a row whose band starts left of the band below reaches the first cell below by the diagonal (50 edits, as the full table)', () => {
    // Reference: 49 a, c b, 16 a. Hypothesis: 47 x, 45 a, c b, 13 a (107 words, so the band starts at column
    // floor(i * 67 / 107) - 25 and moves right every row or two from row 42). The candidate changes positions 35-36.
    // The cheapest way from row 37 to the end steps diagonally from a cell just left of the next row's band into its
    // first cell (in a row from 42 on); without that step the backward costs are one too high (51).
    const a = (count: number) => Array<number>(count).fill(0)
    const ref = new Int32Array([...a(49), 2, 1, ...a(16)])
    const hyp = new Int32Array([...Array<number>(47).fill(9), ...a(45), 2, 1, ...a(13)])
    const candidate = hyp.slice()
    candidate[35] = 1
    candidate[36] = 3
    const table = new __testing.BeamEditDistance(ref, hyp.length)
    table.distanceWithTrace(hyp)
    expect(new __testing.BeamEditDistance(ref, hyp.length).distanceWithTrace(candidate).cost).toBe(50)
    expect(table.distanceFrom(candidate, 35, 37)).toBe(50)
  })
})

describe('several references', () => {
  test('the reference with the fewest edits is the best; on a tie, the first', () => {
    expect(terDetails('a b', ['x y', 'a c', 'a d'])).toEqual({ score: 0.5, edits: 1, referenceLength: 2, bestReferenceIndex: 1 })
  })
})

describe('corpus', () => {
  test('corpus details have no best reference: bestReferenceIndex is -1', () => {
    expect(corpusTerDetails(['a b'], ['a c'])).toEqual({ score: 0.5, edits: 1, referenceLength: 2, bestReferenceIndex: -1 })
  })
})

describe('the trace through the banded table', () => {
  test('the trace holds one operation per step, from start to end: a b against a c is a match then a substitution', () => {
    const table = new __testing.BeamEditDistance(new Int32Array([0, 1]), 2)
    expect(table.distanceWithTrace(new Int32Array([0, 2]))).toEqual({ cost: 1, trace: [0, 1] })
  })

  test('a cell without an edit operation (a bug) fails loudly instead of giving a wrong trace', () => {
    const table = new __testing.BeamEditDistance(new Int32Array([1]), 1)
    // Skip filling the table, so the trace starts at a cell that has no operation.
    Object.assign(table, { fill: () => {}, fillBackward: () => {} })
    expect(() => table.distanceWithTrace(new Int32Array([1]))).toThrow(
      new Error('[expect-llm] TER: no edit operation at cell (1, 1); please report this input.'),
    )
  })
})
