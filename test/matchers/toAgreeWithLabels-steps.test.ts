// The named steps behind toAgreeWithLabels (calibrationPasses, confusionLine, undefinedKappaNote in
// src/calibration.ts), on hand-made calibration results with literal expected values.
import { describe, expect, test } from 'vitest'
import { type CalibrationResult, calibrationPasses, confusionLine, undefinedKappaNote } from '../../src/calibration.js'

const miss = (index: number, label: 'PASS' | 'FAIL') => ({ output: `case ${index}`, label, index, score: label === 'PASS' ? 0 : 1, reason: '' })

function result(fields: Partial<CalibrationResult>): CalibrationResult {
  return { n: 0, agreement: 0, kappa: null, truePass: 0, trueFail: 0, falsePasses: [], falseFails: [], verdicts: [], ...fields }
}

describe('calibrationPasses', () => {
  test('both minimums are inclusive', () => {
    expect(calibrationPasses({ agreement: 0.8, kappa: 0.6 }, 0.8, 0.6)).toBe(true)
    expect(calibrationPasses({ agreement: 0.79, kappa: 0.9 }, 0.8, 0.6)).toBe(false)
    expect(calibrationPasses({ agreement: 1, kappa: 0.59 }, 0.8, 0.6)).toBe(false)
  })

  test('an undefined kappa never passes, whatever the minimums', () => {
    expect(calibrationPasses({ agreement: 1, kappa: null }, 0, -1)).toBe(false)
  })

  test('a negative kappa passes a negative minimum', () => {
    expect(calibrationPasses({ agreement: 0.4, kappa: -0.2 }, 0.3, -0.5)).toBe(true)
  })
})

describe('confusionLine', () => {
  test('the four counts', () => {
    const r = result({ truePass: 5, trueFail: 3, falsePasses: [miss(1, 'FAIL')], falseFails: [miss(2, 'PASS'), miss(4, 'PASS')] })
    expect(confusionLine(r)).toBe('Confusion: judge PASS/label PASS 5, judge FAIL/label FAIL 3, false passes 1, false fails 2')
  })
})

describe('undefinedKappaNote', () => {
  test('names the one verdict every case got', () => {
    const tail = 'so the set cannot show that the judge tells PASS from FAIL. Add cases with the other label.'
    expect(undefinedKappaNote(result({ n: 3, truePass: 3, agreement: 1 }))).toBe(`Kappa is undefined: every label and every verdict is PASS, ${tail}`)
    expect(undefinedKappaNote(result({ n: 2, trueFail: 2, agreement: 1 }))).toBe(`Kappa is undefined: every label and every verdict is FAIL, ${tail}`)
  })

  test('nothing when kappa is defined, even when it is 0', () => {
    expect(undefinedKappaNote(result({ kappa: 0.4 }))).toBeUndefined()
    expect(undefinedKappaNote(result({ kappa: 0 }))).toBeUndefined()
  })
})
