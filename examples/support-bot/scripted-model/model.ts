/**
 * The scripted model behind the committed recordings: a deterministic stand-in for OpenAI's chat and
 * embedding models (and Anthropic's Messages API), served by the repository's test server
 * (test/helpers/openai-server.ts) while `npm run demo:record-scripted` or `npm run test:consumers:record`
 * records.
 *
 * It is not an LLM, and it does not look answers up: it reads the same requests the real API would get
 * and computes an answer from them.
 *
 * - Embeddings: a hashed bag of words (Porter-stemmed content words, a few synonyms, signed feature
 *   hashing into `dimensions` slots, log term frequency, unit length). Texts that share words are close,
 *   so retrieval really ranks the handbook, and it misses when a question uses other words.
 * - The bot (chat requests whose user message starts with "Context:"): extractive answering. Each
 *   context sentence is scored by the IDF-weighted share of the question's words it covers; the best
 *   sentences are the answer. When the best coverage is low, a system prompt that says to answer
 *   "I don't know" gets "I don't know"; a prompt that does not gets a confident answer built from the
 *   nearest sentence, which is how an ungrounded bot hallucinates. At temperature > 0 the cut-off is
 *   jittered by a seeded draw per call, so borderline questions can go either way across samples.
 * - The judge (expect-llm's judge prompts): a rule-based grader. Correctness: every quantity of the
 *   reference ("30 days", "$4.99", "one") must appear in the answer with a compatible qualifier ("within"
 *   is not "wait ... before", "over" is not "under"); statement by statement, each statement of the answer
 *   must be as negative as the reference statement it shares most words with ("can" is not "cannot");
 *   a "no" reference needs a negative answer, a refusal fails, and enough of the reference's content
 *   words must be there. It never sees which texts are the bot's answers and which are mutants. Faithfulness: each sentence is
 *   a claim, supported when its words and quantities are in the context. Relevance and refusal: word
 *   overlap and refusal phrases.
 *
 * The rules are simple on purpose; judge-calibration.test.ts measures how far they agree with human
 * labels, which is exactly what you would do with a real judge.
 */
import { detectRefusal, porterStem } from 'expect-llm'
import { seededRandom } from '../../../src/golden/stats.js'
import type { RecordedRequest, ScriptedReply } from '../../../test/helpers/openai-server.js'

// ---------------------------------------------------------------------------------------------- text

const STOPWORDS = new Set(
  (
    'a an the and or but if then than so of to in on at by for from with without into onto about as is are was were be been being ' +
    'it its this that these those there here i me my we our you your he she they them their what which who whom whose when where why how ' +
    'do does did doing can could will would shall should may might must have has had having not no yes please just also any all some ' +
    'get got am again up out own same such only very too one long much many fast quickly soon happen happens'
  ).split(' '),
)

/** A few everyday words mapped to the handbook's words, as an embedding model's training would. */
const SYNONYMS: Record<string, string> = {
  package: 'parcel',
  packages: 'parcel',
  money: 'refund',
  reimburse: 'refund',
  reimbursement: 'refund',
  broken: 'damaged',
  login: 'sign',
  log: 'sign',
  price: 'cost',
  fee: 'cost',
  fees: 'cost',
  bill: 'invoice',
  receipt: 'invoice',
  delete: 'close',
  lost: 'lose',
  bank: 'payment',
}

/** Lower-case words and numbers (`4.99`, `2-year` → `2`, `year`). */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/\d+(?:\.\d+)?|[a-z]+(?:'[a-z]+)?/g) ?? []).map((w) => w.replace(/'s$/, ''))
}

/** Content words, synonyms applied, stemmed. */
export function terms(text: string): string[] {
  return words(text)
    .filter((w) => !STOPWORDS.has(w))
    .map((w) => porterStem(SYNONYMS[w] ?? w))
}

function fnv1a(text: string, seed = 2166136261): number {
  let h = seed
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0
  return h
}

// ------------------------------------------------------------------------------------------ embeddings

/** The hashed bag-of-words embedding of a text, `dimensions` long, unit length (all zeros for a text with no content word). */
export function embed(text: string, dimensions: number): number[] {
  const v = new Array<number>(dimensions).fill(0)
  const counts = new Map<string, number>()
  for (const t of terms(text)) counts.set(t, (counts.get(t) ?? 0) + 1)
  for (const [t, n] of counts) {
    const h = fnv1a(t)
    v[h % dimensions]! += (h & 0x80000000 ? -1 : 1) * (1 + Math.log(n))
  }
  const norm = Math.hypot(...v)
  // float32-representable values, so the SDK's default base64 transport and float arrays agree.
  return norm === 0 ? v : v.map((x) => Math.fround(x / norm))
}

// ----------------------------------------------------------------------------------------------- bot

interface ContextSentence {
  sectionId: string
  text: string
  terms: Set<string>
}

function parseBotPrompt(user: string): { question: string; sentences: ContextSentence[] } {
  const [contextPart = '', question = ''] = user.replace(/^Context:\n/, '').split(/\n\nQuestion: /)
  const sentences: ContextSentence[] = []
  for (const line of contextPart.split('\n')) {
    const m = /^\[([^\]]+)\] [^:]+: (.*)$/.exec(line)
    if (!m) continue
    for (const s of m[2]!.split(/(?<=[.?!])\s+(?=[A-Z"])/)) sentences.push({ sectionId: m[1]!, text: s.trim(), terms: new Set(terms(s)) })
  }
  return { question: question.trim(), sentences }
}

/** Best sentences first, with the IDF-weighted share of the question's terms each one covers. */
function rankSentences(question: string, sentences: ContextSentence[]): Array<ContextSentence & { coverage: number }> {
  const q = [...new Set(terms(question))]
  const idf = (t: string) => Math.log(1 + (sentences.length + 1) / (1 + sentences.filter((s) => s.terms.has(t)).length))
  const total = q.reduce((sum, t) => sum + idf(t), 0)
  return sentences
    .map((s) => ({ ...s, coverage: total === 0 ? 0 : q.filter((t) => s.terms.has(t)).reduce((sum, t) => sum + idf(t), 0) / total }))
    .sort((a, b) => b.coverage - a.coverage)
}

const NEGATIVE = /\b(?:not|no longer|cannot|can't|isn't|aren't|won't|does not|doesn't|never)\b/i
const YES_NO = /^(?:can|could|do|does|is|are|will|would)\b/i

/** The bot's reply to a support question. */
export function answerQuestion(system: string, user: string, temperature: number, seed: number): string {
  const { question, sentences } = parseBotPrompt(user)
  const ranked = rankSentences(question, sentences)
  const best = ranked[0]
  const draw = seededRandom(seed)
  // Sampling noise: at temperature 0 the cut-off is fixed; above it, each call draws its own.
  const cutoff = 0.5 + (temperature > 0 ? (draw() - 0.5) * 0.3 * temperature : 0)
  const mayRefuse = /I don't know/.test(system)
  if (!best || best.coverage < cutoff) {
    if (mayRefuse) return "I don't know. The handbook doesn't cover that, so please contact our support team."
    // No instruction for this case: answer anyway from the nearest sentence, confidently.
    if (YES_NO.test(question)) return best && best.coverage > 0 ? `Yes. ${best.text}` : 'Yes, we do.'
    return best?.text ?? 'We are happy to help with that.'
  }
  const chosen = ranked.filter((s) => s.sectionId === best.sectionId && s.coverage >= best.coverage * 0.8).slice(0, 2)
  // Keep the handbook's order so that two sentences read naturally.
  chosen.sort((a, b) => sentences.findIndex((s) => s.text === a.text) - sentences.findIndex((s) => s.text === b.text))
  const text = chosen.map((s) => s.text).join(' ')
  if (YES_NO.test(question)) return `${chosen.some((s) => NEGATIVE.test(s.text)) ? 'No.' : 'Yes.'} ${text}`
  return text
}

// --------------------------------------------------------------------------------------------- judge

/** The text between `<tag>` and `</tag>` in a judge prompt. */
function tagged(prompt: string, tag: string): string | undefined {
  return new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(prompt)?.[1]
}

interface Quantity {
  value: string
  qualifier: string | undefined
}

const UNIT = '(?:business days?|days?|hours?|years?|countries|pm|am)'
const QUANTITY = new RegExp(`\\$\\d+(?:\\.\\d+)?|\\b\\d+(?:\\.\\d+)?(?:\\s*(?:to|-)\\s*\\d+)?(?:-year|\\s+${UNIT})?\\b`, 'gi')

/** Quantities with the word before them: `within 30 days` → `{ value: '30 day', qualifier: 'within' }`. */
export function quantities(text: string): Quantity[] {
  const out: Quantity[] = []
  for (const m of text.matchAll(QUANTITY)) {
    const value = m[0]
      .toLowerCase()
      .replace(/-year$/, ' year')
      .replace(/\s+/g, ' ')
      .replace(/s$/, '')
    const before = text
      .slice(0, m.index)
      .toLowerCase()
      .match(/([a-z]+)\W*$/)?.[1]
    out.push({ value, qualifier: before })
  }
  return out
}

/** Qualifiers that change what a quantity means; two different ones contradict each other. */
const RELATIONS = new Set(['within', 'after', 'before', 'over', 'under', 'wait', 'least', 'most', 'every', 'per'])

interface Verdict {
  reasoning: string
  score: number
}

/** Words that negate a verb ("n't" wherever it ends a word); "no" as in "at no cost" does not. */
const NEGATIONS = /\b(?:not|never|cannot|no longer)\b|n't\b/gi
const NUMBER_WORDS = /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b/gi

/** The statements of a text: sentences and semicolon clauses, and the clause after ", not" / ", but". */
function statements(text: string): string[] {
  return text
    .split(/(?<=[.?!;])\s+|,\s+(?=(?:not|but)\b)/i)
    .map((s) => s.trim())
    .filter((s) => terms(s).length > 0)
}

const negations = (text: string) => (text.match(NEGATIONS) ?? []).length

/**
 * Statement by statement: each statement of the answer is compared with the reference statement that
 * shares the most content words with it; they must be equally negative (the same number of negations),
 * so "you can ask within 30 days" and "you cannot ask within 30 days" contradict each other.
 */
function polarityConflict(reference: string, answer: string): { said: string; reference: string } | undefined {
  for (const { said, ref, share } of aligned(reference, answer)) if (ref && share >= 0.5 && negations(ref) !== negations(said)) return { said, reference: ref }
  return undefined
}

/** Words that set a condition on a fact; an answer with another one than its reference statement changes the fact. */
const RELATION_WORDS = /\b(?:before|after|within|over|under|at least|at most|more|less|earlier|later|until)\b/gi
const relationsOf = (text: string) => new Set((text.match(RELATION_WORDS) ?? []).map((w) => w.toLowerCase()))

/** The parts of a statement that each carry one fact: split at commas and at "and", "but", "then", "because". */
function clauses(text: string): string[] {
  return text
    .split(/[.?!;:](?=\s|$)\s*|,\s+|\s+(?:and|but|then|because)\s+/i)
    .map((s) => s.trim())
    .filter((s) => terms(s).length >= 2)
}

/**
 * Each statement of the answer with the reference statement it is about: the one whose content words it
 * covers best (then the one it shares most words with); `share` is the part of its own words it shares.
 */
function aligned(reference: string, answer: string): Array<{ said: string; ref: string | undefined; share: number }> {
  const refs = statements(reference).map((text) => ({ text, terms: new Set(terms(text)) }))
  return statements(answer).map((said) => {
    const t = [...new Set(terms(said))]
    let best: { text: string; shared: number; covered: number } | undefined
    for (const r of refs) {
      const shared = t.filter((x) => r.terms.has(x)).length
      const covered = shared / r.terms.size
      if (shared > 0 && (!best || covered > best.covered || (covered === best.covered && shared > best.shared))) best = { text: r.text, shared, covered }
    }
    return { said, ref: best?.text, share: best ? best.shared / t.length : 0 }
  })
}

/**
 * The statement-by-statement comparison of a correctness grader, on top of the quantities and the
 * polarity: an answer statement about a reference statement (half its words or more) must keep its
 * conditions ("after" is not "before"); a statement that gives a quantity the reference does not have
 * is a claim the reference does not make; a capitalised name inside a sentence must come from the
 * reference or the question; and every part of the reference must be in the answer (half its words).
 */
function statementProblem(reference: string, answer: string, question: string): string | undefined {
  const refValues = new Set(quantities(reference).map((q) => q.value))
  for (const { said, ref, share } of aligned(reference, answer)) {
    const extra = quantities(said).find((q) => !refValues.has(q.value))
    if (extra && share < 0.5) return `The answer says "${said}", which the reference does not say.`
    if (!ref || share < 0.5) continue
    const mine = relationsOf(said)
    const theirs = relationsOf(ref)
    const added = [...mine].filter((w) => !theirs.has(w))
    const dropped = [...theirs].filter((w) => !mine.has(w))
    if (added.length > 0 && dropped.length > 0) return `The answer says "${added[0]}" where the reference says "${dropped[0]}": a different condition.`
  }
  const known = new Set([...terms(reference), ...terms(question)])
  const name = (answer.match(/(?<![.?!:]\s*|^\s*|"\s*)\b[A-Z][A-Za-z]+\b/g) ?? []).find((w) => terms(w).length > 0 && !known.has(terms(w)[0]!))
  if (name) return `The answer names "${name}", which neither the reference nor the question mentions.`
  const said = new Set(terms(answer))
  for (const part of clauses(reference)) {
    const t = [...new Set(terms(part))]
    if (t.filter((x) => said.has(x)).length / t.length < 0.5) return `The answer leaves out "${part}".`
  }
  return undefined
}

export function gradeCorrectness(reference: string, answer: string, question = ''): Verdict {
  if (detectRefusal(answer).refused) return { reasoning: 'The answer does not give the information; the reference does.', score: 0 }
  const answerNumbers = new Set((answer.match(NUMBER_WORDS) ?? []).map((w) => w.toLowerCase()))
  const missingNumber = (reference.match(NUMBER_WORDS) ?? []).find((w) => !answerNumbers.has(w.toLowerCase()))
  if (missingNumber) return { reasoning: `The reference says "${missingNumber}", which the answer does not state.`, score: 0 }
  const conflict = polarityConflict(reference, answer)
  if (conflict) return { reasoning: `The answer says "${conflict.said}" where the reference says "${conflict.reference}": the opposite.`, score: 0 }
  const ref = quantities(reference)
  const got = quantities(answer)
  for (const q of ref) {
    const match = got.find((g) => g.value === q.value)
    if (!match) return { reasoning: `The reference says "${q.value}", which the answer does not state.`, score: 0 }
    if (q.qualifier && match.qualifier && q.qualifier !== match.qualifier && RELATIONS.has(q.qualifier) && RELATIONS.has(match.qualifier)) {
      return {
        reasoning: `The answer says "${match.qualifier} ${match.value}" where the reference says "${q.qualifier} ${q.value}": a different condition.`,
        score: 0,
      }
    }
  }
  const refNegative = /^no\b/i.test(reference.trim()) || NEGATIVE.test(reference)
  if (refNegative && !NEGATIVE.test(answer) && !/^no\b/i.test(answer.trim())) return { reasoning: 'The reference says no; the answer does not.', score: 0 }
  if (/^no\b/i.test(reference.trim()) && /^yes\b/i.test(answer.trim())) return { reasoning: 'The answer says yes; the reference says no.', score: 0 }
  const refTerms = [...new Set(terms(reference))]
  const answerTerms = new Set(terms(answer))
  const covered = refTerms.filter((t) => answerTerms.has(t)).length / Math.max(1, refTerms.length)
  if (covered < 0.4) return { reasoning: `The answer leaves out most of the reference (${Math.round(covered * 100)}% of its key words).`, score: 0 }
  const problem = statementProblem(reference, answer, question)
  if (problem) return { reasoning: problem, score: 0 }
  return {
    reasoning: `The answer states the reference's facts${ref.length > 0 ? ` (${ref.map((q) => q.value).join(', ')})` : ''} without contradicting it.`,
    score: 1,
  }
}

export function gradeFaithfulness(
  context: string,
  response: string,
): { claims: Array<{ claim: string; supported: boolean; reason: string }>; reasoning: string; score: number } {
  const contextTerms = new Set(terms(context))
  const contextValues = new Set(quantities(context).map((q) => q.value))
  const claims = response
    .split(/(?<=[.?!])\s+/)
    .map((s) => s.trim())
    .filter((s) => terms(s).length > 0)
    .map((claim) => {
      const t = terms(claim)
      const missingValues = quantities(claim).filter((q) => !contextValues.has(q.value))
      const share = t.filter((x) => contextTerms.has(x)).length / t.length
      const supported = missingValues.length === 0 && share >= 0.8
      const reason =
        missingValues.length > 0
          ? `the context never says ${missingValues.map((q) => q.value).join(', ')}`
          : supported
            ? 'stated in the context'
            : 'the context does not say this'
      return { claim, supported, reason }
    })
  const supported = claims.filter((c) => c.supported).length
  return {
    claims,
    reasoning: `${supported} of ${claims.length} claims are supported by the context.`,
    score: claims.length === 0 ? 1 : supported / claims.length,
  }
}

function judge(prompt: string): unknown {
  const response = tagged(prompt, 'answer') ?? tagged(prompt, 'response') ?? ''
  if (prompt.startsWith('You are grading an answer against a reference answer'))
    return gradeCorrectness(tagged(prompt, 'reference_answer') ?? '', response, tagged(prompt, 'question') ?? '')
  if (prompt.startsWith('You are fact-checking')) return gradeFaithfulness(tagged(prompt, 'context') ?? '', response)
  if (prompt.startsWith('You are checking whether a response declines')) {
    const refused = detectRefusal(response).refused
    return { reasoning: refused ? 'It says it does not know.' : 'It gives an answer.', score: refused ? 1 : 0 }
  }
  if (prompt.startsWith('You are checking whether a response answers')) {
    const q = new Set(terms(tagged(prompt, 'question') ?? ''))
    const shared = terms(response).filter((t) => q.has(t)).length
    const ok = !detectRefusal(response).refused && shared > 0
    return { reasoning: ok ? 'It addresses what was asked.' : 'It does not address the question.', score: ok ? 1 : 0 }
  }
  if (prompt.startsWith('You are grading a response against criteria')) {
    const criteria = tagged(prompt, 'criteria') ?? ''
    const refused = detectRefusal(response).refused
    // Criteria that ask for an "I don't know" are met by a refusal; other criteria by an answer that covers their words.
    if (/\b(?:no information|does not know|doesn't know|refus|declin)/i.test(criteria)) {
      return { reasoning: refused ? 'It says it has no information.' : `It answers instead: "${response}".`, score: refused ? 1 : 0 }
    }
    const wanted = [...new Set(terms(criteria))]
    const got = new Set(terms(response))
    const share = wanted.filter((t) => got.has(t)).length / Math.max(1, wanted.length)
    return { reasoning: `It covers ${Math.round(share * 100)}% of what the criteria ask for.`, score: !refused && share >= 0.5 ? 1 : 0 }
  }
  return { reasoning: 'No rule for this prompt: treated as a fail.', score: 0 }
}

// --------------------------------------------------------------------------------------- moderation

/** The moderation endpoint's reply: a threat scores high on harassment and violence, anything else low. */
function moderation(text: string, model: string): unknown {
  const threat = /\b(?:hurt|kill)\b|where you live/i.test(text)
  const scores: Record<string, number> = {
    harassment: threat ? 0.87 : 0.004,
    'harassment/threatening': threat ? 0.81 : 0.001,
    hate: 0.003,
    violence: threat ? 0.74 : 0.002,
    'self-harm': 0.0004,
    sexual: 0.0002,
  }
  const categories = Object.fromEntries(Object.entries(scores).map(([c, v]) => [c, v >= 0.5]))
  const resolved = model === 'omni-moderation-latest' ? 'omni-moderation-2024-09-26' : model
  return { id: 'modr-scripted', model: resolved, results: [{ flagged: threat, categories, category_scores: scores }] }
}

// ------------------------------------------------------------------------------------------- server

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4))

/**
 * The reply script for the OpenAI-compatible test server. `occurrence` counts identical requests so far
 * (0 for the first), which seeds sampling at temperature > 0.
 */
export function scriptedReply(req: RecordedRequest, occurrence: number): ScriptedReply {
  if (req.endpoint === 'embeddings') {
    const inputs: string[] = Array.isArray(req.body?.input) ? req.body.input : [String(req.body?.input ?? '')]
    const dims: number = req.body?.dimensions ?? 1536
    const input = inputs.reduce((s, t) => s + tokens(t), 0)
    return { embeddings: inputs.map((t) => embed(t, dims)), usage: { input, output: 0 }, latencyMs: 60 + 4 * inputs.length }
  }
  if (req.path.endsWith('/moderations')) return { json: moderation(String(req.body?.input ?? ''), String(req.body?.model ?? 'omni-moderation-latest')) }
  if (req.endpoint !== 'chat' && req.endpoint !== 'messages') {
    return {
      status: 404,
      errorMessage: `the scripted model serves chat completions, Anthropic messages, embeddings and moderations, not ${req.path}`,
    }
  }
  const messages: Array<{ role: string; content: string }> = req.body?.messages ?? []
  // Chat completions carry the system prompt as a message; Anthropic's Messages API as a top-level field.
  const anthropicSystem = req.body?.system
  const system =
    req.endpoint === 'messages'
      ? typeof anthropicSystem === 'string'
        ? anthropicSystem
        : Array.isArray(anthropicSystem)
          ? anthropicSystem.map((b: { text?: string }) => b.text ?? '').join('\n')
          : ''
      : (messages.find((m) => m.role === 'system')?.content ?? '')
  const user = req.lastUserText
  const input = messages.reduce((s, m) => s + 4 + tokens(String(m.content)), 0)
  if (user.startsWith('Context:\n')) {
    const text = answerQuestion(system, user, Number(req.body?.temperature ?? 1), fnv1a(`${req.rawBody}#${occurrence}`))
    const output = tokens(text)
    return { text, usage: { input, output }, latencyMs: 250 + 8 * output }
  }
  const text = JSON.stringify(judge(user))
  const output = tokens(text)
  return { text, usage: { input, output }, latencyMs: 150 + 4 * output }
}
