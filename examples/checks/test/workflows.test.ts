// The workflows teams run with checks of their own, on the support bot's golden dataset (20 cases):
//
// 1. a code evaluator as a scored metric with a gate (LangSmith-style "shorter than twice the reference,
//    in characters"), with a mean, a gate and a baseline;
// 2. three judges in one suite, each with its own criteria, threshold, mean and recordings;
// 3. a weighted composite that counts the judge twice as much as ROUGE-L;
// 4. dataset-level retrieval precision, recall and F1 at k (micro and macro in the report), beside MRR.
import { beforeAll } from 'vitest'
import { defineCheck } from 'expect-llm'
import { describeGolden } from 'expect-llm/vitest'
import { createSupportBot } from '../../support-bot/src/index.js'
import { dataset, testClient } from '../../support-bot/test/client.js'

const bot = createSupportBot({ client: testClient(), prompt: 'v1', temperature: 0 })
beforeAll(() => bot.ready())

const task = async (question: string) => {
  const { answer, retrieved, context } = await bot.answer(question, { seed: 0 })
  return { output: answer, retrieved, context }
}

// 1. A code evaluator: 1 when the answer is shorter than twice the reference answer, in characters.
export const concise = defineCheck({
  name: 'concise',
  threshold: 1,
  run: (output, c) => {
    const max = 2 * String(c.expected ?? '').length
    return output.length < max ? 1 : { score: 0, reason: `${output.length} characters, at least ${max}` }
  },
})

describeGolden<string>('code evaluator with a gate', {
  dataset,
  filter: (c) => c.answerable !== false,
  task,
  scorers: { concise },
  thresholds: { passRate: 0.8, mean: { concise: 0.9 } },
  baseline: { tolerances: { concise: 0.05 } },
  report: { console: false },
})

// 2 and 3. Three judges, and a composite that weights the correctness judge twice as much as ROUGE-L.
describeGolden<string>('three judges and a weighted composite', {
  dataset,
  filter: (c) => c.answerable !== false,
  task,
  scorers: {
    // Correctness against the reference answer, relevance to the question, faithfulness to the retrieved
    // context: three instances of the judge check, each with its own template, scale and threshold.
    'judge:correctness': { threshold: 0.7 },
    'judge:relevant': { template: 'relevance', useReference: false },
    'judge:grounded': { template: 'faithfulness', scale: '0-1', useReference: false, threshold: 0.8 },
    rougeL: null,
    'composite:quality': { weights: { 'judge:correctness': 2, rougeL: 1 }, threshold: 0.5 },
  },
  thresholds: { passRate: 0.8, mean: { 'judge:correctness': 0.9, 'judge:relevant': 0.9, 'judge:grounded': 0.8, 'composite:quality': 0.8 } },
  report: { console: false },
})

// 4. Retrieval: several metrics of one retriever in one suite; the report has micro and macro P/R/F1@3.
describeGolden<string>('dataset retrieval F1', {
  dataset,
  filter: (c) => c.relevant !== undefined,
  task,
  scorers: {
    'retrieval:f1': { metric: 'f1', k: 3, threshold: null },
    'retrieval:recall': { metric: 'recall', k: 3 },
    'retrieval:mrr': { metric: 'mrr', threshold: null },
  },
  // passRate: a case below a threshold (the keywords the cases list) is recorded; the gates decide.
  thresholds: { passRate: 0.8, mean: { 'retrieval:recall': 0.9, 'retrieval:mrr': 0.9 } },
  report: { console: false },
})
