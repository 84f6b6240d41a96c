/**
 * Deterministic refusal detection: phrase rules for answers that decline or say they do not know.
 * Used by `toRefuse()` before (or instead of) asking a judge.
 *
 * Rules run on a normalized copy of the text: lower case, typographic apostrophes and quotes
 * (’ ‘ ʼ ′ ＇) turned into `'`, and runs of whitespace collapsed. They match anywhere in the text, so
 * an answer that starts helpfully and then says "I don't know the rest" counts as a refusal; a refusal
 * phrased in other words is not caught here (use `toRefuse({ judge: true })` for those).
 *
 * @module
 */
import { assertString } from './errors.js'

/** One phrase rule. */
export interface RefusalRule {
  /** Stable identifier, e.g. `'dont-know'`. */
  id: string
  /** What the rule catches, for messages. */
  description: string
  /** Runs on the normalized text (lower case, straight apostrophes, single spaces). */
  pattern: RegExp
}

/** The result of {@link detectRefusal}. */
export interface RefusalMatch {
  refused: boolean
  /** The first rule that matched (earliest position in the text), when `refused`. */
  rule?: RefusalRule
  /** The matched phrase as it appears in the normalized text. */
  phrase?: string
  /** Character index of the match in the normalized text. */
  index?: number
}

const NOT = "(?:do not|don't|dont|did not|didn't|does not|doesn't)"
/** Follows "i" directly: " cannot", "'m unable to", ... */
const CANNOT =
  "(?: cannot| can not| can't| cant| could not| couldn't|'m unable to| am unable to|'m not able to| am not able to| was unable to| won't| will not)"
/** What an answer was grounded on: "the provided context", "the documents", "the retrieved passages", ... */
const SOURCE =
  '(?:provided |given |supplied |above |available |retrieved )?' +
  '(?:context|document|documents|sources?|texts?|passages?|excerpts?|information|knowledge base|materials?|data)'
/** What was not there: "information", "details", "an answer", ... */
const FACTS = '(?:information|info|details|data|knowledge|context|access|answer)'

/**
 * The built-in phrase rules, in the order they are reported when several match at the same place.
 * Each rule lists common variants (contractions with and without apostrophe, "am unable to", ...).
 */
export const REFUSAL_RULES: readonly RefusalRule[] = Object.freeze([
  { id: 'dont-know', description: `says "I don't know"`, pattern: new RegExp(`\\bi ${NOT} (?:really |actually )?know\\b`) },
  { id: 'not-aware', description: `says "I'm not aware"`, pattern: /\bi(?:'m| am) (?:not |un)aware\b/ },
  {
    id: 'no-information',
    description: 'says there is no information about it',
    pattern: new RegExp(
      '\\bno (?:relevant |specific |further |such |available |reliable )?' +
        '(?:information|info|details|data|records?|mention|knowledge) ' +
        '(?:about|on|regarding|of|concerning|for|in|related to|available)\\b',
    ),
  },
  {
    id: 'dont-have-information',
    description: `says "I don't have information"`,
    pattern: new RegExp(`\\bi ${NOT} have (?:any |enough |the |that |this |specific |sufficient |access to |reliable )*${FACTS}\\b`),
  },
  {
    id: 'could-not-find',
    description: `says "I couldn't find it"`,
    pattern: new RegExp(
      `\\bi${CANNOT} (?:find|locate) (?:any |the |that |this |relevant )*(?:information|info|details|data|mention|answer|anything|reference)\\b`,
    ),
  },
  {
    id: 'context-does-not-mention',
    description: 'says the context does not mention it',
    pattern: new RegExp(
      `\\b(?:the|this|these|your) ${SOURCE} (?:provided |given )?${NOT} ` +
        '(?:mention|contain|include|say|specify|provide|cover|address|state|discuss|describe|list|give|tell)\\b',
    ),
  },
  {
    id: 'not-mentioned-in-context',
    description: 'says it is not mentioned in the context',
    pattern: new RegExp(`\\bnot (?:mentioned|covered|specified|stated|included|provided|addressed|found|given|available|described) (?:in|by) the ${SOURCE}\\b`),
  },
  {
    id: 'cannot-help',
    description: `says "I can't help with that"`,
    pattern: new RegExp(`\\bi${CANNOT} (?:help|assist)(?: you)? (?:with|on)\\b`),
  },
  {
    id: 'cannot-answer',
    description: `says "I can't answer / provide / share that"`,
    pattern: new RegExp(`\\bi${CANNOT} (?:answer|provide|share|disclose|discuss|comply|give|determine|say|confirm|tell)\\b`),
  },
  { id: 'decline', description: 'declines', pattern: /\bi (?:must|have to|need to|will|'ll|would|'d)? ?(?:respectfully |politely )?decline\b/ },
  {
    id: 'beyond-knowledge',
    description: 'says it is beyond its knowledge',
    pattern: /\b(?:beyond|outside(?: of)?|not (?:within|in)) (?:my|the scope of my) (?:knowledge|training data|expertise|information)\b/,
  },
  { id: 'not-sure-answer', description: `says "I'm not sure what the answer is"`, pattern: /\bi(?:'m| am) not (?:sure|certain) (?:what|about) the answer\b/ },
])

/**
 * Lower-cases the text, straightens typographic apostrophes and quotes, and collapses whitespace, so
 * "I Don’t  know" and "i don't know" read the same to the rules.
 *
 * @example
 * ```ts
 * normalizeForRefusal('I Don’t\n know.') // "i don't know."
 * ```
 */
export function normalizeForRefusal(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2019\u2018\u02bc\u2032\uff07\u0060\u00b4]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * Checks a text against the refusal phrase rules and returns the earliest match.
 *
 * @example
 * ```ts
 * detectRefusal('Sorry, the context does not mention a refund window.')
 * // { refused: true, rule: { id: 'context-does-not-mention', ... }, phrase: 'the context does not mention', index: 7 }
 * detectRefusal('Refunds are accepted within 30 days.') // { refused: false }
 * ```
 */
export function detectRefusal(text: string): RefusalMatch {
  assertString(text, 'text', 'detect a refusal')
  const normalized = normalizeForRefusal(text)
  let best: RefusalMatch = { refused: false }
  for (const rule of REFUSAL_RULES) {
    const m = rule.pattern.exec(normalized)
    if (m && (best.index === undefined || m.index < best.index)) best = { refused: true, rule, phrase: m[0], index: m.index }
  }
  return best
}
