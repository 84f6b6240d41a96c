/**
 * The shop's order store: a few orders in memory, the refund policy, refunds and support tickets.
 *
 * It stands for the database and the back-office API a real agent's tools would call. Time is passed
 * in (`today`), so the policy decides the same way on every run and recordings stay valid.
 */

export interface OrderItem {
  sku: string
  name: string
  price: number
  /** Final-sale items (clearance, personalised goods) are never refunded. */
  finalSale: boolean
}

export interface Order {
  id: string
  customer: string
  status: 'processing' | 'shipped' | 'delivered' | 'refunded'
  placedAt: string
  /** ISO date of delivery, once delivered. */
  deliveredAt?: string
  /** ISO date the carrier expects to deliver, while shipped. */
  eta?: string
  items: OrderItem[]
  total: number
}

export interface PolicyDecision {
  eligible: boolean
  /** Why, in words the agent can pass on. */
  reason: string
  /** The most that may be refunded (0 when not eligible). */
  maxAmount: number
}

/** Refunds are accepted up to this many days after delivery. */
export const REFUND_WINDOW_DAYS = 30

const DAY = 24 * 60 * 60 * 1000

/**
 * The refund policy: delivered orders, within 30 days of delivery, without final-sale items, not
 * refunded already.
 */
export function refundPolicy(order: Order, today: Date): PolicyDecision {
  const no = (reason: string): PolicyDecision => ({ eligible: false, reason, maxAmount: 0 })
  if (order.status === 'refunded') return no(`order ${order.id} has already been refunded`)
  if (order.status !== 'delivered' || order.deliveredAt === undefined) return no(`order ${order.id} has not been delivered yet`)
  const days = Math.floor((today.getTime() - Date.parse(order.deliveredAt)) / DAY)
  if (days > REFUND_WINDOW_DAYS)
    return no(`order ${order.id} was delivered ${days} days ago, and refunds are accepted within ${REFUND_WINDOW_DAYS} days of delivery`)
  const finalSale = order.items.filter((i) => i.finalSale)
  if (finalSale.length > 0) return no(`order ${order.id} contains final-sale items (${finalSale.map((i) => i.name).join(', ')}), which cannot be refunded`)
  return { eligible: true, reason: `order ${order.id} was delivered ${days} days ago and has no final-sale items`, maxAmount: order.total }
}

export interface Refund {
  refundId: string
  orderId: string
  amount: number
}

export interface Ticket {
  ticketId: string
  orderId?: string
  reason: string
}

/** The orders of the example, as of 2026-11-30. */
export const SAMPLE_ORDERS: readonly Order[] = [
  {
    id: 'A1001',
    customer: 'Dana Reyes',
    status: 'delivered',
    placedAt: '2026-11-14',
    deliveredAt: '2026-11-20',
    items: [{ sku: 'LAMP-01', name: 'Desk lamp', price: 42.5, finalSale: false }],
    total: 42.5,
  },
  {
    id: 'A1002',
    customer: 'Sam Okafor',
    status: 'delivered',
    placedAt: '2026-10-03',
    deliveredAt: '2026-10-09',
    items: [{ sku: 'KETTLE-2', name: 'Electric kettle', price: 35, finalSale: false }],
    total: 35,
  },
  {
    id: 'A1003',
    customer: 'Lee Park',
    status: 'delivered',
    placedAt: '2026-11-18',
    deliveredAt: '2026-11-24',
    items: [
      { sku: 'MUG-ENGR', name: 'Engraved mug', price: 18, finalSale: true },
      { sku: 'COAST-4', name: 'Coaster set', price: 12, finalSale: false },
    ],
    total: 30,
  },
  {
    id: 'A1004',
    customer: 'Ana Lima',
    status: 'shipped',
    placedAt: '2026-11-27',
    eta: '2026-12-02',
    items: [{ sku: 'BAG-07', name: 'Canvas backpack', price: 59, finalSale: false }],
    total: 59,
  },
  {
    id: 'A1005',
    customer: 'Jo Brandt',
    status: 'refunded',
    placedAt: '2026-11-01',
    deliveredAt: '2026-11-06',
    items: [{ sku: 'SCARF-3', name: 'Wool scarf', price: 24, finalSale: false }],
    total: 24,
  },
]

/** An in-memory order store. Each test makes its own, so refunds and tickets never leak between tests. */
export class OrderStore {
  private readonly orders = new Map<string, Order>()
  readonly refunds: Refund[] = []
  readonly tickets: Ticket[] = []

  constructor(
    orders: readonly Order[] = SAMPLE_ORDERS,
    /** "Now", for the refund window. */
    readonly today: Date = new Date('2026-11-30T12:00:00Z'),
  ) {
    for (const o of orders) this.orders.set(o.id, structuredClone(o))
  }

  find(orderId: string): Order | undefined {
    const order = this.orders.get(orderId)
    return order && structuredClone(order)
  }

  policy(orderId: string): PolicyDecision | undefined {
    const order = this.orders.get(orderId)
    return order && refundPolicy(order, this.today)
  }

  /** Refunds an order; throws when the policy refuses or the amount is wrong (the tool turns that into an error result). */
  refund(orderId: string, amount: number): Refund {
    const order = this.orders.get(orderId)
    if (!order) throw new Error(`no order ${orderId}`)
    const decision = refundPolicy(order, this.today)
    if (!decision.eligible) throw new Error(`refund refused: ${decision.reason}`)
    if (!(amount > 0) || amount > decision.maxAmount) throw new Error(`refund refused: the amount must be more than 0 and at most ${decision.maxAmount}`)
    order.status = 'refunded'
    const refund = { refundId: `R-${7000 + this.refunds.length + 1}`, orderId, amount }
    this.refunds.push(refund)
    return refund
  }

  openTicket(reason: string, orderId?: string): Ticket {
    const ticket = { ticketId: `T-${5000 + this.tickets.length + 1}`, ...(orderId ? { orderId } : {}), reason }
    this.tickets.push(ticket)
    return ticket
  }
}
