import type { KeyMaterial } from './types.js'

/** One difference between a recorded request and the actual one. */
export interface KeyDifference {
  /** JSON pointer into the key material, e.g. `/body/messages/0/content`. */
  path: string
  recorded: unknown
  actual: unknown
  /** `true` when an array changed length (reported once, at the array). */
  lengthChange?: boolean
}

const MISSING = Symbol('missing')

/**
 * Compares two key materials leaf by leaf. Arrays of different lengths are reported once at the array
 * (and their common prefix is still compared).
 */
export function diffMaterial(recorded: KeyMaterial, actual: KeyMaterial): KeyDifference[] {
  const out: KeyDifference[] = []
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) out.push({ path: path || '/', recorded: `${a.length} item(s)`, actual: `${b.length} item(s)`, lengthChange: true })
      for (let i = 0; i < Math.min(a.length, b.length); i++) walk(a[i], b[i], `${path}/${i}`)
      return
    }
    const aObj = a !== null && typeof a === 'object' && !Array.isArray(a)
    const bObj = b !== null && typeof b === 'object' && !Array.isArray(b)
    if (aObj && bObj) {
      const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)])
      for (const k of [...keys].sort()) {
        const av = k in (a as object) ? (a as Record<string, unknown>)[k] : MISSING
        const bv = k in (b as object) ? (b as Record<string, unknown>)[k] : MISSING
        walk(av, bv, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`)
      }
      return
    }
    if (JSON.stringify(a) !== JSON.stringify(b) || a === MISSING || b === MISSING) {
      out.push({ path: path || '/', recorded: a, actual: b })
    }
  }
  walk(recorded, actual, '')
  return out
}

/** Shows a value for the diff: long strings are cut around `around` (the first differing offset), ±60 characters. */
function show(value: unknown, around?: number): string {
  if (value === MISSING) return '(absent)'
  if (typeof value !== 'string') return JSON.stringify(value) ?? String(value)
  if (value.length <= 140 || around === undefined) return JSON.stringify(value.length > 140 ? `${value.slice(0, 140)}…` : value)
  const from = Math.max(0, around - 60)
  const to = Math.min(value.length, around + 60)
  const excerpt = `${from > 0 ? '…' : ''}${JSON.stringify(value.slice(from, to))}${to < value.length ? '…' : ''}`
  return `${excerpt} (${value.length} chars, first difference at ${around})`
}

function firstDifference(a: string, b: string): number {
  let i = 0
  // Past the end of a string charCodeAt is NaN, which equals nothing: the loop stops at the shorter one's end.
  while (a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

/** Names of fields that change from run to run (ids, times, sessions), whole or as the last part of a name. */
const VOLATILE_WORDS =
  'id|ids|uuid|guid|user|metadata|timestamp|time|date|datetime|created|nonce|trace|traceid|session|request_id|run_id|safety_identifier|prompt_cache_key'
const VOLATILE_NAME = new RegExp(`(?:^|[_-])(?:${VOLATILE_WORDS})$`, 'i')
const VOLATILE_VALUE = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}.*|[0-9a-f]{24,})$/i

/** A JSON pointer under `/body/` turned into the dot path accepted by `ignoreBodyFields`. */
function bodyFieldPath(pointer: string): string | null {
  if (!pointer.startsWith('/body/')) return null
  return pointer
    .slice(6)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.')
}

/**
 * Formats the differences between the nearest recording and the actual request, with hints for
 * model-only, stream-only and volatile-looking differences. At most `limit` paths are listed.
 */
export function formatDifferences(diffs: KeyDifference[], limit = 10): string[] {
  const lines: string[] = []
  for (const d of diffs.slice(0, limit)) {
    lines.push(`    ${d.path}${d.lengthChange ? ' (length)' : ''}`)
    const at = typeof d.recorded === 'string' && typeof d.actual === 'string' ? firstDifference(d.recorded, d.actual) : undefined
    lines.push(`      - recorded: ${show(d.recorded, at)}`)
    lines.push(`      + actual:   ${show(d.actual, at)}`)
  }
  if (diffs.length > limit) lines.push(`    … and ${diffs.length - limit} more path(s)`)
  return lines
}

type Json = Record<string, unknown>
const isJson = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)
/** A JSON pointer segment that is an array index ("0", "12"). A missing segment is none: String(undefined) is "undefined". */
const isIndex = (segment: string | undefined): segment is string => /^\d+$/.test(String(segment))

/**
 * The tool result a body path points into, in any wire dialect: an OpenAI chat `role: 'tool'` message
 * (`tool_call_id`; the AI SDK and LangChain send these too), an Anthropic `tool_result` block (`tool_use_id`),
 * a Responses API `function_call_output` item (`call_id`) or a Gemini `functionResponse` part. The tool's
 * name comes from the call that asked for it earlier in the conversation.
 */
function toolResultAt(body: unknown, pointer: string): { where: string; name: string | null; id: string | null } | null {
  if (!isJson(body)) return null
  // split always gives a first segment; the others may be missing.
  const [list, index, blocks, blockIndex] = pointer.slice('/body/'.length).split('/') as [string, ...string[]]
  const items = body[list]
  if (!Array.isArray(items) || !isIndex(index)) return null
  const i = Number(index)
  const item = items[i]
  if (!isJson(item)) return null
  const before = items.slice(0, i)
  const where = `${list}[${i}]`
  // OpenAI chat: the tool message, answering an assistant's tool_calls[].id.
  if (item.role === 'tool') {
    const id = typeof item.tool_call_id === 'string' ? item.tool_call_id : null
    const call = before.flatMap((m) => (isJson(m) && Array.isArray(m.tool_calls) ? m.tool_calls : [])).find((c) => isJson(c) && c.id === id) as Json | undefined
    const fn = call && isJson(call.function) ? call.function : undefined
    return { where, id, name: typeof fn?.name === 'string' ? fn.name : null }
  }
  // Responses API input item.
  if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
    const id = typeof item.call_id === 'string' ? item.call_id : null
    const call = before.find((m) => isJson(m) && (m.type === 'function_call' || m.type === 'custom_tool_call') && m.call_id === id) as Json | undefined
    return { where, id, name: typeof call?.name === 'string' ? call.name : null }
  }
  // Anthropic content block, or Gemini part: messages[i].content[j] / contents[i].parts[j].
  // Without a blocks segment there is no block index either: item["undefined"] is then never indexed.
  const blockList = item[String(blocks)]
  const block = Array.isArray(blockList) && isIndex(blockIndex) ? blockList[Number(blockIndex)] : undefined
  if (!isJson(block)) return null
  if (block.type === 'tool_result') {
    const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : null
    const use = before
      .flatMap((m) => (isJson(m) && Array.isArray(m.content) ? m.content : []))
      .find((b) => isJson(b) && b.type === 'tool_use' && b.id === id) as Json | undefined
    return { where: `${where}.${blocks}[${blockIndex}]`, id, name: typeof use?.name === 'string' ? use.name : null }
  }
  if (isJson(block.functionResponse)) {
    const name = block.functionResponse.name
    return { where: `${where}.${blocks}[${blockIndex}]`, id: null, name: typeof name === 'string' ? name : null }
  }
  return null
}

/**
 * Hints that explain a difference list. With the actual request's key material, a difference inside a
 * tool result names the tool whose result changed.
 *
 * @example
 * ```ts
 * diffHints([{ path: '/body/model', recorded: 'gpt-4o', actual: 'gpt-4.1' }])
 * // ['Only the model differs (recorded "gpt-4o", now "gpt-4.1"). If the model change is intended, ...']
 * ```
 */
export function diffHints(diffs: KeyDifference[], actual?: KeyMaterial): string[] {
  const hints: string[] = []
  const toolResults = new Set<string>()
  for (const d of diffs) {
    if (!actual || !d.path.startsWith('/body/')) continue
    const result = toolResultAt(actual.body, d.path)
    if (!result || toolResults.has(result.where)) continue
    toolResults.add(result.where)
    const tool = result.name ? `the tool ${result.name}` : 'a tool'
    hints.push(
      `${result.where} is the result of ${tool}${result.id ? ` (call ${result.id})` : ''}, and it differs ` +
        `from the recording: the tool returned something else this time. If it varies between runs (ids, ` +
        `times, live data), make the tool deterministic in the test; if the change is intended, record again.`,
    )
  }
  const paths = diffs.map((d) => d.path)
  if (paths.length > 0 && paths.every((p) => p === '/body/model')) {
    const d = diffs[0]!
    hints.push(
      `Only the model differs (recorded ${show(d.recorded)}, now ${show(d.actual)}). If the model change ` +
        `is intended, record again with EXPECT_LLM_REPLAY=rerecord.`,
    )
  }
  const stream = diffs.find((d) => d.path === '/body/stream')
  if (stream) {
    hints.push(
      stream.actual === true
        ? 'The recording is a non-streaming call, but the test now streams (stream: true). Record the streaming call.'
        : 'The recording is a streaming call, but the test now makes a non-streaming call. Record the non-streaming call.',
    )
  }
  if (paths.some((p) => p.startsWith('/origin'))) hints.push('The host differs: check baseURL, or add the host to configure({ replay: { hosts } }).')
  for (const d of diffs) {
    const field = bodyFieldPath(d.path)
    if (!field) continue
    const last = field.slice(field.lastIndexOf('.') + 1)
    const looksVolatile = VOLATILE_NAME.test(last) || (typeof d.actual === 'string' && VOLATILE_VALUE.test(d.actual))
    if (looksVolatile) {
      hints.push(`"${field}" looks volatile: if it changes every run, add '${field}' to configure({ replay: { ignoreBodyFields } }).`)
    }
  }
  return hints
}
