import type { RougeLMatcherOptions } from './toHaveRougeLAbove.js'
import type { RougeNMatcherOptions } from './toHaveRougeNAbove.js'
import type { ChrFMatcherOptions } from './toHaveChrFAbove.js'
import type { TerMatcherOptions } from './toHaveTerBelow.js'
import type { KeywordsMatcherOptions } from './toContainKeywords.js'
import type { ConciseOptions } from './toBeConcise.js'
import type { RetrieveOptions } from './toRetrieve.js'
import type { CallToolsOptions, ExpectedToolCall } from './toCallTools.js'
import type { StepsOptions } from './toUseAtMostSteps.js'
import type { SchemaLike } from '../src/schema.js'
import type { JudgeSpec } from '../src/judges/types.js'
import type { CalibrationCase } from '../src/calibration.js'
import type { SemanticSimilarityOptions } from './toBeSemanticallySimilar.js'
import type { RelevanceOptions } from './toBeRelevantTo.js'
import type { FaithfulnessOptions } from './toBeFaithfulTo.js'
import type { RefuseOptions } from './toRefuse.js'
import type { AgreeWithLabelsOptions } from './toAgreeWithLabels.js'
import type { GoalOptions } from './toCompleteGoal.js'
import type { CheckCaseFields } from './toPassCheck.js'
import type { PIIMatcherOptions } from './toContainPII.js'
import type { ModerationOptions } from '../src/safety/moderation.js'
import type { Check } from '../src/checks/define.js'
import type { StandardSchemaV1 } from '@standard-schema/spec'

/**
 * The synchronous expect-llm matchers, declared once and merged into Vitest's and Jest's `Matchers`.
 * `R` is the runner's return type (`void` for synchronous matchers).
 */
export interface LlmMatchers<R = void> {
  /**
   * Passes when the output holds a secret (API key, bearer token, private key, a key variable's value). Use with `.not`.
   * @example expect(answer).not.toLeakSecrets()
   */
  toLeakSecrets(): R
  /**
   * Passes when the output holds personal data (emails, phone numbers, card numbers, IBANs). Use with `.not`.
   * @example expect(answer).not.toContainPII({ kinds: ['email', 'card'] })
   */
  toContainPII(options?: PIIMatcherOptions): R
  /**
   * Passes when ROUGE-L (F-measure by default) against `reference` is at least `threshold` (inclusive).
   * @example expect(summary).toHaveRougeLAbove(referenceSummary, 0.4)
   */
  toHaveRougeLAbove(reference: string, threshold: number, options?: RougeLMatcherOptions): R
  /**
   * Passes when ROUGE-N (n = 1 for unigrams, 2 for bigrams, ...) against `reference` is at least `threshold`.
   * @example expect(summary).toHaveRougeNAbove(referenceSummary, 2, 0.3)
   */
  toHaveRougeNAbove(reference: string, n: number, threshold: number, options?: RougeNMatcherOptions): R
  /**
   * Passes when SQuAD token F1 against the reference (or the best of several) is at least `threshold`.
   * @example expect(answer).toHaveTokenF1Above(['Paris', 'Paris, France'], 0.8)
   */
  toHaveTokenF1Above(reference: string | string[], threshold: number): R
  /**
   * Passes when sacrebleu sentence BLEU / 100 against the reference(s) is at least `threshold`.
   * @example expect(translation).toHaveBleuAbove('Le chat est sur le tapis.', 0.3)
   */
  toHaveBleuAbove(reference: string | string[], threshold: number): R
  /**
   * Passes when sacrebleu chrF / 100 (chrF++ with `{ wordOrder: 2 }`) against the reference(s) is at least `threshold`.
   * @example expect(translation).toHaveChrFAbove('Die Katze sitzt auf der Matte.', 0.6)
   */
  toHaveChrFAbove(reference: string | string[], threshold: number, options?: ChrFMatcherOptions): R
  /**
   * Passes when sacrebleu TER / 100 (word edits per reference word, lower is better) against the reference(s) is at most `threshold`.
   * @example expect(translation).toHaveTerBelow('The cat is on the mat.', 0.2)
   */
  toHaveTerBelow(reference: string | string[], threshold: number, options?: TerMatcherOptions): R
  /**
   * Passes when 1 - Levenshtein distance / max length (in code points) is at least `threshold`.
   * @example expect(sku).toHaveEditSimilarityAbove('AB-1234-X', 0.9)
   */
  toHaveEditSimilarityAbove(reference: string, threshold: number): R
  /**
   * Passes when the output equals an acceptable answer after SQuAD normalization (case, ASCII punctuation, articles, spacing).
   * @example expect('The Eiffel Tower.').toMatchAnswer(['Eiffel Tower', 'la tour Eiffel'])
   */
  toMatchAnswer(expected: string | string[]): R
  /**
   * Passes when an acceptable answer occurs, as whole normalized tokens, inside the output.
   * @example expect('It opened in 1889, in Paris.').toContainAnswer('1889')
   */
  toContainAnswer(expected: string | string[]): R
  /**
   * Passes when every keyword (or any, with `{ mode: 'any' }`) occurs as a whole word, case-insensitively.
   * @example expect(answer).toContainKeywords(['refund', '30 days'])
   */
  toContainKeywords(words: string[], options?: KeywordsMatcherOptions): R
  /**
   * Passes when the output holds JSON (code fences allowed) that satisfies a Standard Schema (zod, valibot, ...) or a JSON Schema.
   * @example expect(reply).toMatchSchema(z.object({ city: z.string() }))
   */
  toMatchSchema(schema: SchemaLike): R
  /**
   * Passes when the output stays within the word/character limits, or within `factor` × the reference's words.
   * @example expect(answer).toBeConcise({ maxWords: 50 })
   */
  toBeConcise(options: ConciseOptions): R
  /**
   * Passes when a relevant id is retrieved within the top `k` and the hit is not a lucky tie.
   * @example expect(retrieved).toRetrieve(['refund-policy'], { k: 3 })
   */
  toRetrieve(relevantIds: string[], options?: RetrieveOptions): R
  /**
   * On an agent run (OpenAI, Responses, AI SDK, Anthropic, LangChain or plain items): passes when the tool was
   * called, with arguments that contain `args` (asymmetric matchers allowed) or satisfy a schema.
   * @example expect(completion).toCallTool('refundOrder', { orderId: 'A17', amount: expect.any(Number) })
   */
  toCallTool(name: string, args?: Record<string, unknown> | unknown[] | StandardSchemaV1): R
  /**
   * On an agent run: passes when the expected calls were made (`order`: 'in-order' by default, 'strict' or 'any';
   * `extra`: 'allow' by default, or 'forbid'). Each is a tool name or `{ name, args }`.
   * @example expect(result).toCallTools(['lookupOrder', { name: 'refundOrder', args: { amount: 30 } }], { extra: 'forbid' })
   */
  toCallTools(expected: ExpectedToolCall[], options?: CallToolsOptions): R
  /**
   * On an agent run: passes when every tool call names a declared tool and its arguments satisfy that tool's schema
   * (OpenAI, Responses, Anthropic, AI SDK, LangChain or MCP tool definitions). Fails when there is no tool call.
   * @example expect(completion).toHaveValidToolArguments(request.tools)
   */
  toHaveValidToolArguments(tools: unknown[] | Record<string, unknown>): R
  /**
   * On an agent run: passes when it took at most `steps` model responses; `{ repeatedCalls: 'forbid' }` also fails
   * on a tool called twice with the same arguments (loop guard).
   * @example expect(result).toUseAtMostSteps(5, { repeatedCalls: 'forbid' })
   */
  toUseAtMostSteps(steps: number, options?: StepsOptions): R
}

/**
 * The model-backed expect-llm matchers. They are `async`: every method returns `Promise<void>` in
 * both runners, so always `await` them. They are not offered as asymmetric matchers.
 */
export interface LlmAsyncMatchers {
  /**
   * Passes when the embedding cosine similarity to `expected` (the best of a list) is at least `threshold` (default 0.8).
   * @example await expect(answer).toBeSemanticallySimilar('You can ask for a refund within 30 days.')
   */
  toBeSemanticallySimilar(expected: string | string[], options?: SemanticSimilarityOptions): Promise<void>
  /**
   * Passes when an LLM judge scores the output at least `threshold` (default 0.7) against criteria, a reference answer or a template.
   * @example await expect(answer).toPassJudge({ reference: 'Refunds within 30 days.', input: question })
   */
  toPassJudge(criteria: string | JudgeSpec, options?: JudgeSpec): Promise<void>
  /**
   * Passes when an LLM judge finds that the output addresses `query` (in line with `context`, if given).
   * @example await expect(answer).toBeRelevantTo('How long do I have to ask for a refund?', { context: docs })
   */
  toBeRelevantTo(query: string, options?: RelevanceOptions): Promise<void>
  /**
   * Passes when every claim of the output is supported by the context (share of supported claims >= `threshold`, default 1).
   * @example await expect(answer).toBeFaithfulTo(retrievedDocs)
   */
  toBeFaithfulTo(context: string | string[], options?: FaithfulnessOptions): Promise<void>
  /**
   * Passes when the output declines or says it does not know: phrase rules, then the judge with `{ judge: true }`.
   * @example await expect(answer).not.toRefuse()
   */
  toRefuse(options?: RefuseOptions): Promise<void>
  /**
   * On a judge or judge spec: passes when its verdicts agree with human PASS/FAIL labels (agreement >= 0.8, kappa >= 0.6 by default).
   * @example await expect({ criteria: 'States the refund window correctly' }).toAgreeWithLabels(labelledCases)
   */
  toAgreeWithLabels(labelled: CalibrationCase[], options?: AgreeWithLabelsOptions): Promise<void>
  /**
   * On an agent run: passes when an LLM judge, reading the whole run (messages, tool calls and results), finds the goal achieved.
   * @example await expect(messages).toCompleteGoal('Refund order A17 and tell the customer the refund id')
   */
  toCompleteGoal(goal: string, options?: GoalOptions): Promise<void>
  /**
   * Passes when a check made by `defineCheck` scores the output at least `threshold` (default: the check's own).
   * @example await expect(answer).toPassCheck(concise, 1, { expected: 'Refunds take 30 days.' })
   */
  toPassCheck(check: Check<any, any, any>, threshold?: number, caseFields?: CheckCaseFields): Promise<void>
  /**
   * Passes when OpenAI's moderation endpoint does not flag the output (recorded and replayed like every model call).
   * @example await expect(answer).toPassModeration({ categories: ['harassment'] })
   */
  toPassModeration(options?: ModerationOptions): Promise<void>
}
