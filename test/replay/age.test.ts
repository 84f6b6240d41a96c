// Fixture ages (src/replay/age.ts): the values `maxAge` and `fixtures verify --max-age` accept, and how an
// age reads in the stale-fixture warning.
import { describe, expect, test } from 'vitest'
import { formatAge, parseAge } from '../../src/replay/age.js'

describe('parseAge', () => {
  test.each([
    ['500ms', 500],
    ['45s', 45_000],
    ['90m', 5_400_000],
    ['12h', 43_200_000],
    ['30d', 2_592_000_000],
    ['2w', 1_209_600_000],
    ['1.5h', 5_400_000],
    ['1.25h', 4_500_000],
    [' 7 d ', 604_800_000],
    ['250', 250],
    ['0', 0],
  ])('%j is %i ms', (value, ms) => {
    expect(parseAge(value)).toBe(ms)
  })

  test.each(['soon', '', '-1d', '3y', '1.d', 'd', '1dd', '1 d 2h'])('%j is not an age', (value) => {
    expect(parseAge(value)).toBeUndefined()
  })

  test('a number is milliseconds when finite and not negative', () => {
    expect(parseAge(0)).toBe(0)
    expect(parseAge(1234.5)).toBe(1234.5)
    expect(parseAge(-1)).toBeUndefined()
    expect(parseAge(Number.POSITIVE_INFINITY)).toBeUndefined()
    expect(parseAge(Number.NaN)).toBeUndefined()
  })
})

describe('formatAge', () => {
  test('minutes below an hour, hours below a day, days after', () => {
    expect(formatAge(0)).toBe('0m')
    expect(formatAge(-5000)).toBe('0m')
    expect(formatAge(90_000)).toBe('2m')
    expect(formatAge(3_599_999)).toBe('60m')
    expect(formatAge(3_600_000)).toBe('1h')
    expect(formatAge(5_400_000)).toBe('2h')
    expect(formatAge(86_399_999)).toBe('24h')
    expect(formatAge(86_400_000)).toBe('1d')
    expect(formatAge(120 * 86_400_000 + 1)).toBe('120d')
  })
})
