export { createOrderAgent, type AgentTurn, type OrderAgent, type OrderAgentOptions } from './agent.js'
export { PROMPTS, type PromptVersion } from './prompts.js'
export {
  OrderStore,
  refundPolicy,
  REFUND_WINDOW_DAYS,
  SAMPLE_ORDERS,
  type Order,
  type OrderItem,
  type PolicyDecision,
  type Refund,
  type Ticket,
} from './store.js'
export { orderTools, runTool, type ToolName } from './tools.js'
