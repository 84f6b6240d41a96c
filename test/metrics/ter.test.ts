// TER's shift search and edit distance on inputs chosen to pin each rule of sacrebleu 2.6.0's lib_ter
// (the Tercom algorithm), with the values sacrebleu gives (`TER().sentence_score(h, [r])`, sacrebleu at
// f615c72 run on this machine's Python, edits = score * reference length / 100). The upstream and
// public-corpus reference tests (test/metrics/upstream/sacrebleu.test.ts, extended.reference.test.ts)
// cover real sentences; these cover the boundaries they happen to miss.
import { describe, expect, test } from 'vitest'
import { terDetails } from '../../src/metrics/ter.js'

describe('shifts', () => {
  test('a block moved to a target inside itself near the end keeps every word (sacrebleu: 3 edits)', () => {
    // The second round tries moving the 6 words at 4 to position 5: Python's slices stop at the end of
    // the list, so the words stay as they are. Reading past the end made up a word there and found a
    // shift that saves 2 edits, giving 2 edits in all.
    const d = terDetails('w1 w0 w0 w1 w1 w0 w0 w0 w0 w0', 'w0 w0 w0 w1 w1 w0 w0 w1 w1 w0')
    expect(d).toEqual({ score: 0.3, edits: 3, referenceLength: 10, bestReferenceIndex: 0 })
  })
})
