// CommonJS consumer: the built dist/*.cjs files, registered by setupFilesAfterEnv: ['expect-llm/jest'].
const { describe, test, expect } = require('@jest/globals')
const core = require('expect-llm')
const matchers = require('expect-llm/matchers')
const defineMatcherCases = require('./matcher-cases.cjs')

defineMatcherCases({ describe, test, expect })

describe('CommonJS build', () => {
  test('the core entry computes metrics', () => {
    expect(core.rougeL('the cat sat', 'the cat sat').f).toBe(1)
    expect(core.exactMatch('The Eiffel Tower', 'eiffel tower')).toBe(1)
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
