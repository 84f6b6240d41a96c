/**
 * The operators that answer something else than the reference: `other-answer` (the answer of another
 * case, the most similar one, so lexical checks are tempted), `refusal` (an answerable question refused,
 * in words taken from the question) and `confident-answer` (an unanswerable question answered with
 * confidence: its own words turned into a statement, or a related case's answer).
 *
 * The question is read with a few English rules (an auxiliary first, or a question word and then one),
 * turned into an indirect question (`How long do I have to ask for a refund?` → `how long you have to
 * ask for a refund`) or a statement (`Do you offer a student discount?` → `Yes, we offer a student
 * discount.`). Hand-written: questions to a support assistant follow few patterns, and a parser would not
 * know which pronouns to turn (the user's `I` is the assistant's `you`).
 *
 * @module
 */
import type { MutationContext, MutationOperator, MutationSource } from '../types.js'
import { type Candidate, capitalize, choose, finish, hasAnswer, otherAnswers, overlap, q, sample, sentences, uncapitalize } from './shared.js'

const AUX = ['do', 'does', 'did', 'can', 'could', 'will', 'would', 'should', 'is', 'are', 'was', 'were', 'has', 'have', 'am']
const WH = /^(how (?:long|much|many|fast|often|soon|far|late|early)|how|what|when|where|which|who|why)\s+/i
/** The user's words in the assistant's mouth. */
const PRONOUNS: Record<string, string> = {
  i: 'you',
  me: 'you',
  my: 'your',
  mine: 'yours',
  myself: 'yourself',
  you: 'we',
  your: 'our',
  yours: 'ours',
  am: 'are',
  "i'm": "you're",
  we: 'you',
  our: 'your',
  us: 'you',
}
const turn = (text: string) =>
  text.replace(/(?<![\p{L}\p{N}'’])(?:i'm|i|me|my|mine|myself|you|your|yours|we|our|us)(?![\p{L}\p{N}'’])/giu, (w) => PRONOUNS[w.toLowerCase()] ?? w)

/** `cover` → `covers`, `have` → `has`, `go` → `goes`, `carry` → `carries`. */
function thirdPerson(verb: string): string {
  if (verb === 'have') return 'has'
  if (/(?:s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`
  return `${verb}s`
}

interface Parsed {
  /** `how long` or `whether`. */
  lead: string
  aux: string
  /** Words after the auxiliary, pronouns turned. */
  rest: string
  subject: string
}

/** A question split into question word, auxiliary and the rest, or undefined when it is not one the rules read. */
function parseQuestion(input: string): Parsed | undefined {
  // The last sentence: `My order arrived damaged. What should I do?` asks `What should I do?`.
  const last = sentences(input).at(-1)?.text ?? ''
  if (!last.endsWith('?')) return undefined
  const text = last.replace(/\?+$/, '').trim()
  if (text === '') return undefined
  const wh = text.match(WH)
  const afterWh = wh ? text.slice(wh[0].length) : text
  const auxMatch = afterWh.match(new RegExp(`^(${AUX.join('|')})\\s+(.+)$`, 'i'))
  if (!auxMatch) return undefined
  const aux = (auxMatch[1] as string).toLowerCase()
  const rest = turn(auxMatch[2] as string)
  const subject = rest.split(/\s+/)[0] ?? ''
  return { lead: wh ? (wh[1] as string).toLowerCase() : 'whether', aux, rest, subject }
}

/** The subject, the auxiliary in statement order, and the rest: `you can cancel ...`, `we have ...`, `the warranty covers ...`. */
function statement({ lead, aux, rest }: Parsed): string {
  const parts = rest.split(/\s+/)
  const first = (parts[0] ?? '').toLowerCase()
  const auxFor = (a: string) => (a === 'am' ? 'are' : a)
  if (aux === 'do' || aux === 'did') return rest
  // `what is your phone number` → `what your phone number is`; `is it possible` → `whether it is possible`.
  // A passive: `when is your card charged` → `when your card is charged`.
  if (lead !== 'whether' && ['is', 'are', 'was', 'were', 'am'].includes(aux)) {
    const last = parts.at(-1) ?? ''
    if (parts.length > 1 && /(?:ed|en)$/.test(last)) return [...parts.slice(0, -1), auxFor(aux), last].join(' ')
    return `${rest} ${auxFor(aux)}`
  }
  if (aux === 'does') {
    // `does international delivery take` → `international delivery takes`: the verb is the word after a
    // subject of a determiner and a word, or the last word of a short rest.
    const det = ['the', 'a', 'an', 'your', 'our', 'my', 'this', 'that', 'it', 'he', 'she', 'we', 'they'].includes(first)
    const v = det ? (first === 'it' || first === 'he' || first === 'she' ? 1 : 2) : parts.length <= 3 ? parts.length - 1 : 1
    if (parts[v]) parts[v] = thirdPerson(parts[v] as string)
    return parts.join(' ')
  }
  const subjectLength = ['the', 'a', 'an', 'your', 'our', 'my', 'this', 'that'].includes(first) ? 2 : 1
  return [...parts.slice(0, subjectLength), auxFor(aux), ...parts.slice(subjectLength)].join(' ')
}

/** `how long you have to ask for a refund`, `whether you can cancel an order`, or undefined. */
function indirect(input: string): string | undefined {
  const parsed = parseQuestion(input)
  return parsed ? `${parsed.lead} ${statement(parsed)}` : undefined
}

/** The other cases' answers, most similar to this case first (text and question), ties in dataset order. */
function related(context: MutationContext): MutationSource[] {
  const { source } = context
  return otherAnswers(context)
    .map((s, i) => ({ s, score: overlap(source.text, s.text) + overlap(source.input, s.input), i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((x) => x.s)
}

/** `other-answer`: the answer of another case, the most similar ones first. */
export const otherAnswerOperator: MutationOperator = {
  name: 'other-answer',
  description: "Answers a different question: another case's reference, the most similar ones first.",
  mutate: (context) => {
    if (!hasAnswer(context)) return []
    const candidates = related(context)
      .slice(0, 2)
      .map((s) => ({ text: s.text, change: `the answer of "${s.id}"` }))
    return finish('other-answer', context, candidates, 2)
  },
}

const REFUSALS: ReadonlyArray<(topic: string) => string> = [
  (t) => `I'm sorry, but I can't tell you ${t}.`,
  (t) => `I don't have any information about ${t}.`,
  (t) => `I'm not able to help with that. Please contact support to find out ${t}.`,
]
const PLAIN_REFUSALS = ["I'm sorry, but I can't help with that request.", "I don't know the answer to that, sorry."]

/** `refusal`: an answerable question refused, in the question's own words. */
export const refusalOperator: MutationOperator = {
  name: 'refusal',
  description: "Turns the answer into a refusal in the question's own words: I can't tell you how long you have to ask.",
  mutate: (context) => {
    if (!hasAnswer(context)) return []
    const topic = indirect(context.source.input)
    const texts = topic ? sample(REFUSALS, 2, context.random).map((t) => t(topic)) : [choose(PLAIN_REFUSALS, context.random)]
    return finish(
      'refusal',
      context,
      texts.map((text) => ({ text, change: `answer → refusal ${q(text, 40)}` })),
    )
  },
}

function confidentCandidates(context: MutationContext): Candidate[] {
  const { source, random } = context
  const parsed = parseQuestion(source.input)
  const others = related(context)
  const out: Candidate[] = []
  if (parsed) {
    const said = statement(parsed)
    let text: string | undefined
    if (parsed.lead === 'whether') text = `Yes, ${said}.`
    else if (parsed.lead === 'how' && (parsed.aux === 'do' || parsed.aux === 'can') && others[0]) {
      // `How do I change the email address?` → `To change the email address, <another case's steps>`, from a
      // case that also asks how to do something when there is one.
      const steps = others.find((s) => /(?:^|[.?!]\s+)how (?:do|can) i\b/i.test(s.input)) ?? others[0]
      const verbPhrase = said.split(/\s+/).slice(1).join(' ')
      text = `To ${verbPhrase}, ${uncapitalize(sentences(steps.text)[0]?.text ?? steps.text)}`
    } else if (parsed.lead === 'what' && /^(?:is|are)$/.test(parsed.aux)) {
      // `What is your phone number?` → `Our phone number is 0800 512 347.`; other things take a related case's name or amount.
      const thing = parsed.rest
      const digits = () => String(Math.floor(random() * 10))
      const value = /\bnumber\b/i.test(thing)
        ? `0800 ${Array.from({ length: 3 }, digits).join('')} ${Array.from({ length: 3 }, digits).join('')}`
        : (others.map((s) => s.text.match(/"[^"]+"|[$€£]\s?\d[\d,.]*|\d+(?:\s(?:to|-)\s\d+)?\s\p{L}+(?:\s\p{L}+)?/u)?.[0]).find(Boolean) ?? undefined)
      if (value) text = `${capitalize(thing)} ${parsed.aux} ${value}.`
    }
    if (text) out.push({ text, change: `refusal → confident answer ${q(text, 40)}` })
  }
  const borrowed = others[0]
  if (borrowed) out.push({ text: borrowed.text, change: `refusal → the answer of "${borrowed.id}"` })
  return out
}

/** `confident-answer`: an unanswerable question answered with confidence (unanswerable cases only). */
export const confidentAnswerOperator: MutationOperator = {
  name: 'confident-answer',
  description: 'For unanswerable cases: answers with confidence instead of refusing: Yes, we offer a student discount.',
  mutate: (context) => (context.source.unanswerable ? finish('confident-answer', context, confidentCandidates(context), 2) : []),
}
