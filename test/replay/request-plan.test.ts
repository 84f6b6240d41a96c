// What a request does in each replay mode (src/replay/mode.ts requestPlan), the pure step of ReplayEngine.handle.
import { describe, expect, test } from 'vitest'
import { requestPlan } from '../../src/replay/mode.js'

describe('requestPlan', () => {
  test('replay: looks its fixture up and fails on a miss, never waits for a recording', () => {
    expect(requestPlan('replay')).toEqual({ claim: false, lookUp: true, onMiss: 'fail' })
  })

  test('record: takes the key (one recording per key), replays a fixture it finds, records a miss', () => {
    expect(requestPlan('record')).toEqual({ claim: true, lookUp: true, onMiss: 'record' })
  })

  test('rerecord: takes the key and records without looking a fixture up', () => {
    expect(requestPlan('rerecord')).toEqual({ claim: true, lookUp: false, onMiss: 'record' })
  })
})
