// The refund policy and the store are plain code: test them without a model, before testing the agent.
import { describe, expect, it } from 'vitest'
import { OrderStore, refundPolicy, runTool, SAMPLE_ORDERS } from '../src/index.js'

const today = new Date('2026-11-30T12:00:00Z')
const order = (id: string) => SAMPLE_ORDERS.find((o) => o.id === id)!

describe('refundPolicy', () => {
  it('accepts a delivered order within 30 days with no final-sale item, for its total', () => {
    expect(refundPolicy(order('A1001'), today)).toEqual({ eligible: true, reason: expect.stringContaining('10 days ago'), maxAmount: 42.5 })
  })

  it('refuses late, final-sale, undelivered and refunded orders, saying why', () => {
    expect(refundPolicy(order('A1002'), today)).toMatchObject({ eligible: false, reason: expect.stringContaining('within 30 days') })
    expect(refundPolicy(order('A1003'), today)).toMatchObject({ eligible: false, reason: expect.stringContaining('final-sale items (Engraved mug)') })
    expect(refundPolicy(order('A1004'), today)).toMatchObject({ eligible: false, reason: expect.stringContaining('not been delivered') })
    expect(refundPolicy(order('A1005'), today)).toMatchObject({ eligible: false, reason: expect.stringContaining('already been refunded') })
  })

  it('counts day 30 in and day 31 out', () => {
    const delivered = (deliveredAt: string) => ({ ...order('A1001'), deliveredAt })
    expect(refundPolicy(delivered('2026-10-31T12:00:00Z'), today).eligible).toBe(true)
    expect(refundPolicy(delivered('2026-10-30T12:00:00Z'), today).eligible).toBe(false)
  })
})

describe('the tools', () => {
  it('refund once, then refuse: the store enforces the policy even if the model skips the check', () => {
    const store = new OrderStore()
    expect(runTool(store, 'refundOrder', { orderId: 'A1001', amount: 42.5 })).toEqual({ refundId: 'R-7001', orderId: 'A1001', amount: 42.5 })
    expect(runTool(store, 'refundOrder', { orderId: 'A1001', amount: 42.5 })).toEqual({ error: expect.stringContaining('already been refunded') })
    expect(runTool(store, 'refundOrder', { orderId: 'A1002', amount: 35 })).toEqual({ error: expect.stringContaining('within 30 days') })
  })

  it('refuse an amount over the total, and report unknown orders and tools as errors, not exceptions', () => {
    const store = new OrderStore()
    expect(runTool(store, 'refundOrder', { orderId: 'A1001', amount: 100 })).toEqual({ error: expect.stringContaining('at most 42.5') })
    expect(runTool(store, 'lookupOrder', { orderId: 'Z9999' })).toEqual({ error: 'no order Z9999' })
    expect(runTool(store, 'deleteOrder', { orderId: 'A1001' })).toEqual({ error: 'unknown tool deleteOrder' })
    expect(store.refunds).toEqual([])
  })

  it('open tickets with increasing ids', () => {
    const store = new OrderStore()
    expect(runTool(store, 'escalateToHuman', { reason: 'The customer asked to talk to a person.' })).toEqual({ ticketId: 'T-5001', reason: expect.any(String) })
    expect(runTool(store, 'escalateToHuman', { orderId: 'A1003', reason: 'Damaged on arrival.' })).toMatchObject({ ticketId: 'T-5002', orderId: 'A1003' })
  })
})
