// The named steps behind toHaveBleuAbove's message (nearestReference, caseOnlyDifferences in
// src/checks/bleu.ts), with literal expected values.
import { describe, expect, test } from 'vitest'
import { caseOnlyDifferences, nearestReference } from '../../src/checks/bleu.js'

describe('nearestReference', () => {
  test('the reference with the best sentence BLEU on its own', () => {
    const output = 'The cat is on the mat.'
    expect(nearestReference(output, ['A dog sleeps in the yard.', 'The cat is on the mat.', 'There is a cat.'])).toBe(1)
  })

  test('the first of equal ones; one reference is the nearest', () => {
    expect(nearestReference('hello world', ['completely different', 'also unrelated'])).toBe(0)
    expect(nearestReference('hello world', ['x'])).toBe(0)
  })
})

describe('caseOnlyDifferences', () => {
  test('missing tokens that an extra token equals but for case, each once, in the order missing', () => {
    expect(caseOnlyDifferences(['Paris', 'is', 'Paris', 'France'], ['paris', 'france', 'city'])).toEqual(['"Paris" vs "paris"', '"France" vs "france"'])
  })

  test('none when no extra token differs only in case', () => {
    expect(caseOnlyDifferences(['Paris'], ['London'])).toEqual([])
    expect(caseOnlyDifferences([], ['paris'])).toEqual([])
  })
})
