// The replay mode (src/replay/mode.ts): which mode a run uses, and the CI guard that never lets CI record.
import { describe, expect, test } from 'vitest'
import { ciRefusalMessage, isCi, REPLAY_MODES, resolveMode } from '../../src/replay/mode.js'

describe('isCi', () => {
  test.each(['true', '1', 'yes', 'TRUE', 'github-actions'])('CI=%j is CI', (value) => {
    expect(isCi({ CI: value })).toBe(true)
  })

  test.each(['', '0', 'false', 'FALSE', 'False'])('CI=%j is not CI', (value) => {
    expect(isCi({ CI: value })).toBe(false)
  })

  test('an unset CI is not CI', () => {
    expect(isCi({})).toBe(false)
  })

  test('reads process.env by default', () => {
    const before = process.env.CI
    try {
      process.env.CI = 'true'
      expect(isCi()).toBe(true)
      process.env.CI = 'false'
      expect(isCi()).toBe(false)
    } finally {
      if (before === undefined) delete process.env.CI
      else process.env.CI = before
    }
  })
})

describe('resolveMode', () => {
  test('every mode can be chosen by the option, outside CI', () => {
    for (const mode of REPLAY_MODES) expect(resolveMode(mode, {})).toEqual({ mode, source: 'options' })
    expect(REPLAY_MODES).toEqual(['replay', 'record', 'rerecord', 'live'])
  })

  test('EXPECT_LLM_REPLAY wins over the option, whatever its case and surrounding spaces', () => {
    expect(resolveMode('replay', { EXPECT_LLM_REPLAY: '  Record ' })).toEqual({ mode: 'record', source: 'env' })
  })

  test('an empty or blank EXPECT_LLM_REPLAY leaves the option (or the default) in charge', () => {
    expect(resolveMode('live', { EXPECT_LLM_REPLAY: '' })).toEqual({ mode: 'live', source: 'options' })
    expect(resolveMode(undefined, { EXPECT_LLM_REPLAY: '   ' })).toEqual({ mode: 'replay', source: 'default' })
  })

  test.each(['record', 'rerecord', 'live'] as const)('CI refuses %s (from the option or the variable) and replays', (mode) => {
    expect(resolveMode(mode, { CI: 'true' })).toEqual({ mode: 'replay', refusedInCi: mode, source: 'options' })
    expect(resolveMode(undefined, { CI: '1', EXPECT_LLM_REPLAY: mode })).toEqual({ mode: 'replay', refusedInCi: mode, source: 'env' })
  })

  test('replay in CI is not a refusal', () => {
    expect(resolveMode('replay', { CI: 'true' })).toEqual({ mode: 'replay', source: 'options' })
  })

  test('only EXPECT_LLM_ALLOW_RECORD_IN_CI=1 lets CI record', () => {
    expect(resolveMode('record', { CI: 'true', EXPECT_LLM_ALLOW_RECORD_IN_CI: '1' })).toEqual({ mode: 'record', source: 'options' })
    for (const allow of ['true', '0', '', 'yes']) {
      expect(resolveMode('record', { CI: 'true', EXPECT_LLM_ALLOW_RECORD_IN_CI: allow }).mode).toBe('replay')
    }
  })

  test('a CI of "false" records', () => {
    expect(resolveMode('record', { CI: 'false' })).toEqual({ mode: 'record', source: 'options' })
  })

  test('an unknown mode from the option is named with where it came from', () => {
    expect(() => resolveMode('recrod' as never, {})).toThrow(
      new TypeError('[expect-llm] Failed to choose a replay mode: the replay mode option is "recrod". Use one of replay, record, rerecord, live.'),
    )
  })

  test('an unknown mode from the variable quotes it as it was set', () => {
    expect(() => resolveMode('record', { EXPECT_LLM_REPLAY: ' Bogus' })).toThrow(
      '[expect-llm] Failed to choose a replay mode: EXPECT_LLM_REPLAY is " Bogus". Use one of replay, record, rerecord, live.',
    )
  })

  test('reads process.env by default', () => {
    const saved = { mode: process.env.EXPECT_LLM_REPLAY, ci: process.env.CI }
    try {
      process.env.EXPECT_LLM_REPLAY = 'live'
      delete process.env.CI
      expect(resolveMode('record')).toEqual({ mode: 'live', source: 'env' })
    } finally {
      for (const [name, value] of [
        ['EXPECT_LLM_REPLAY', saved.mode],
        ['CI', saved.ci],
      ] as const) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    }
  })
})

describe('ciRefusalMessage', () => {
  test('says what was refused, why, and the two ways out', () => {
    expect(ciRefusalMessage('record')).toBe(
      '[expect-llm] Failed to use replay mode "record": CI is set, so expect-llm only replays recorded fixtures and never calls a model. ' +
        'Record on your machine and commit the fixtures, or set EXPECT_LLM_ALLOW_RECORD_IN_CI=1 to record in CI on purpose.',
    )
  })
})
