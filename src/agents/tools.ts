/**
 * Tool definitions as users hold them (OpenAI chat and Responses function tools, Anthropic tools, AI SDK
 * tool sets, LangChain and MCP tools), reduced to one schema per tool name, and the check of each tool
 * call's arguments against them.
 *
 * @module
 */
import { describeValue } from '../errors.js'
import { isJsonSchemaObject, isStandardSchema, SchemaUsageError, validateSchema, type SchemaIssue, type SchemaLike } from '../schema.js'
import { isRecord, TrajectoryError } from './builder.js'
import type { ToolCallItem, Trajectory } from './types.js'

/** The schema of a tool that declares no parameters: an empty object, nothing else. */
const NO_PARAMETERS = { type: 'object', properties: {}, additionalProperties: false } as const

const TOOLS_FIX =
  "Pass the tools the request declared: OpenAI chat tools ({ type: 'function', function: { name, parameters } }), " +
  "Responses tools ({ type: 'function', name, parameters }), Anthropic tools ({ name, input_schema }), " +
  'an AI SDK tool set ({ name: tool({ inputSchema }) }), LangChain tools, or { name: schema }.'

function toolsError(reason: string, fix: string): TrajectoryError {
  return new TrajectoryError(reason, fix, 'read the tool definitions')
}

/** The input schema of one AI SDK tool, LangChain tool or MCP tool entry. */
function schemaOf(entry: Record<string, unknown>, name: string): SchemaLike {
  const candidate = entry.inputSchema ?? entry.parameters ?? entry.input_schema ?? entry.schema
  if (candidate === undefined) return NO_PARAMETERS
  if (isStandardSchema(candidate)) return candidate
  // The AI SDK wraps JSON Schemas (`jsonSchema()`, `zodSchema()`) in an object that carries the JSON Schema.
  if (isRecord(candidate) && isRecord(candidate.jsonSchema)) return candidate.jsonSchema
  if (isJsonSchemaObject(candidate)) return candidate
  throw toolsError(`the schema of tool "${name}" is ${describeValue(candidate)}, neither a Standard Schema nor a JSON Schema`, TOOLS_FIX)
}

/**
 * One schema per tool name, from the tool definitions a request declared.
 *
 * @throws TrajectoryError when the value is not a list or map of tool definitions.
 *
 * @example
 * ```ts
 * toolSchemas([{ type: 'function', function: { name: 'lookupOrder', parameters: { type: 'object' } } }])
 * // Map { 'lookupOrder' => { type: 'object' } }
 * ```
 */
export function toolSchemas(tools: unknown): Map<string, SchemaLike> {
  const out = new Map<string, SchemaLike>()
  if (Array.isArray(tools)) {
    tools.forEach((tool, i) => {
      if (!isRecord(tool)) throw toolsError(`tool ${i} is ${describeValue(tool)}, not a tool definition`, TOOLS_FIX)
      const t = tool
      if (t.type === 'function' && isRecord(t.function)) {
        const name = t.function.name
        if (typeof name !== 'string') throw toolsError(`tool ${i} has no function name`, TOOLS_FIX)
        out.set(name, t.function.parameters === undefined ? NO_PARAMETERS : schemaOf({ parameters: t.function.parameters }, name))
        return
      }
      if (typeof t.name !== 'string') {
        // Hosted tools ({ type: 'web_search' }, ...) have no name and no arguments of the app's.
        if (typeof t.type === 'string' && t.type !== 'function') return
        throw toolsError(`tool ${i} has no name`, TOOLS_FIX)
      }
      out.set(t.name, schemaOf(t, t.name))
    })
    if (out.size > 0) return out
    if (tools.length > 0) throw toolsError('the tools declare no function tool (only hosted tools such as web search)', TOOLS_FIX)
  }
  if (isRecord(tools)) {
    for (const [name, entry] of Object.entries(tools)) {
      if (isStandardSchema(entry)) out.set(name, entry)
      else if (isRecord(entry) && ('inputSchema' in entry || 'parameters' in entry || 'input_schema' in entry || 'execute' in entry || 'description' in entry))
        out.set(name, schemaOf(entry, name))
      else if (isJsonSchemaObject(entry)) out.set(name, entry)
      else throw toolsError(`tool "${name}" is ${describeValue(entry)}, not a tool definition or a schema`, TOOLS_FIX)
    }
    if (out.size > 0) return out
  }
  throw toolsError(`the tools are ${Array.isArray(tools) ? 'an empty array' : describeValue(tools)}`, TOOLS_FIX)
}

/** The verdict on one tool call's arguments. */
export interface ArgumentCheck {
  call: ToolCallItem
  /** 0-based position among the trajectory's tool calls. */
  index: number
  valid: boolean
  /** Why it is invalid: an unknown tool, arguments that are not JSON, or schema issues. */
  problem?: 'unknown tool' | 'not JSON' | 'schema'
  issues: SchemaIssue[]
}

/**
 * Checks every tool call of a trajectory against the tools' schemas: the tool must be declared, its
 * arguments must be JSON and satisfy the tool's schema (ajv for JSON Schemas, `~standard.validate` for
 * Standard Schemas).
 *
 * @throws SchemaUsageError when a tool's schema does not compile or validates asynchronously.
 *
 * @example
 * ```ts
 * checkToolArguments(readTrajectory(completion), toolSchemas(request.tools)).filter((c) => !c.valid)
 * ```
 */
export function checkToolArguments(trajectory: Trajectory, schemas: ReadonlyMap<string, SchemaLike>): ArgumentCheck[] {
  const calls = trajectory.items.filter((i): i is ToolCallItem => i.type === 'tool-call')
  return calls.map((call, index) => {
    const schema = schemas.get(call.name)
    if (schema === undefined) return { call, index, valid: false, problem: 'unknown tool', issues: [] }
    if (call.argumentsError !== undefined) return { call, index, valid: false, problem: 'not JSON', issues: [{ path: '', message: call.argumentsError }] }
    const result = validateSchema(call.arguments, schema)
    return result.ok ? { call, index, valid: true, issues: [] } : { call, index, valid: false, problem: 'schema', issues: result.issues }
  })
}

export { SchemaUsageError }
