// The small formatters of golden messages and summaries (src/golden/format.ts), at their edges.
import { describe, expect, test } from 'vitest'
import { clip, fmtMs, fmtScore, messageLines } from '../../src/golden/format.js'

describe('clip', () => {
  test('one line: line breaks shown as ⏎, runs of blanks one space, trimmed', () => {
    expect(clip('  a\r\nb\n\tc   d  ', 100)).toBe('a⏎b⏎ c d')
  })

  test('text at the limit is kept; longer text keeps about 70% from the start, an ellipsis, and the end', () => {
    expect(clip('abcdefghij', 10)).toBe('abcdefghij')
    expect(clip('abcdefghijk', 10)).toBe('abcdefg…jk')
    expect(Array.from(clip('x'.repeat(500), 60))).toHaveLength(60)
  })

  test('counts characters, not UTF-16 units: an emoji is not cut in half', () => {
    expect(clip('😀😀😀😀😀😀😀😀😀😀😀', 10)).toBe('😀😀😀😀😀😀😀…😀😀')
  })

  test('values that are not text: compact JSON, or String() when JSON has none', () => {
    expect(clip({ q: 'hi', n: [1, 2] }, 100)).toBe('{"q":"hi","n":[1,2]}')
    expect(clip(undefined, 100)).toBe('undefined')
    expect(clip(42, 100)).toBe('42')
  })
})

describe('messageLines', () => {
  test('the label on the first line, the others indented under it, trailing blank lines dropped, CRLF read as lines', () => {
    expect(messageLines('error', 'first\r\nsecond\n\n')).toEqual(['      error: first', '             second'])
  })

  test('at most maxLines lines, then how many more (one "line", several "lines")', () => {
    expect(messageLines('error', 'a\nb\nc', 2)).toEqual(['      error: a', '             b', '             … 1 more line: see the JSON report'])
    expect(messageLines('error', 'a\nb\nc\nd', 2).at(-1)).toBe('             … 2 more lines: see the JSON report')
    expect(messageLines('error', 'a\nb', 2)).toHaveLength(2)
    expect(messageLines('e', Array.from({ length: 13 }, (_, i) => `l${i}`).join('\n'))).toHaveLength(13)
  })

  test('a line over 400 characters is cut at its end; 400 are kept whole', () => {
    const [long] = messageLines('assert', 'y'.repeat(401))
    expect(long).toBe(`      assert: ${'y'.repeat(399)}…`)
    expect(messageLines('assert', 'y'.repeat(400))[0]).toBe(`      assert: ${'y'.repeat(400)}`)
  })
})

describe('numbers', () => {
  test('fmtScore: exactly 1 and 0 bare, anything else with two decimals', () => {
    expect([fmtScore(1), fmtScore(0), fmtScore(0.999), fmtScore(0.005), fmtScore(0.5)]).toEqual(['1', '0', '1.00', '0.01', '0.50'])
  })

  test('fmtMs: whole milliseconds with separators below 10 s, seconds with one decimal from 10 s, n/a for null', () => {
    expect([fmtMs(null), fmtMs(0), fmtMs(1234.6), fmtMs(9999.4), fmtMs(10_000), fmtMs(12_345)]).toEqual([
      'n/a',
      '0 ms',
      '1,235 ms',
      '9,999 ms',
      '10.0 s',
      '12.3 s',
    ])
  })
})
