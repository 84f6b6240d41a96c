/**
 * Defensive reading of a judge's reply, for servers without structured output and models that ignore
 * the requested format.
 *
 * Order: (1) a JSON object anywhere in the reply (code fences allowed) with a `score` (or `rating`,
 * `grade`, `verdict`, `pass`, `result`) field; (2) on the `'binary'` scale a verdict word
 * (PASS/FAIL, YES/NO, CORRECT/INCORRECT, PASSED/FAILED), on numeric scales a labelled number first
 * (`score: 4`, `4/5`, `4 out of 5`) and then a verdict word; (3) the first number in the reply. A
 * verdict word counts only where it is unambiguous: after a label (`Verdict: PASS`), as the whole reply
 * or its whole last line, or as the first word followed by punctuation (`No, the answer ...`), never as
 * any "no" inside a sentence. Numbers outside the scale are clamped to it and the result says so in
 * `note`. A reply with none of these throws a {@link JudgeReplyError} that carries the raw reply.
 *
 * Reasoning models served through OpenAI-compatible endpoints may put their chain of thought in the
 * reply itself, between `<think>` tags (DeepSeek-R1 and QwQ on Ollama and several hosts,
 * RooCodeInc/Roo-Code#1566, labring/FastGPT#3733). It is read before the answer, and a draft score in
 * it ("maybe 3/5...") must not count: the reasoning is set aside, and only the text after it is read.
 *
 * @module
 */
import { formatMessage } from '../errors.js'
import type { Claim, JudgeScale } from './types.js'

/** A reply read from a judge. */
export interface ParsedReply {
  /** Value on the scale, after clamping. */
  scaleValue: number
  /** Normalized to [0, 1]. */
  score: number
  reason: string
  claims?: Claim[]
  parsedFrom: 'json' | 'verdict' | 'number'
  note?: string
}

/**
 * A judge reply with no score, verdict or number in it. `raw` is the reply as received.
 *
 * @example
 * ```ts
 * import { JudgeReplyError, parseJudgeReply } from 'expect-llm'
 *
 * try {
 *   parseJudgeReply('Hmm, hard to say.', '1-5')
 * } catch (error) {
 *   if (error instanceof JudgeReplyError) error.raw // 'Hmm, hard to say.'
 * }
 * ```
 */
export class JudgeReplyError extends Error {
  readonly raw: string
  constructor(raw: string, detail = 'it holds no JSON score, no verdict word (PASS/FAIL, YES/NO, CORRECT/INCORRECT) and no number') {
    super(
      formatMessage(
        `Failed to read the judge's reply: ${detail}. Use a judge model that follows the JSON reply format ` +
          `(or supports structured output), or a custom judge.\nRaw reply: ${JSON.stringify(raw.length > 2000 ? `${raw.slice(0, 2000)}…` : raw)}`,
      ),
    )
    this.name = 'JudgeReplyError'
    this.raw = raw
  }
}

/** The [min, max] range of a scale. */
export function scaleRange(scale: JudgeScale): [number, number] {
  switch (scale) {
    case '1-5':
      return [1, 5]
    case '0-5':
      return [0, 5]
    default:
      return [0, 1]
  }
}

/**
 * Normalizes a value on the scale to [0, 1]. Values outside the scale are not clamped.
 *
 * @example
 * ```ts
 * import { normalizeScore } from 'expect-llm'
 * normalizeScore(4, '1-5') // 0.75
 * normalizeScore(3, '0-5') // 0.6
 * ```
 */
export function normalizeScore(value: number, scale: JudgeScale): number {
  const [min, max] = scaleRange(scale)
  return (value - min) / (max - min)
}

/** Human description of a scale value, e.g. `PASS`, `4 of 5`, `3 on 0-5`. */
export function describeScaleValue(value: number, scale: JudgeScale): string {
  if (scale === 'binary' && (value === 0 || value === 1)) return value === 1 ? 'PASS' : 'FAIL'
  const v = String(Number(value.toFixed(4)))
  if (scale === '1-5') return `${v} on 1-5`
  if (scale === '0-5') return `${v} on 0-5`
  return `${v} on 0-1`
}

const POSITIVE = new Set(['pass', 'passed', 'yes', 'correct'])
const NEGATIVE = new Set(['fail', 'failed', 'no', 'incorrect'])
const VERDICT = '(pass|passed|fail|failed|yes|no|correct|incorrect)'

function verdictOf(word: string): boolean | undefined {
  const w = word.toLowerCase()
  if (POSITIVE.has(w)) return true
  if (NEGATIVE.has(w)) return false
  return undefined
}

function clamp(value: number, scale: JudgeScale): { value: number; note?: string } {
  const [min, max] = scaleRange(scale)
  if (value < min || value > max) {
    // Stryker disable next-line EqualityOperator: equivalent as value <= min, value is outside [min, max] here so never equal to min
    const clamped = value < min ? min : max
    const label = scale === 'binary' ? '0-1 (binary)' : scale
    return { value: clamped, note: `the judge's score ${value} is outside the ${label} scale; clamped to ${clamped}` }
  }
  return { value }
}

function fromVerdict(pass: boolean, scale: JudgeScale): number {
  const [min, max] = scaleRange(scale)
  return pass ? max : min
}

/** Every balanced `{...}` substring that parses as a JSON object, in order of appearance. */
function jsonObjects(text: string): Array<Record<string, unknown>> {
  // Stryker disable next-line ArrayDeclaration: equivalent, a string in the list has none of the score, claims or reasoning fields read from it
  const found: Array<Record<string, unknown>> = []
  // Stryker disable next-line StringLiteral: equivalent as indexOf(''), a scan from 0 finds an object only if the text starts with '{'
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0
    let inString = false
    let escaped = false
    // Stryker disable next-line EqualityOperator: equivalent as <=, the character past the end is undefined and matches none of the cases
    for (let i = start; i < text.length; i++) {
      const c = text[i]
      if (inString) {
        if (escaped) escaped = false
        else if (c === '\\') escaped = true
        else if (c === '"') inString = false
        continue
      }
      if (c === '"') inString = true
      else if (c === '{') depth++
      else if (c === '}' && --depth === 0) {
        try {
          // A balanced slice from '{' to its '}' that parses is always an object (never null, an array or a scalar).
          found.push(JSON.parse(text.slice(start, i + 1)) as Record<string, unknown>)
          start = i // continue after this object
        } catch {
          // not JSON; try the next '{'
        }
        break
      }
    }
  }
  return found
}

function firstString(obj: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) if (typeof obj[k] === 'string') return obj[k]
  return undefined
}

function readClaims(value: unknown): Claim[] | undefined {
  if (!Array.isArray(value)) return undefined
  const claims: Claim[] = []
  for (const item of value) {
    // Stryker disable next-line ConditionalExpression: equivalent when the typeof test is false, a string or number has no claim text: skipped below
    if (item === null || typeof item !== 'object') continue
    const o = item as Record<string, unknown>
    const text = firstString(o, ['claim', 'statement', 'text'])
    const supported = typeof o.supported === 'boolean' ? o.supported : typeof o.verdict === 'string' ? verdictOf(o.verdict) : undefined
    if (text === undefined || supported === undefined) continue
    const reason = firstString(o, ['reason', 'reasoning', 'evidence'])
    claims.push(reason ? { claim: text, supported, reason } : { claim: text, supported })
  }
  return claims
}

/** Reads the score value (on the scale, unclamped) from a JSON object, or `undefined`. */
function jsonScore(obj: Record<string, unknown>, scale: JudgeScale): number | undefined {
  for (const key of ['score', 'rating', 'grade', 'verdict', 'pass', 'result', 'passed']) {
    const v = obj[key]
    // Number.isFinite is false for every non-number (and for JSON's 1e999, which parses to Infinity).
    if (Number.isFinite(v)) return v as number
    if (typeof v === 'boolean') return fromVerdict(v, scale)
    if (typeof v === 'string') {
      const t = v.trim()
      if (/^-?\d+(?:\.\d+)?$/.test(t)) return Number(t)
      const verdict = verdictOf(t.replace(/[.!]$/, ''))
      if (verdict !== undefined) return fromVerdict(verdict, scale)
    }
  }
  return undefined
}

function stripMarkdown(text: string): string {
  return text.replace(/[*_`#>"]/g, '').trim()
}

function verdictWord(text: string): boolean | undefined {
  const clean = stripMarkdown(text)
  // Labelled: "Verdict: PASS", "Final answer - no". The last label wins ("Initial: FAIL ... Final verdict: PASS").
  const labelled = [
    ...clean.matchAll(
      new RegExp(`\\b(?:final verdict|verdict|final answer|answer|result|grade|decision|judgement|judgment|evaluation)\\s*[:=\\-]\\s*${VERDICT}\\b`, 'gi'),
    ),
  ]
  const last = labelled.at(-1)
  if (last?.[1]) return verdictOf(last[1])
  // The whole reply, or its whole last line.
  const lines = clean
    .split(/\r?\n/)
    .map((l) => l.trim().replace(/[.!]+$/, ''))
    .filter(Boolean)
  const lastLine = lines.at(-1)
  if (lastLine !== undefined && verdictOf(lastLine) !== undefined) return verdictOf(lastLine)
  // First word followed by punctuation: "No, the answer ...", "PASS - ...", "Yes."
  const first = new RegExp(`^${VERDICT}\\s*[,.;:!\\-–—(]`, 'i').exec(clean)
  if (first?.[1]) return verdictOf(first[1])
  return undefined
}

const NUMBER = '(-?\\d+(?:\\.\\d+)?)'

function labelledNumber(text: string): number | undefined {
  const clean = stripMarkdown(text)
  const patterns = [
    new RegExp(`\\b(?:final score|score|rating|grade)\\s*(?:is|of|[:=])?\\s*${NUMBER}`, 'i'),
    new RegExp(`${NUMBER}\\s*(?:/|out of)\\s*(?:5|1|10|100)\\b`, 'i'),
  ]
  for (const p of patterns) {
    const m = p.exec(clean)
    if (m?.[1] !== undefined) return Number(m[1])
  }
  return undefined
}

function firstNumber(text: string): number | undefined {
  const m = new RegExp(NUMBER).exec(text)
  return m?.[1] === undefined ? undefined : Number(m[1])
}

function result(value: number, scale: JudgeScale, reason: string, parsedFrom: ParsedReply['parsedFrom'], claims?: Claim[]): ParsedReply {
  const { value: v, note } = clamp(value, scale)
  const parsed: ParsedReply = { scaleValue: v, score: normalizeScore(v, scale), reason, parsedFrom }
  if (claims) parsed.claims = claims
  if (note) parsed.note = note
  return parsed
}

/**
 * The reply without a leading chain of thought: `<think>...</think>` (or `<thinking>`) blocks are
 * removed, a reply that only closes the block (templates that open it in the prompt) keeps what follows
 * `</think>`, and an unclosed block (a reply cut off while thinking) leaves nothing.
 */
function withoutReasoning(raw: string): string {
  let text = raw.replace(/<(think|thinking)>[\s\S]*?<\/\1>/gi, '')
  const close = /<\/(?:think|thinking)>/gi
  let last = -1
  for (let m = close.exec(text); m; m = close.exec(text)) last = m.index + m[0].length
  if (last !== -1) text = text.slice(last)
  const open = /<(?:think|thinking)>/i.exec(text)
  return open ? text.slice(0, open.index) : text
}

/**
 * Reads a judge reply on the given scale. Throws {@link JudgeReplyError} when nothing in it is a score.
 *
 * @example
 * ```ts
 * parseJudgeReply('{"reasoning": "Same facts.", "score": 1}', 'binary')   // { score: 1, scaleValue: 1, parsedFrom: 'json', ... }
 * parseJudgeReply('Verdict: FAIL. The refund window is wrong.', 'binary') // { score: 0, parsedFrom: 'verdict', ... }
 * parseJudgeReply('I would rate this 4/5.', '1-5')                       // { score: 0.75, scaleValue: 4, parsedFrom: 'number', ... }
 * ```
 */
export function parseJudgeReply(raw: string, scale: JudgeScale): ParsedReply {
  const text = withoutReasoning(raw).trim()
  for (const obj of jsonObjects(text)) {
    const value = jsonScore(obj, scale)
    const claims = readClaims(obj.claims)
    if (value === undefined && !(claims && claims.length > 0)) continue
    const reason = firstString(obj, ['reasoning', 'reason', 'explanation', 'rationale', 'justification']) ?? ''
    if (value === undefined) {
      // Claims without an overall score: the share of supported claims, on the scale.
      // Not undefined here: an object with neither a score nor claims was skipped above.
      const listed = claims as Claim[]
      const share = listed.filter((c) => c.supported).length / listed.length
      const [min, max] = scaleRange(scale)
      return result(min + share * (max - min), scale, reason, 'json', claims)
    }
    return result(value, scale, reason, 'json', claims)
  }
  if (scale !== 'binary') {
    const n = labelledNumber(text)
    if (n !== undefined) return result(n, scale, text, 'number')
  }
  const verdict = verdictWord(text)
  if (verdict !== undefined) return result(fromVerdict(verdict, scale), scale, text, 'verdict')
  // On numeric scales the labelled number was looked for above (and is not there); on the binary scale it comes after the verdict word.
  const n = labelledNumber(text) ?? firstNumber(text)
  if (n !== undefined) return result(n, scale, text, 'number')
  if (text === '' && raw.trim() !== '') throw new JudgeReplyError(raw, "the reply holds only the model's reasoning (<think>), with no answer after it")
  throw new JudgeReplyError(raw, text === '' ? 'the reply is empty' : undefined)
}
