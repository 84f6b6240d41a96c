// Process-wide state lives in named slots on globalThis, shared by every build through Symbol.for.
import { afterEach, expect, test } from 'vitest'
import { peekProcessSlot, processSlot, setProcessSlot, sharedMark } from '../src/process-state.js'

afterEach(() => setProcessSlot('replay-own-requests', undefined))

test('a slot is created once and kept under Symbol.for("expect-llm.<name>")', () => {
  setProcessSlot('replay-own-requests', undefined)
  const first = processSlot('replay-own-requests', () => new Map<string, number>())
  expect(processSlot('replay-own-requests', () => new Map())).toBe(first)
  expect((globalThis as Record<symbol, unknown>)[Symbol.for('expect-llm.replay-own-requests')]).toBe(first)
})

test('peek does not create; set with undefined removes the slot', () => {
  setProcessSlot('replay-own-requests', undefined)
  expect(peekProcessSlot('replay-own-requests')).toBeUndefined()
  setProcessSlot('replay-own-requests', new Map([['GET x', 1]]))
  expect(peekProcessSlot<Map<string, number>>('replay-own-requests')?.get('GET x')).toBe(1)
  setProcessSlot('replay-own-requests', undefined)
  expect(Symbol.for('expect-llm.replay-own-requests') in globalThis).toBe(false)
})

test('a mark is the same symbol in every build', () => {
  expect(sharedMark('batching-embedder')).toBe(Symbol.for('expect-llm.batching-embedder'))
})
