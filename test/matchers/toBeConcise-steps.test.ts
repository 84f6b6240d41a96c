// The named steps behind toBeConcise (lengthLimits, tightestLimits in src/checks/length.ts), on hand-made
// limits with literal expected values.
import { describe, expect, test } from 'vitest'
import { lengthLimits, tightestLimits } from '../../src/checks/length.js'

describe('lengthLimits', () => {
  test('maxWords, then the reference (factor × its words), then maxChars', () => {
    expect(lengthLimits({ maxWords: 40, maxChars: 280, factor: 1.5 }, 12)).toEqual([
      { unit: 'words', max: 40, from: 'maxWords' },
      { unit: 'words', max: 18, from: 'reference', factor: 1.5, referenceWords: 12 },
      { unit: 'chars', max: 280, from: 'maxChars' },
    ])
  })

  test('a reference alone allows twice its words', () => {
    expect(lengthLimits({}, 7)).toEqual([{ unit: 'words', max: 14, from: 'reference', factor: 2, referenceWords: 7 }])
  })

  test('no reference measured: factor is not a limit; a limit of 0 is kept', () => {
    expect(lengthLimits({ maxChars: 0, factor: 3 }, undefined)).toEqual([{ unit: 'chars', max: 0, from: 'maxChars' }])
    expect(lengthLimits({}, undefined)).toEqual([])
  })
})

describe('tightestLimits', () => {
  test('the smallest maximum of each unit, words first', () => {
    const limits = lengthLimits({ maxChars: 100, maxWords: 30 }, 10)
    expect(tightestLimits(limits)).toEqual([
      { unit: 'words', max: 20 },
      { unit: 'chars', max: 100 },
    ])
  })

  test('only the units that have a limit', () => {
    expect(tightestLimits(lengthLimits({ maxChars: 5 }, undefined))).toEqual([{ unit: 'chars', max: 5 }])
    expect(tightestLimits(lengthLimits({ maxWords: 9 }, 20))).toEqual([{ unit: 'words', max: 9 }])
    expect(tightestLimits([])).toEqual([])
  })
})
