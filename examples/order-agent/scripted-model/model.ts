/**
 * The scripted model behind the order agent's committed recordings: a deterministic stand-in for a
 * tool-calling chat model (and for the judge of `toCompleteGoal`), served by the repository's local
 * OpenAI-compatible test server (test/helpers/openai-server.ts) while `npm run examples:record-order-agent`
 * records.
 *
 * It is not an LLM and it looks nothing up: like a real model, it reads only the request (the system
 * prompt, the conversation with its tool calls and tool results, the declared tools) and decides the
 * next step from it.
 *
 * - The agent: the customer's intent (refund, order status, a person) is taken from the latest user
 *   message that states one, and the order numbers from the latest that names any, so a conversation
 *   can give them in different turns. Within a turn it looks the order up, checks the refund policy
 *   (only when the system prompt asks for it, as prompt v2 does), refunds the order's total, or
 *   escalates a damaged order the policy refuses (when the prompt says so), one tool step at a time,
 *   each step decided from the tool results already in the request. A tool the request does not
 *   declare is never called.
 * - The judge (expect-llm's `goal` template): a rule-based grader of the agent run's transcript. A goal
 *   to refund needs a refundOrder result with a refund id for the goal's order; a goal that rules the
 *   refund out needs none; escalating needs an escalateToHuman result with a ticket; a status needs the
 *   lookup; a goal that asks to tell the customer an id needs it in the last answer.
 */
import type { RecordedRequest, ScriptedReply, ScriptedToolCall } from '../../../test/helpers/openai-server.js'

type Json = Record<string, any>

interface ChatMessage {
  role: string
  content?: unknown
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>
  tool_call_id?: string
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((p: Json) => (typeof p?.text === 'string' ? p.text : '')).join('')
  return ''
}

const ORDER_ID = /\b[A-Z]\d{4}\b/g
const HAS_ORDER_ID = /\b[A-Z]\d{4}\b/
const money = (n: number) => `$${n.toFixed(2)}`

type Intent = 'refund' | 'status' | 'human'

function intentOf(text: string): Intent | undefined {
  if (/\b(?:human|person|someone|colleague|manager|representative|real agent)\b/i.test(text)) return 'human'
  if (/\b(?:refund|money back|reimburse)/i.test(text)) return 'refund'
  if (/\b(?:where|status|track|arrive|shipped|deliver)/i.test(text)) return 'status'
  return undefined
}

// ------------------------------------------------------------------------------------------ the agent

/** The tool results of the current turn (after the last user message), by tool name, in order. */
function turnResults(messages: ChatMessage[]): Array<{ name: string; args: Json; result: Json }> {
  const lastUser = messages.findLastIndex((m) => m.role === 'user')
  const calls = new Map<string, { name: string; args: Json }>()
  const out: Array<{ name: string; args: Json; result: Json }> = []
  for (const m of messages.slice(lastUser + 1)) {
    for (const c of m.tool_calls ?? []) calls.set(c.id, { name: c.function.name, args: JSON.parse(c.function.arguments) })
    if (m.role === 'tool' && m.tool_call_id) {
      const call = calls.get(m.tool_call_id)
      if (call) out.push({ ...call, result: JSON.parse(textOf(m.content)) })
    }
  }
  return out
}

/** The next step of the order agent for a chat request: tool calls, or the answer. */
export function agentStep(body: Json): ScriptedReply {
  const messages: ChatMessage[] = body.messages ?? []
  const system = textOf(messages.find((m) => m.role === 'system')?.content)
  const declared = new Set<string>((body.tools ?? []).map((t: Json) => t.function?.name))
  const userTexts = messages.filter((m) => m.role === 'user').map((m) => textOf(m.content))
  const intent = userTexts.map(intentOf).findLast((i) => i !== undefined)
  const orderIds = [...(userTexts.findLast((t) => HAS_ORDER_ID.test(t))?.match(ORDER_ID) ?? [])]
  const damaged = userTexts.some((t) => /\b(?:damaged|broken|cracked|defective|arrived smashed)\b/i.test(t))
  const results = turnResults(messages)
  const result = (name: string, orderId?: string) => results.findLast((r) => r.name === name && (orderId === undefined || r.args.orderId === orderId))?.result
  const call = (name: string, args: Json): ScriptedReply =>
    declared.has(name) ? { toolCalls: [{ name, arguments: args }] } : { text: `I'm sorry, I can't do that here (${name} is not available to me).` }

  if (intent === 'human') {
    const ticket = result('escalateToHuman')
    if (!ticket) return call('escalateToHuman', { ...(orderIds[0] ? { orderId: orderIds[0] } : {}), reason: 'The customer asked to talk to a person.' })
    return { text: `I've passed your request to a colleague (ticket ${ticket.ticketId}); they will get back to you within one business day.` }
  }
  if (intent === undefined) return { text: 'I can help with the status of an order, a refund, or put you in touch with a colleague. What do you need?' }
  if (orderIds.length === 0) return { text: 'Could you give me your order number? It starts with a letter, like A1001.' }

  if (intent === 'status') {
    const missing = orderIds.filter((id) => !result('lookupOrder', id))
    // Several orders: one step with parallel lookups, as models do.
    if (missing.length > 0) {
      const calls: ScriptedToolCall[] = missing.map((orderId) => ({ name: 'lookupOrder', arguments: { orderId } }))
      return declared.has('lookupOrder') ? { toolCalls: calls } : call('lookupOrder', {})
    }
    const lines = orderIds.map((id) => {
      const o = result('lookupOrder', id)!
      if (o.error) return `I couldn't find order ${id}; could you check the number?`
      if (o.status === 'shipped') return `Order ${id} has shipped and should arrive on ${o.eta}.`
      if (o.status === 'delivered') return `Order ${id} was delivered on ${o.deliveredAt}.`
      if (o.status === 'refunded') return `Order ${id} was refunded.`
      return `Order ${id} is being prepared.`
    })
    return { text: lines.join(' ') }
  }

  // Refund: lookup, policy check (when the prompt asks for one), refund or explain or escalate.
  const id = orderIds[0]!
  const order = result('lookupOrder', id)
  if (!order) return call('lookupOrder', { orderId: id })
  if (order.error) return { text: `I couldn't find order ${id}; could you check the number?` }
  const checksPolicy = /checkRefundPolicy/.test(system)
  const policy = checksPolicy ? result('checkRefundPolicy', id) : { eligible: true }
  if (!policy) return call('checkRefundPolicy', { orderId: id })
  if (policy.eligible) {
    const refund = result('refundOrder', id)
    if (!refund) return call('refundOrder', { orderId: id, amount: order.total })
    if (refund.error) return { text: `I couldn't refund order ${id}: ${refund.error.replace(/^refund refused: /, '')}.` }
    return { text: `I've refunded ${money(refund.amount)} for order ${id} (refund ${refund.refundId}). It reaches your card within 5 business days.` }
  }
  if (damaged && /escalate/i.test(system)) {
    const ticket = result('escalateToHuman')
    if (!ticket) return call('escalateToHuman', { orderId: id, reason: `Reported damaged, but not refundable: ${policy.reason}.` })
    return {
      text: `I can't refund order ${id} myself (${policy.reason}), so I've passed it to a colleague who handles damaged items (ticket ${ticket.ticketId}).`,
    }
  }
  return { text: `I'm sorry, I can't refund order ${id}: ${policy.reason}.` }
}

// ------------------------------------------------------------------------------------------ the judge

function tagged(prompt: string, tag: string): string {
  return prompt.split(`<${tag}>\n`)[1]?.split(`\n</${tag}>`)[0] ?? ''
}

/** The `goal` judge: is the goal achieved in the transcript of the run? */
export function gradeGoal(goal: string, run: string): { reasoning: string; score: number } {
  const lines = run.split('\n')
  const calls = lines.flatMap((l) => {
    const m = /^\[assistant, step \d+\] called (\w+)\((.*)\)$/.exec(l)
    return m ? [{ name: m[1]!, args: JSON.parse(m[2]!) as Json }] : []
  })
  const results = lines.flatMap((l) => {
    const m = /^\[tool (result|error), (\w+)\] (.*)$/.exec(l)
    if (!m) return []
    let value: Json
    try {
      value = JSON.parse(m[3]!)
    } catch {
      value = { text: m[3] }
    }
    return [{ name: m[2]!, ok: m[1] === 'result' && value.error === undefined, value }]
  })
  const finalAnswer = lines.findLast((l) => /^\[assistant, step \d+\] (?!called )/.test(l))?.replace(/^\[assistant, step \d+\] /, '') ?? ''
  const orderId = goal.match(ORDER_ID)?.[0]
  const problems: string[] = []
  const done: string[] = []
  const refunded = results.find((r) => r.name === 'refundOrder' && r.ok && (!orderId || r.value.orderId === orderId))
  const rulesOutRefund = /\b(?:not|no|never|without)\b[^.]*\brefund/i.test(goal)
  if (rulesOutRefund) {
    if (refunded) problems.push(`order ${refunded.value.orderId} was refunded (${refunded.value.refundId}), which the goal rules out`)
    else done.push('no refund was made')
  } else if (/\brefund/i.test(goal)) {
    if (!refunded) {
      const tried = calls.find((c) => c.name === 'refundOrder')
      problems.push(tried ? 'the refundOrder call did not succeed' : `no refundOrder call was made${orderId ? ` for ${orderId}` : ''}`)
    } else {
      done.push(`refundOrder returned ${refunded.value.refundId}`)
      if (/\bin full\b|\bfull\b/i.test(goal)) {
        const order = results.find((r) => r.name === 'lookupOrder' && r.ok && r.value.id === refunded.value.orderId)
        if (order && order.value.total !== refunded.value.amount) problems.push(`the refund was ${refunded.value.amount}, not the total ${order.value.total}`)
      }
      if (/refund id/i.test(goal) && !finalAnswer.includes(refunded.value.refundId)) problems.push('the final answer does not give the refund id')
    }
  }
  if (/\b(?:escalat|human|colleague|person)/i.test(goal) && !/\bnot\b[^.]*\b(?:escalat|human|colleague)/i.test(goal)) {
    const ticket = results.find((r) => r.name === 'escalateToHuman' && r.ok)
    if (!ticket) problems.push('no escalateToHuman call succeeded')
    else if (/ticket/i.test(goal) && !finalAnswer.includes(ticket.value.ticketId)) problems.push('the final answer does not give the ticket id')
    else done.push(`escalated (${ticket.value.ticketId})`)
  }
  if (/\b(?:status|where|arriv)/i.test(goal)) {
    const looked = results.find((r) => r.name === 'lookupOrder' && r.ok && (!orderId || r.value.id === orderId))
    if (!looked) problems.push(`order ${orderId ?? ''} was never looked up`.replace('  ', ' '))
    else if (!finalAnswer.includes(looked.value.eta ?? looked.value.deliveredAt ?? looked.value.status))
      problems.push('the final answer does not state what the lookup returned')
    else done.push('the status comes from the lookup')
  }
  if (problems.length > 0) return { reasoning: `Not achieved: ${problems.join('; ')}.`, score: 0 }
  if (done.length === 0) return { reasoning: 'Nothing in the run shows the goal was worked on.', score: 0 }
  return { reasoning: `Achieved: ${done.join('; ')}.`, score: 1 }
}

// ------------------------------------------------------------------------------------------- server

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4))

/** The reply script for the test server: the goal judge's prompts, and the agent's steps. */
export function scriptedReply(req: RecordedRequest): ScriptedReply {
  if (req.endpoint !== 'chat') return { status: 404, errorMessage: `the scripted order model serves chat completions only, not ${req.path}` }
  const messages: ChatMessage[] = req.body?.messages ?? []
  const input = messages.reduce((s, m) => s + 4 + tokens(JSON.stringify(m)), 0)
  if (req.lastUserText.startsWith('You are judging whether an AI agent achieved a goal')) {
    const text = JSON.stringify(gradeGoal(tagged(req.lastUserText, 'goal'), tagged(req.lastUserText, 'agent_run')))
    return { text, usage: { input, output: tokens(text) }, latencyMs: 200 }
  }
  const reply = agentStep(req.body ?? {})
  const output = tokens(JSON.stringify(reply))
  return { ...reply, usage: { input, output }, latencyMs: 300 + 6 * output }
}
