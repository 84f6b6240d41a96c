// The agent over a golden dataset of conversations (golden/conversations.jsonl): each case says which
// tools the agent must call, with which arguments and in which order (`expectedTools`), and what the run
// must achieve (`criteria`, for the goal judge). Two cases are conversations (`messages`) played one user
// turn at a time, where the order number and the request come in different turns.
//
// Per case: toolOrder (the expected calls, in the case's order mode), toolArguments (the expected
// arguments, and every call against the tools' JSON Schemas), goal (the judge), keywords; toolF1 is
// recorded and gated on its mean. Run it with `npm run demo`.
import { describeGolden } from 'expect-llm/vitest'
import { turnByTurn } from 'expect-llm'
import { createOrderAgent, OrderStore, orderTools } from '../src/index.js'
import { testClient } from './client.js'

const client = testClient()
// One store per case, kept across the turns of a conversation, so a refund in turn 1 is there in turn 2.
const stores = new Map<string, OrderStore>()
const storeFor = (id: string) => stores.get(id) ?? stores.set(id, new OrderStore()).get(id)!

describeGolden('order agent, prompt v2', {
  dataset: new URL('../golden/conversations.jsonl', import.meta.url),
  // Called once per user message with the conversation so far; the checks score the last turn.
  task: turnByTurn(async (messages, c) => {
    const agent = createOrderAgent({ client, store: storeFor(c.id) })
    const turn = await agent.run(messages)
    // The whole conversation of the turn (tool calls and results included), its answer, and the declared
    // tools, so toolArguments also checks every call against their JSON Schemas.
    return { trajectory: turn.messages, output: turn.reply, tools: orderTools }
  }),
  scorers: {
    toolF1: true,
    toolOrder: true,
    toolArguments: true,
    goal: true,
    keywords: true,
  },
  thresholds: { passRate: 1, mean: { toolF1: 0.95, goal: 1 } },
})
