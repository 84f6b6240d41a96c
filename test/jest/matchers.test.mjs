// ESM consumer (Jest's ESM mode): the built dist/*.js files, registered by setupFilesAfterEnv: ['expect-llm/jest'].
import { describe, test, expect } from '@jest/globals'
import { rougeL, exactMatch } from 'expect-llm'
import * as matchers from 'expect-llm/matchers'
import defineMatcherCases from './matcher-cases.cjs'

defineMatcherCases({ describe, test, expect })

describe('ESM build', () => {
  test('the core entry computes metrics', () => {
    expect(rougeL('the cat sat', 'the cat sat').f).toBe(1)
    expect(exactMatch('The Eiffel Tower', 'eiffel tower')).toBe(1)
  })

  test('expect-llm/matchers exports every matcher for a manual expect.extend', () => {
    expect(Object.keys(matchers).sort()).toEqual([
      'toAgreeWithLabels',
      'toBeConcise',
      'toBeFaithfulTo',
      'toBeRelevantTo',
      'toBeSemanticallySimilar',
      'toCallTool',
      'toCallTools',
      'toCompleteGoal',
      'toContainAnswer',
      'toContainKeywords',
      'toContainPII',
      'toHaveBleuAbove',
      'toHaveChrFAbove',
      'toHaveEditSimilarityAbove',
      'toHaveRougeLAbove',
      'toHaveRougeNAbove',
      'toHaveTerBelow',
      'toHaveTokenF1Above',
      'toHaveValidToolArguments',
      'toLeakSecrets',
      'toMatchAnswer',
      'toMatchSchema',
      'toPassCheck',
      'toPassJudge',
      'toPassModeration',
      'toRefuse',
      'toRetrieve',
      'toUseAtMostSteps',
    ])
  })
})
