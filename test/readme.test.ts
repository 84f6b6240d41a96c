// README claims that are checked against the code.
import { readFileSync } from 'node:fs'
import { describe, expect, expectTypeOf, test } from 'vitest'
import type { LlmAsyncMatchers } from '../matchers/types.js'
import { asyncMatcherNames, README, readmeBlock, renderBlock } from './helpers/readme-async-matchers.js'

describe('the lint rule snippet', () => {
  test('lists exactly the async matchers (regenerate with npm run docs:async-matchers)', () => {
    expect(readmeBlock()).toBe(renderBlock(asyncMatcherNames()))
  })

  test('the async matchers are the ones typed as returning a promise', () => {
    const names = asyncMatcherNames()
    expect(names).toEqual([
      'toAgreeWithLabels',
      'toBeFaithfulTo',
      'toBeRelevantTo',
      'toBeSemanticallySimilar',
      'toCompleteGoal',
      'toPassCheck',
      'toPassJudge',
      'toPassModeration',
      'toRefuse',
    ])
    expectTypeOf<keyof LlmAsyncMatchers>().toEqualTypeOf<
      | 'toAgreeWithLabels'
      | 'toBeFaithfulTo'
      | 'toBeRelevantTo'
      | 'toBeSemanticallySimilar'
      | 'toCompleteGoal'
      | 'toPassCheck'
      | 'toPassJudge'
      | 'toPassModeration'
      | 'toRefuse'
    >()
  })
})

describe('Jest configuration', () => {
  test('the Install snippet is a jest.config.cjs (a jest.config.js with module.exports fails in a "type": "module" project)', () => {
    const install = readFileSync(README, 'utf8').split('### Jest')[1]!.split('\n## ')[0]!
    expect(install).toContain("// jest.config.cjs\nmodule.exports = { setupFilesAfterEnv: ['expect-llm/jest'] }")
    expect(install).not.toMatch(/\/\/ jest\.config\.js\n/)
  })
})
