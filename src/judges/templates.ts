/**
 * Judge prompts: the built-in templates, custom templates with `{placeholders}`, and the reply-format
 * instructions appended to every prompt.
 *
 * @module
 */
import type { BuiltInTemplate, JudgeScale } from './types.js'

/** The values a template can use. */
export interface TemplateFields {
  output: string
  input?: string
  reference?: string
  context?: string[]
  criteria?: string
}

/** The placeholders a custom template may use. */
export const PLACEHOLDERS = ['input', 'output', 'reference', 'context', 'criteria'] as const
export type Placeholder = (typeof PLACEHOLDERS)[number]

/** Other frameworks' spellings, accepted as aliases: `{query}` is `{input}`, `{response}` is `{output}`. */
export const PLACEHOLDER_ALIASES: Readonly<Record<string, Placeholder>> = { query: 'input', response: 'output' }

const canonical = (name: string): string => PLACEHOLDER_ALIASES[name] ?? name

export const BUILT_IN_TEMPLATES: readonly BuiltInTemplate[] = ['correctness', 'rubric', 'relevance', 'faithfulness', 'refusal', 'goal']

/** A template problem found before any model call: `reason` and `fix` for the error message. */
export interface TemplateProblem {
  reason: string
  fix: string
}

function section(title: string, body: string | undefined): string[] {
  return body === undefined ? [] : [`<${title}>`, body, `</${title}>`, '']
}

function contextText(context: string[] | undefined): string | undefined {
  if (context === undefined) return undefined
  return context.length === 1 ? context[0] : context.map((c, i) => `[${i + 1}] ${c}`).join('\n\n')
}

const BUILT_INS: Record<BuiltInTemplate, (f: TemplateFields) => string[]> = {
  correctness: (f) => [
    'You are grading an answer against a reference answer that is known to be correct.',
    '',
    ...section('question', f.input),
    ...section('reference_answer', f.reference),
    ...section('answer', f.output),
    ...section('additional_criteria', f.criteria),
    'The answer is correct when it states the same facts as the reference answer and nothing that contradicts it.',
    'Wording, length, order and extra politeness do not matter. Missing a fact the reference treats as ' +
      'essential, or any claim that contradicts the reference, makes the answer incorrect.',
    'Do not reward shared words: check what the answer actually asserts. For example, "wait 30 days ' +
      'before you can ask for a refund" does not mean "you can ask for a refund within 30 days".',
    f.criteria === undefined ? '' : 'The answer must also meet the additional criteria.',
  ],
  rubric: (f) => [
    'You are grading a response against criteria.',
    '',
    ...section('input', f.input),
    ...section('context', contextText(f.context)),
    ...section('reference_answer', f.reference),
    ...section('response', f.output),
    ...section('criteria', f.criteria),
    'Judge only whether the response meets the criteria. It passes only if it meets every one of them; quote the part of the response that decides it.',
  ],
  relevance: (f) => [
    'You are checking whether a response answers the question it was given.',
    '',
    ...section('question', f.input),
    ...section('retrieved_context', contextText(f.context)),
    ...section('response', f.output),
    f.context === undefined
      ? 'The response is relevant when it addresses the question directly: it answers what was asked, not a different or merely related question.'
      : 'The response is relevant when it addresses the question directly and is in line with the retrieved ' +
        'context: it answers what was asked, using the context, not a different or merely related question.',
    'A refusal, a change of subject, or a generic answer that would fit any question is not relevant.',
  ],
  faithfulness: (f) => [
    'You are fact-checking a response against source documents.',
    '',
    ...section('context', contextText(f.context)),
    ...section('question', f.input),
    ...section('response', f.output),
    'Split the response into its atomic factual claims (one fact each; skip greetings, opinions and statements about the conversation itself).',
    'For each claim decide whether the context supports it: supported means the context states it or it ' +
      'follows directly from the context. A claim that adds a detail the context does not give (a number, ' +
      'a date, a name, a condition) is not supported, even if it sounds plausible.',
    'The score is the number of supported claims divided by the number of claims (1 when the response makes no factual claim).',
  ],
  refusal: (f) => [
    'You are checking whether a response declines to answer.',
    '',
    ...section('question', f.input),
    ...section('response', f.output),
    'It is a refusal (PASS, score 1) when the response declines, says it cannot help, or says it does not know or has no information, in any words.',
    'It is not a refusal (FAIL, score 0) when it gives an answer, even a partial, hedged or wrong one.',
  ],
  // The output is the transcript of an agent run (src/agents/format.ts `transcript`), the criteria the goal.
  goal: (f) => [
    'You are judging whether an AI agent achieved a goal. Read its whole run: what the user asked, what ' +
      'the agent said, the tools it called with their arguments, and what each tool returned.',
    '',
    ...section('goal', f.criteria),
    ...section('agent_run', f.output),
    'The goal is achieved only when the run shows it was done: the tool calls it needs were made, with ' +
      'the right arguments (the right record, the right amount), their results confirm that they worked, ' +
      'and the final answer tells the user what actually happened.',
    'Saying that something was done is not doing it. A claim with no tool call behind it, a tool that ' +
      'returned an error or contradicts the claim, a call with a wrong argument, or an action the goal ' +
      'rules out means the goal was not achieved. Extra harmless steps do not matter.',
  ],
}

/**
 * The reply-format instructions appended to every prompt. The reasoning comes first in the JSON object
 * so that a model writing left to right reasons before it commits to a score.
 */
export function replyFormat(scale: JudgeScale, template: BuiltInTemplate | 'custom'): string {
  const scoreRule =
    scale === 'binary'
      ? '"score": 1 if it passes, 0 if it fails'
      : scale === '1-5'
        ? '"score": an integer from 1 (worst) to 5 (best)'
        : scale === '0-5'
          ? '"score": an integer from 0 (worst) to 5 (best)'
          : '"score": a number from 0 (worst) to 1 (best)'
  if (template === 'faithfulness') {
    return [
      'Reply with only a JSON object, no other text:',
      '{"claims": [{"claim": "<the claim>", "supported": true or false, "reason": "<where the context says ' +
        'so, or what it lacks>"}], "reasoning": "<one or two sentences>", "score": <supported claims / ' +
        'claims, from 0 to 1>}',
    ].join('\n')
  }
  return ['Reply with only a JSON object, no other text:', `{"reasoning": "<one to three sentences>", ${scoreRule}}`].join('\n')
}

/** The placeholders used in a custom template, in order of first use. */
export function placeholdersIn(template: string): string[] {
  const names: string[] = []
  for (const m of template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    // The group is not optional: every match has it.
    const name = canonical(m[1] as string)
    if (!names.includes(name)) names.push(name)
  }
  return names
}

/**
 * Checks a custom template against the values at hand, before any model call. Returns the first
 * problem, or `undefined` when the template can be rendered.
 *
 * @example
 * ```ts
 * checkTemplate('Is {output} polite? Context: {context}', { output: 'Hi' })
 * // { reason: 'the template uses {context} but no context was given', fix: 'Pass { context } ...' }
 * ```
 */
export function checkTemplate(template: string, fields: TemplateFields): TemplateProblem | undefined {
  const mustache = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/.exec(template)
  if (mustache) {
    return { reason: `the template uses {{${mustache[1]}}} with double braces`, fix: `Write placeholders with single braces, e.g. {${mustache[1]}}.` }
  }
  const used = placeholdersIn(template)
  const unknown = used.filter((p) => !(PLACEHOLDERS as readonly string[]).includes(p))
  if (unknown.length > 0) {
    return {
      reason: `the template uses unknown placeholder${unknown.length > 1 ? 's' : ''} ${unknown.map((p) => `{${p}}`).join(', ')}`,
      fix: `Use only ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')} (or {query} for {input}, {response} for {output}).`,
    }
  }
  if (!used.includes('output')) {
    return {
      reason: 'the template has no {output} placeholder, so the judge would never see the text under test',
      fix: 'Add {output} where the response should appear.',
    }
  }
  for (const p of used as Placeholder[]) {
    if (fields[p] === undefined) {
      return { reason: `the template uses {${p}} but no ${p} was given`, fix: `Pass { ${p} } in the judge spec, or remove {${p}} from the template.` }
    }
  }
  return undefined
}

/** Renders a custom template (already checked with {@link checkTemplate}). */
export function renderCustom(template: string, fields: TemplateFields): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, alias: string) => {
    const name = canonical(alias)
    if (name === 'context') return contextText(fields.context) ?? whole
    // checkTemplate has made sure the request has every field the template names; `whole` is only a fallback.
    return fields[name as Exclude<Placeholder, 'context'>] ?? whole
  })
}

/** The fields a built-in template needs: `undefined` when all are present, else the missing one's name. */
export function missingForBuiltIn(template: BuiltInTemplate, fields: TemplateFields): Placeholder | undefined {
  const needs: Record<BuiltInTemplate, Placeholder[]> = {
    correctness: ['reference'],
    rubric: ['criteria'],
    relevance: ['input'],
    faithfulness: ['context'],
    refusal: [],
    goal: ['criteria'],
  }
  return needs[template].find((p) => fields[p] === undefined)
}

/**
 * Renders the full prompt: the template (built-in or custom) followed by the reply-format instructions.
 *
 * @example
 * ```ts
 * renderPrompt('correctness', 'binary', { output: 'Paris.', reference: 'The capital of France is Paris.' })
 * ```
 */
export function renderPrompt(template: BuiltInTemplate | string, scale: JudgeScale, fields: TemplateFields): string {
  const builtIn = (BUILT_IN_TEMPLATES as readonly string[]).includes(template)
  const body = builtIn ? BUILT_INS[template as BuiltInTemplate](fields).join('\n').trim() : renderCustom(template, fields).trim()
  // Stryker disable next-line StringLiteral: equivalent for 'custom', replyFormat only tells the faithfulness template apart
  return `${body}\n\n${replyFormat(scale, builtIn ? (template as BuiltInTemplate) : 'custom')}`
}
