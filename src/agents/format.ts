/**
 * Trajectories as text: one-line tool calls for failure messages, the step-by-step view, and the
 * transcript a judge reads.
 *
 * @module
 */
import { schemaLabel } from '../schema.js'
import type { ArgumentDifference, CallPattern, SequenceMatch } from './match.js'
import type { ToolCallItem, Trajectory, TrajectoryItem } from './types.js'

/** Turns a value into one line of text. */
export type Stringify = (value: unknown) => string

const CONTAINERS = new Set([
  'ObjectContaining',
  'ObjectNotContaining',
  'ArrayContaining',
  'ArrayNotContaining',
  'StringMatching',
  'StringNotMatching',
  'StringContaining',
  'StringNotContaining',
])

/**
 * A value on one line, JSON-like (`{"orderId": "A17", "amount": 30}`, keys in their own order), with
 * asymmetric matchers printed the way Jest and Vitest print them (`Any<Number>`, `StringMatching /^A/`,
 * `ObjectContaining {"a": 1}`). Written by hand because the runners' `stringify` prints objects on several
 * lines in Vitest and on one in Jest, and these messages align values in columns.
 */
export const jsonStringify: Stringify = function format(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'function') return `[Function${value.name ? ` ${value.name}` : ''}]`
  if (typeof value === 'symbol' || value instanceof RegExp) return String(value)
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? String(value)
  const asymmetric = value as { asymmetricMatch?: unknown; toAsymmetricMatcher?: () => string; sample?: unknown }
  if (typeof asymmetric.asymmetricMatch === 'function') {
    const name = String(value)
    if (CONTAINERS.has(name) || typeof asymmetric.toAsymmetricMatcher !== 'function') return `${name} ${format(asymmetric.sample)}`
    return asymmetric.toAsymmetricMatcher()
  }
  if (Array.isArray(value)) return `[${value.map(format).join(', ')}]`
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : JSON.stringify(value.toISOString())
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${format(v)}`)
    .join(', ')}}`
}

/** Cuts a one-line text in the middle past `max` characters. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\r?\n/g, '⏎')
  const chars = Array.from(flat)
  if (chars.length <= max) return flat
  const head = Math.ceil((max - 1) * 0.7)
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (max - 1 - head)).join('')}`
}

/** `lookupOrder({"orderId":"A17"})`, or the raw text with a note when the arguments did not parse. */
export function formatCall(call: Pick<ToolCallItem, 'name' | 'arguments' | 'argumentsError'>, stringify: Stringify = jsonStringify, max = 100): string {
  const args = call.argumentsError !== undefined ? `${JSON.stringify(call.arguments)} (not JSON)` : stringify(call.arguments)
  return clip(`${call.name}(${args})`, max)
}

/** A tool result on one line: JSON text shown as the value it holds, other strings quoted, values as JSON. */
export function formatResult(result: unknown, max = 80): string {
  if (typeof result === 'string') {
    const trimmed = result.trim()
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        return clip(jsonStringify(JSON.parse(trimmed)), max)
      } catch {
        // Not JSON after all: shown as text below.
      }
    }
    return clip(JSON.stringify(result), max)
  }
  return clip(jsonStringify(result), max)
}

/** `3 steps, 2 tool calls` */
export function countLine(trajectory: Trajectory): string {
  const calls = trajectory.items.filter((i) => i.type === 'tool-call').length
  return `${trajectory.steps} step${trajectory.steps === 1 ? '' : 's'}, ${calls} tool call${calls === 1 ? '' : 's'}`
}

function itemLine(item: TrajectoryItem, stringify: Stringify): string {
  switch (item.type) {
    case 'user':
      return `user: ${clip(JSON.stringify(item.text), 100)}`
    case 'text':
      return clip(JSON.stringify(item.text), 100)
    case 'tool-call':
      return `call ${formatCall(item, stringify)}`
    case 'tool-result':
      return `${item.isError ? 'error' : 'result'}${item.name ? ` ${item.name}` : ''} → ${formatResult(item.result)}`
  }
}

/** Options of {@link renderSteps}. */
export interface RenderOptions {
  stringify?: Stringify
  /** A marker (`'>'`) and a note for some items, by index into `trajectory.items`. */
  mark?: (index: number, item: TrajectoryItem) => { note?: string } | undefined
  /** At most this many lines (the middle is cut). Default 40. */
  maxLines?: number
}

/**
 * The trajectory step by step, one item per line, for failure messages:
 * ```
 *     user: "Please refund order A17."
 *     step 1  call lookupOrder({"orderId":"A17"})
 *             result lookupOrder → "{\"total\":30}"
 *   > step 2  "Done."   ← note
 * ```
 */
export function renderSteps(trajectory: Trajectory, options: RenderOptions = {}): string[] {
  const stringify = options.stringify ?? jsonStringify
  const width = `step ${trajectory.steps}`.length
  const lines: string[] = []
  let lastStep = -1
  trajectory.items.forEach((item, index) => {
    let label = ''
    if ((item.type === 'text' || item.type === 'tool-call') && item.step !== lastStep) {
      label = `step ${item.step + 1}`
      lastStep = item.step
    }
    const marked = options.mark?.(index, item)
    const prefix = `${marked ? '  > ' : '    '}${item.type === 'user' ? '' : `${label.padEnd(width)}  `}`
    const line = `${prefix}${itemLine(item, stringify)}${marked?.note ? `   ← ${marked.note}` : ''}`
    lines.push(line)
  })
  const max = options.maxLines ?? 40
  if (lines.length <= max) return lines
  const head = Math.ceil(max / 2)
  return [...lines.slice(0, head), `    … ${lines.length - max} more line(s) …`, ...lines.slice(lines.length - (max - head))]
}

/**
 * The transcript a judge reads: every item, in order, with roles and step numbers; long texts and results
 * are cut at `maxChars` characters each.
 *
 * @example
 * ```ts
 * transcript(readTrajectory(messages))
 * // [user] Please refund order A17.
 * // [assistant, step 1] called lookupOrder({"orderId": "A17"})
 * // [tool result, lookupOrder] {"orderId":"A17","total":30}
 * // [assistant, step 2] Done: refund R-100 is on its way.
 * ```
 */
export function transcript(trajectory: Trajectory, maxChars = 2000): string {
  const cut = (text: string): string => (text.length > maxChars ? `${text.slice(0, maxChars)}… (${text.length - maxChars} more characters)` : text)
  return trajectory.items
    .map((item) => {
      switch (item.type) {
        case 'user':
          return `[user] ${cut(item.text)}`
        case 'text':
          return `[assistant, step ${item.step + 1}] ${cut(item.text)}`
        case 'tool-call': {
          const args = item.argumentsError !== undefined ? String(item.arguments) : jsonStringify(item.arguments)
          return `[assistant, step ${item.step + 1}] called ${cut(`${item.name}(${args})`)}`
        }
        case 'tool-result': {
          const result = typeof item.result === 'string' ? item.result : jsonStringify(item.result)
          return `[tool ${item.isError ? 'error' : 'result'}${item.name ? `, ${item.name}` : ''}] ${cut(result)}`
        }
      }
    })
    .join('\n')
}

/** An expected call: `refundOrder(…)` (any arguments), `refundOrder({"amount": 30})`, `refundOrder(<zod schema>)`. */
export function formatPattern(pattern: CallPattern, stringify: Stringify = jsonStringify, max = 100): string {
  const args = pattern.args.kind === 'any' ? '…' : pattern.args.kind === 'schema' ? `<${schemaLabel(pattern.args.schema)}>` : stringify(pattern.args.expected)
  return clip(`${pattern.name}(${args})`, max)
}

/** `/amount: expected 30, received 25`, one line per difference (`(root)` for the whole arguments). */
export function differenceLines(differences: readonly ArgumentDifference[], stringify: Stringify = jsonStringify): string[] {
  return differences.map((d) => {
    const where = d.path === '' ? '(root)' : d.path
    if (d.message !== undefined) return `${where}: ${d.message}${d.expected !== undefined ? ` (expected ${clip(stringify(d.expected), 60)})` : ''}`
    return `${where}: expected ${clip(stringify(d.expected), 60)}, received ${clip(d.actual === undefined ? 'undefined' : stringify(d.actual), 60)}`
  })
}

/** The widest the expected column of {@link callTable} gets before its cells are cut. */
export const MAX_EXPECTED_COLUMN = 48

/**
 * Expected and actual calls side by side, one line per aligned row after a header: the first divergence
 * marked with `>`, a call between strictly ordered ones and an unexpected call (with `extra: 'forbid'`)
 * noted. Cells are numbered from 1, right-aligned.
 */
export function callTable(
  view: Pick<SequenceMatch, 'rows' | 'divergence'>,
  patterns: readonly CallPattern[],
  calls: readonly Pick<ToolCallItem, 'name' | 'arguments' | 'argumentsError'>[],
): string[] {
  const digits = String(Math.max(patterns.length, calls.length)).length
  const cell = (index: number, text: string): string => `${String(index + 1).padStart(digits)}  ${text}`
  const lefts = view.rows.map((row) =>
    row.expected !== undefined ? cell(row.expected, formatPattern(patterns[row.expected]!, undefined, MAX_EXPECTED_COLUMN - digits - 2)) : '',
  )
  const column = Math.max('expected'.length, ...lefts.map((l) => l.length))
  const table = view.rows.map((row, r) => {
    const right = row.actual !== undefined ? cell(row.actual, formatCall(calls[row.actual]!)) : `${' '.repeat(digits + 2)}(missing)`
    const note = row.between ? "   (between expected calls: 'strict' allows none)" : row.status === 'extra' && row.error ? '   (not expected)' : ''
    return `${r === view.divergence ? '  > ' : '    '}${lefts[r]!.padEnd(column)}    ${right}${note}`.trimEnd()
  })
  return [`    ${'expected'.padEnd(column)}    actual`, ...table]
}
