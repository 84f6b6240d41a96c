// The named step behind toPassJudge (judgeSpecParts in src/checks/judge.ts), with literal expected values.
import { describe, expect, test } from 'vitest'
import { judgeSpecParts } from '../../src/checks/judge.js'

describe('judgeSpecParts', () => {
  test('criteria only: the default threshold 0.7, an empty case', () => {
    expect(judgeSpecParts({ criteria: 'Polite' })).toEqual({ options: { criteria: 'Polite' }, threshold: 0.7, case: { references: [] } })
  })

  test('reference, input and context go to the case; the rest, threshold included, to the options', () => {
    const spec = { reference: 'Within 30 days.', input: 'Refund window?', context: ['Policy: 30 days.'], scale: '1-5', threshold: 0.75, samples: 3 }
    expect(judgeSpecParts(spec)).toEqual({
      options: { scale: '1-5', threshold: 0.75, samples: 3 },
      threshold: 0.75,
      case: { references: ['Within 30 days.'], inputText: 'Refund window?', context: ['Policy: 30 days.'] },
    })
  })

  test('context is passed on as given (text or a list), for the judge call to check', () => {
    expect(judgeSpecParts({ criteria: 'x', context: 'one document' }).case).toEqual({ references: [], context: 'one document' })
  })

  test('a threshold of 0 is kept, not replaced by the default', () => {
    expect(judgeSpecParts({ criteria: 'x', threshold: 0 }).threshold).toBe(0)
  })
})
