/**
 * Loading and validating golden datasets: `.jsonl`, `.json`, `.yaml`/`.yml` and `.csv` files, in-memory
 * arrays and (async) loaders. Every problem is reported with the file, the line (or CSV row) and the
 * field, in one error that lists all of them (up to 20).
 *
 * @module
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { extname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse as parseCsv } from 'csv-parse/sync'
import { LineCounter, parseDocument, isMap, isSeq, type Node as YamlNode } from 'yaml'
import { describeValue, formatMessage } from '../errors.js'
import { didYouMean } from '../suggest.js'
import { readExpectedTools, type ExpectedTools } from '../agents/expected.js'
import { CONVERSATION_ROLES } from './conversation.js'
import type { ConversationMessage, DatasetSource, GoldenCase, GoldenCaseInput } from './types.js'

/** The fields a case may have. */
export const CASE_FIELDS = [
  'id',
  'input',
  'expected',
  'acceptable',
  'context',
  'relevant',
  'keywords',
  'answerable',
  'criteria',
  'expectedTools',
  'messages',
  'tags',
  'metadata',
] as const

const MAX_LISTED = 20

/** A dataset that cannot be loaded; `problems` holds one line per problem (`file:line: field "x": ...`). */
export class DatasetError extends Error {
  readonly problems: string[]
  constructor(where: string, problems: string[], fix: string) {
    const listed = problems.slice(0, MAX_LISTED)
    const more = problems.length > MAX_LISTED ? [`… and ${problems.length - MAX_LISTED} more`] : []
    super(
      problems.length === 1
        ? formatMessage(`Failed to load the golden dataset: ${problems[0]}. ${fix}`)
        : `${formatMessage(`Failed to load the golden dataset ${where}: ${problems.length} problems. ${fix}`)}\n` +
            [...listed, ...more].map((p) => `  - ${p}`).join('\n'),
    )
    this.name = 'DatasetError'
    this.problems = problems
  }
}

/** A raw record and where it came from. */
interface RawRecord {
  value: unknown
  /** `file:12` or `dataset[3]`. */
  where: string
  /** Fields given as strings that must be parsed (CSV cells). */
  fromCsv?: boolean
  /** A syntax problem of this record's line (JSON Lines): reported in line order with the other problems. */
  syntaxError?: string
}

function lineOf(text: string, offset: number): number {
  let line = 1
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

/**
 * Start offsets of the elements of a top-level JSON array (`depthOfElements` 1), or of the `cases` array of a
 * top-level object (2; the last one, as JSON.parse keeps the last of repeated keys). Other keys' arrays and
 * objects are skipped, whatever they hold.
 */
function topLevelElementOffsets(text: string, depthOfElements: 1 | 2): number[] {
  let offsets: number[] = []
  let depth = 0
  let inString = false
  let stringStart = 0
  // The last string read directly in the top-level container: before a `[` at depth 2, that array's key.
  let lastKey: string | undefined
  let inElements = false
  let expectElement = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') {
        inString = false
        if (depth === 1) lastKey = text.slice(stringStart + 1, i)
      }
      continue
    }
    if (expectElement && !/\s/.test(ch) && ch !== ']') {
      offsets.push(i)
      expectElement = false
    }
    if (ch === '"') {
      inString = true
      stringStart = i
    } else if (ch === '[' || ch === '{') {
      depth++
      if (ch === '[' && depth === depthOfElements && (depth === 1 || lastKey === 'cases')) {
        offsets = []
        inElements = true
        expectElement = true
      }
    } else if (ch === ']' || ch === '}') {
      if (depth === depthOfElements) {
        inElements = false
        expectElement = false
      }
      depth--
    } else if (ch === ',' && depth === depthOfElements && inElements) expectElement = true
  }
  return offsets
}

/** Every line of a JSON Lines file; a line that does not parse is kept with its error, so that all are reported. */
function readJsonl(text: string, file: string): RawRecord[] {
  const records: RawRecord[] = []
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return
    const where = `${file}:${i + 1}`
    try {
      records.push({ value: JSON.parse(line) as unknown, where })
    } catch (error) {
      records.push({ value: undefined, where, syntaxError: `${where}: invalid JSON (${(error as Error).message})` })
    }
  })
  return records
}

function readJson(text: string, file: string): RawRecord[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const message = (error as Error).message
    const at = /position (\d+)/.exec(message)
    let where = at ? `${file}:${lineOf(text, Number(at[1]))}` : undefined
    if (!where) {
      // Newer V8 messages carry no position: find the first case that does not parse on its own.
      for (const depth of [1, 2] as const) {
        const offsets = topLevelElementOffsets(text, depth)
        const bad = offsets.findIndex((start, i) => {
          const next = offsets[i + 1]
          const slice =
            next !== undefined ? text.slice(start, next).replace(/\s*,\s*$/, '') : text.slice(start).replace(depth === 1 ? /\s*\]\s*$/ : /\s*\]\s*\}\s*$/, '')
          try {
            JSON.parse(slice)
            return false
          } catch {
            return true
          }
        })
        if (bad >= 0) {
          where = `${file}:${lineOf(text, offsets[bad] as number)}`
          break
        }
      }
    }
    throw new DatasetError(file, [`${where ?? file}: invalid JSON (${message})`], 'Fix the JSON syntax.')
  }
  let items: unknown
  let depth: 1 | 2 = 1
  if (Array.isArray(value)) items = value
  else if (Array.isArray((value as { cases?: unknown } | null)?.cases)) {
    items = (value as { cases: unknown[] }).cases
    depth = 2
  } else {
    throw new DatasetError(
      file,
      [`${file}:1: the top level is ${describeValue(value)}, not an array of cases`],
      'Write a JSON array of cases, or an object { "cases": [...] }.',
    )
  }
  const offsets = topLevelElementOffsets(text, depth)
  return (items as unknown[]).map((v, i) => ({ value: v, where: `${file}:${lineOf(text, offsets[i] ?? 0)}` }))
}

function readYaml(text: string, file: string): RawRecord[] {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false })
  if (doc.errors.length > 0) {
    throw new DatasetError(
      file,
      doc.errors.map((e) => `${file}:${lineCounter.linePos(e.pos[0]).line}: invalid YAML (${e.message.split('\n')[0]})`),
      'Fix the YAML syntax.',
    )
  }
  let seq: YamlNode | null | undefined = doc.contents as YamlNode | null
  if (isMap(seq)) seq = seq.get('cases', true) as YamlNode | undefined
  if (!isSeq(seq)) {
    throw new DatasetError(
      file,
      [`${file}:1: the top level is not a list of cases`],
      'Write a YAML list of cases (`- input: ...`), or a map with a `cases:` list.',
    )
  }
  const values = doc.toJS() as unknown[] | { cases: unknown[] }
  const items = Array.isArray(values) ? values : values.cases
  // Every item of a parsed sequence is a node with its range (an empty item is a null scalar).
  return seq.items.map((node, i) => ({ value: items[i], where: `${file}:${lineCounter.linePos((node as { range: [number, number, number] }).range[0]).line}` }))
}

function readCsv(text: string, file: string): RawRecord[] {
  let rows: Array<{ record: Record<string, string>; info: { lines: number } }>
  try {
    rows = parseCsv(text, { columns: true, bom: true, skip_empty_lines: true, info: true, trim: false, relax_column_count: false }) as never
  } catch (error) {
    const e = error as Error & { lines?: number }
    throw new DatasetError(
      file,
      [`${file}:${e.lines ?? 1}: invalid CSV (${e.message})`],
      'Fix the CSV: a header row, then one row per case with the same number of columns (quote cells that contain commas).',
    )
  }
  // info.lines is the line where the record ends; a record starts after the previous one ended.
  let previousEnd = 1
  return rows.map(({ record, info }) => {
    const start = previousEnd + 1
    previousEnd = info.lines
    return { value: record, where: `${file}:${start}`, fromCsv: true }
  })
}

/** Splits a CSV list cell: a JSON array (`["a","b"]`) or `|`-separated values. Empty → undefined. */
function csvList(cell: string): unknown {
  const t = cell.trim()
  if (t === '') return undefined
  if (t.startsWith('[')) {
    try {
      return JSON.parse(t) as unknown
    } catch {
      return t
    }
  }
  return t
    .split('|')
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

function csvBoolean(cell: string): unknown {
  const t = cell.trim().toLowerCase()
  if (t === '') return undefined
  if (['true', 'yes', '1', 'y'].includes(t)) return true
  if (['false', 'no', '0', 'n'].includes(t)) return false
  return cell
}

function csvJsonOrString(cell: string): unknown {
  const t = cell.trim()
  if (t === '') return undefined
  if (!t.startsWith('{') && !t.startsWith('[')) return cell
  try {
    return JSON.parse(t) as unknown
  } catch {
    return cell
  }
}

/** Turns a CSV row into a case object: list columns split, `answerable` read as a boolean, unknown columns into `metadata`. */
function fromCsvRow(row: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const metadata: Record<string, unknown> = {}
  for (const [column, cell] of Object.entries(row)) {
    const key = column.trim()
    if (key.startsWith('metadata.')) {
      if (cell.trim() !== '') metadata[key.slice('metadata.'.length)] = cell
      continue
    }
    switch (key) {
      case 'acceptable':
      case 'context':
      case 'relevant':
      case 'keywords':
      case 'tags':
        out[key] = csvList(cell)
        break
      case 'answerable':
        out[key] = csvBoolean(cell)
        break
      case 'input':
      case 'expected':
      case 'metadata':
      case 'messages':
      case 'expectedTools':
        out[key] = csvJsonOrString(cell)
        break
      default:
        if (cell.trim() !== '') out[key] = cell
    }
  }
  const extra = Object.keys(out).filter((k) => !(CASE_FIELDS as readonly string[]).includes(k))
  for (const k of extra) {
    metadata[k] = out[k]
    delete out[k]
  }
  // A metadata cell that is not an object is kept as it is, for validation to report (not dropped for the columns).
  if (Object.keys(metadata).length > 0) {
    if (out.metadata === undefined) out.metadata = metadata
    else if (typeof out.metadata === 'object' && !Array.isArray(out.metadata)) out.metadata = { ...out.metadata, ...metadata }
  }
  // Fields left undefined (empty cells) count as not given: every check and buildCase skip undefined values.
  return out
}

/** Why a `messages` value is not a conversation (`undefined` when it is one). */
function conversationProblem(messages: unknown): string | undefined {
  const example =
    '[{ "role": "user", "content": "My order is A17." }, { "role": "assistant", "content": "Thanks!" }, { "role": "user", "content": "Where is it?" }]'
  if (!Array.isArray(messages) || messages.length === 0)
    return `must be a non-empty list of { role, content } messages, got ${describeValue(messages)}; write for example ${example}`
  for (const [i, m] of messages.entries()) {
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return `message ${i} must be { role, content }, got ${describeValue(m)}`
    const { role, content, ...rest } = m as Record<string, unknown>
    const extra = Object.keys(rest)
    if (extra.length > 0) return `message ${i} has unknown key ${extra.map((k) => `"${k}"`).join(', ')}; a message is { role, content }`
    if (!(CONVERSATION_ROLES as readonly unknown[]).includes(role))
      return `message ${i} has role ${describeValue(role)}; the roles are ${CONVERSATION_ROLES.map((r) => `"${r}"`).join(', ')}`
    if (typeof content !== 'string' || content.trim() === '') return `message ${i} must have a non-empty string "content", got ${describeValue(content)}`
  }
  const last = messages.at(-1) as { role: string }
  if (last.role !== 'user') return `ends with a message of role "${last.role}"; the last message is the user's, which the task answers`
  return undefined
}

function isStringArray(v: unknown, nonEmpty: boolean): v is string[] {
  return Array.isArray(v) && (!nonEmpty || v.length > 0) && v.every((s) => typeof s === 'string' && s.trim() !== '')
}

/** Stable id of a case without one: a hash of its input (so reordering the dataset keeps ids). */
export function caseIdFor(input: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v
  return `case-${createHash('sha256')
    .update(JSON.stringify(canonical(input)) ?? 'undefined')
    .digest('hex')
    .slice(0, 8)}`
}

/**
 * The columns of a CSV header that look like a mistyped case field (unknown columns become metadata; a
 * near miss of a case field is a typo, not data).
 */
export function csvColumnProblems(columns: readonly string[], at: string): string[] {
  const problems: string[] = []
  for (const column of columns.map((c) => c.trim())) {
    if ((CASE_FIELDS as readonly string[]).includes(column) || column.startsWith('metadata.')) continue
    const hint = didYouMean(column, CASE_FIELDS)
    if (hint) problems.push(`${at}: column "${column}" is not a case field${hint}; name it "metadata.${column}" to keep it as metadata`)
  }
  return problems
}

/** The input a case answers (its conversation when it has `messages`), with the problems of `input` and `messages`. */
export function caseInput(obj: Record<string, unknown>): { input: unknown; problems: Array<[string, string]> } {
  const { input, messages } = obj
  if (messages !== undefined) {
    if (input !== undefined)
      return { input, problems: [['messages', 'and "input" are both given; a case holds a conversation ("messages") or a single "input", not both']] }
    const problem = conversationProblem(messages)
    return problem ? { input, problems: [['messages', problem]] } : { input: messages, problems: [] }
  }
  if (input === undefined || input === null || (typeof input === 'string' && input.trim() === ''))
    return { input, problems: [['input', input === undefined ? 'is missing' : `is empty (${describeValue(input)})`]] }
  if (typeof input !== 'string' && typeof input !== 'object')
    return { input, problems: [['input', `must be a string or an object, got ${describeValue(input)}`]] }
  return { input, problems: [] }
}

const nonEmptyString = (v: unknown): boolean => typeof v === 'string' && v.trim() !== ''

/** The problems of a case's optional fields other than `input`, `messages` and `expectedTools`, as [field, message]. */
export function optionalFieldProblems(obj: Record<string, unknown>): Array<[string, string]> {
  const { id, acceptable, context, relevant, keywords, answerable, criteria, tags, metadata } = obj
  const problems: Array<[string, string]> = []
  const got = (v: unknown) => `got ${describeValue(v)}`
  if (id !== undefined && !nonEmptyString(id) && !Number.isInteger(id)) problems.push(['id', `must be a non-empty string, ${got(id)}`])
  if (acceptable !== undefined && !isStringArray(acceptable, true))
    problems.push(['acceptable', `must be a non-empty array of non-empty strings, ${got(acceptable)}`])
  if (context !== undefined && !nonEmptyString(context) && !isStringArray(context, true))
    problems.push(['context', `must be a string or a non-empty array of non-empty strings, ${got(context)}`])
  if (relevant !== undefined && !isStringArray(relevant, true)) problems.push(['relevant', `must be a non-empty array of document ids, ${got(relevant)}`])
  if (keywords !== undefined && !isStringArray(keywords, true)) problems.push(['keywords', `must be a non-empty array of non-empty strings, ${got(keywords)}`])
  if (tags !== undefined && !isStringArray(tags, false)) problems.push(['tags', `must be an array of strings, ${got(tags)}`])
  if (answerable !== undefined && typeof answerable !== 'boolean') problems.push(['answerable', `must be true or false, ${got(answerable)}`])
  if (criteria !== undefined && !nonEmptyString(criteria)) problems.push(['criteria', `must be a non-empty string, ${got(criteria)}`])
  if (metadata !== undefined && (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)))
    problems.push(['metadata', `must be an object, ${got(metadata)}`])
  return problems
}

/**
 * Checks one case object: every problem as [field, message] in the order they are listed (unknown keys,
 * input or messages, expectedTools, then the other fields), the input it answers and its expected tools.
 */
export function checkCaseFields(obj: Record<string, unknown>): { problems: Array<[string, string]>; input: unknown; expectedTools?: ExpectedTools } {
  const problems: Array<[string, string]> = Object.keys(obj)
    .filter((key) => !(CASE_FIELDS as readonly string[]).includes(key))
    .map((key) => [key, `is not a case field${didYouMean(key, CASE_FIELDS)}; valid fields: ${CASE_FIELDS.join(', ')}; put your own data under "metadata"`])
  const { input, problems: inputProblems } = caseInput(obj)
  problems.push(...inputProblems)
  let expectedTools: ExpectedTools | undefined
  // Stryker disable next-line ConditionalExpression: readExpectedTools(undefined) gives no problems and no value
  if (obj.expectedTools !== undefined) {
    const read = readExpectedTools(obj.expectedTools)
    problems.push(...read.problems.map((problem): [string, string] => ['expectedTools', problem]))
    expectedTools = read.value
  }
  problems.push(...optionalFieldProblems(obj))
  return { problems, input, ...(expectedTools !== undefined ? { expectedTools } : {}) }
}

/** The ids given so far (and where) and how often each derived id was made, across the cases of one dataset. */
export interface CaseIds {
  lines: Map<string, string>
  derived: Map<string, number>
}

/**
 * The id of a case: its own (trimmed), or a hash of its input (`-2`, `-3`... on repeats). A given id
 * used before is a duplicate: `{ duplicateOf }` names where it was first used.
 */
export function assignCaseId(ids: CaseIds, id: unknown, input: unknown, at: string): { id: string } | { duplicateOf: string } {
  let caseId: string
  if (id !== undefined) {
    caseId = String(id).trim()
    const first = ids.lines.get(caseId)
    if (first !== undefined) return { duplicateOf: first }
  } else {
    const base = caseIdFor(input)
    const n = (ids.derived.get(base) ?? 0) + 1
    ids.derived.set(base, n)
    caseId = n === 1 ? base : `${base}-${n}`
  }
  ids.lines.set(caseId, at)
  return { id: caseId }
}

/** The case of a checked case object: only the fields it gives, `context` as a list. */
export function buildCase(obj: Record<string, unknown>, id: string, input: unknown, expectedTools: ExpectedTools | undefined, at: string): GoldenCase {
  const { expected, acceptable, context, relevant, keywords, answerable, criteria, tags, metadata, messages } = obj
  const c: GoldenCase = { id, input: input as GoldenCase['input'], source: at }
  if (expected !== undefined) c.expected = expected
  if (acceptable !== undefined) c.acceptable = acceptable as string[]
  if (context !== undefined) c.context = typeof context === 'string' ? [context] : (context as string[])
  if (relevant !== undefined) c.relevant = relevant as string[]
  if (keywords !== undefined) c.keywords = keywords as string[]
  if (answerable !== undefined) c.answerable = answerable as boolean
  if (criteria !== undefined) c.criteria = criteria as string
  if (messages !== undefined) c.messages = messages as ConversationMessage[]
  if (expectedTools !== undefined) c.expectedTools = expectedTools
  if (tags !== undefined) c.tags = tags as string[]
  if (metadata !== undefined) c.metadata = metadata as Record<string, unknown>
  return c
}

/** The fix line of a dataset error: about JSON Lines when some (or all) problems are syntax errors. */
export function datasetFix(syntaxErrors: number, problems: number): string {
  if (syntaxErrors === problems) return 'Write one JSON object per line (JSON Lines).'
  return syntaxErrors > 0 ? 'Fix the cases listed (JSON Lines: one JSON object per line).' : 'Fix the cases listed.'
}

function validate(records: RawRecord[], where: string): GoldenCase[] {
  const problems: string[] = []
  const cases: GoldenCase[] = []
  const ids: CaseIds = { lines: new Map(), derived: new Map() }
  let syntaxErrors = 0
  let csvColumnsChecked = false
  for (const record of records) {
    const at = record.where
    const raw = record.value
    if (record.syntaxError !== undefined) {
      problems.push(record.syntaxError)
      syntaxErrors++
      continue
    }
    if (record.fromCsv && !csvColumnsChecked) {
      // A CSV record is always an object (its row).
      csvColumnsChecked = true
      problems.push(...csvColumnProblems(Object.keys(raw as object), at))
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push(`${at}: the case is ${describeValue(raw)}, not an object`)
      continue
    }
    const obj = record.fromCsv ? fromCsvRow(raw as Record<string, string>) : (raw as Record<string, unknown>)
    const checked = checkCaseFields(obj)
    problems.push(...checked.problems.map(([name, message]) => `${at}: field "${name}" ${message}`))
    if (checked.problems.length > 0) continue
    const assigned = assignCaseId(ids, obj.id, checked.input, at)
    if ('duplicateOf' in assigned) {
      problems.push(`${at}: field "id" "${String(obj.id).trim()}" is a duplicate (first used at ${assigned.duplicateOf})`)
      continue
    }
    cases.push(buildCase(obj, assigned.id, checked.input, checked.expectedTools, at))
  }
  if (problems.length > 0) throw new DatasetError(where, problems, datasetFix(syntaxErrors, problems.length))
  if (cases.length === 0) throw new DatasetError(where, [`${where}: the dataset has no cases`], 'Add at least one case with an "input".')
  return cases
}

function displayPath(file: string): string {
  const rel = relative(process.cwd(), file)
  return rel && !rel.startsWith('..') ? rel : file
}

/** Reads and validates a dataset file synchronously. */
export function loadDatasetFileSync(path: string | URL): GoldenCase[] {
  const abs = path instanceof URL ? fileURLToPath(path) : resolve(path)
  const shown = displayPath(abs)
  let text: string
  try {
    text = readFileSync(abs, 'utf8')
  } catch (error) {
    throw new DatasetError(
      shown,
      [`${shown}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`],
      'Check the path; relative paths resolve against the current working directory (usually the project root).',
    )
  }
  const ext = extname(abs).toLowerCase()
  let records: RawRecord[]
  switch (ext) {
    case '.jsonl':
    case '.ndjson':
      records = readJsonl(text, shown)
      break
    case '.json':
      records = readJson(text, shown)
      break
    case '.yaml':
    case '.yml':
      records = readYaml(text, shown)
      break
    case '.csv':
      records = readCsv(text, shown)
      break
    default:
      throw new DatasetError(shown, [`${shown}: unknown file type "${ext || '(none)'}"`], 'Use .jsonl, .json, .yaml, .yml or .csv.')
  }
  return validate(records, shown)
}

/** Validates an in-memory array of cases (positions are reported as `dataset[i]`). */
export function validateCases<I, E, M>(cases: ReadonlyArray<GoldenCaseInput<I, E, M>>, name = 'dataset'): Array<GoldenCase<I, E, M>> {
  if (!Array.isArray(cases))
    throw new DatasetError(
      name,
      [`${name} is ${describeValue(cases)}, not an array of cases`],
      'Pass a file path, an array of cases, or a function returning one.',
    )
  return validate(
    cases.map((value, i) => ({ value, where: `${name}[${i}]` })),
    name,
  ) as Array<GoldenCase<I, E, M>>
}

/**
 * Loads a dataset synchronously: a file path or an array. A function (loader) cannot be loaded
 * synchronously: use {@link loadDataset}.
 *
 * @example
 * ```ts
 * const cases = loadDatasetSync('fixtures/golden/handbook.jsonl')
 * ```
 */
export function loadDatasetSync<I = unknown, E = unknown, M = Record<string, unknown>>(
  source: Exclude<DatasetSource<I, E, M>, (...args: never[]) => unknown>,
): Array<GoldenCase<I, E, M>> {
  if (typeof source === 'string' || source instanceof URL) return loadDatasetFileSync(source) as Array<GoldenCase<I, E, M>>
  if (typeof source === 'function') {
    throw new TypeError(
      formatMessage('Failed to load the golden dataset: a loader function cannot be loaded synchronously. Use `await loadDataset(loader)` and pass the cases.'),
    )
  }
  return validateCases(source)
}

/**
 * Loads and validates a golden dataset: a `.jsonl`, `.json`, `.yaml`/`.yml` or `.csv` file (relative
 * paths resolve against the current working directory), an array of cases, or a function returning
 * either (possibly async). Errors name the file, the line (or CSV row) and the field; cases without
 * an `id` get a stable one derived from their input.
 *
 * JSON files hold an array of cases or `{ "cases": [...] }`; YAML files a list or a `cases:` list.
 * CSV files have a header row; list columns (`acceptable`, `context`, `relevant`, `keywords`, `tags`)
 * take `a|b|c` or a JSON array, `answerable` takes true/false/yes/no/1/0, `input`/`expected`/`metadata`
 * cells starting with `{` or `[` are read as JSON, and any other column goes into `metadata`.
 *
 * @example
 * ```ts
 * const cases = await loadDataset<string, string>('fixtures/golden/handbook.jsonl')
 * const fromApi = await loadDataset(async () => (await fetchCases()).map((r) => ({ input: r.q, expected: r.a })))
 * ```
 */
export async function loadDataset<I = unknown, E = unknown, M = Record<string, unknown>>(source: DatasetSource<I, E, M>): Promise<Array<GoldenCase<I, E, M>>> {
  if (typeof source === 'function') {
    let loaded: Awaited<ReturnType<typeof source>>
    try {
      loaded = await source()
    } catch (error) {
      throw new Error(
        formatMessage(
          `Failed to load the golden dataset: the loader threw: ${(error as Error).message ?? String(error)}. Fix the loader, or pass the cases directly.`,
        ),
        { cause: error },
      )
    }
    if (typeof loaded === 'string' || loaded instanceof URL) return loadDatasetFileSync(loaded) as Array<GoldenCase<I, E, M>>
    return validateCases(loaded, 'loader result')
  }
  return loadDatasetSync(source)
}
