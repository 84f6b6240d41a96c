// The whole workflow on the golden dataset: every case runs through the bot three times (the bot
// samples at temperature 0.7), and each answer is scored on retrieval, keywords, refusal, semantic
// similarity and an LLM judge. The aggregate test then checks the pass rate and means, compares the
// scores with the committed baseline (__golden__/), checks the latency and cost budget, and prints
// the report. Run it with `npm run demo`.
import { beforeAll } from 'vitest'
import { describeGolden } from 'expect-llm/vitest'
import { createSupportBot } from '../src/index.js'
import { dataset, testClient } from './client.js'

const bot = createSupportBot({ client: testClient(), prompt: 'v1', temperature: 0.7 })

// Embed the handbook before the first case, so that its one-off cost is not billed to that case.
beforeAll(() => bot.ready())

// Each case is answered three times (repeat: 3). Sample n of a case asks with seed n, so the three
// samples are three different requests with three recordings, and replay serves each its own answer.
// (Without seeds the three requests would be identical and replay one recording; configure
// { replay: { sequence: true } } is the other way to record several answers to one request.)
const samples = new Map<string, number>()
const nextSeed = (id: string) => {
  const n = samples.get(id) ?? 0
  samples.set(id, n + 1)
  return n
}

describeGolden<string>('support bot, prompt v1', {
  dataset,
  task: async (question, c) => {
    const { answer, retrieved, context } = await bot.answer(question, { seed: nextSeed(c.id) })
    // retrieved feeds the retrieval scorer; context is what the judge may check faithfulness against.
    return { output: answer, retrieved, context }
  },
  scorers: {
    // The relevant section must be in the top 3 with a similarity above 0.2: a relevant section that
    // only made the cut by tying with an irrelevant one, or with a score near zero, is a lucky tie.
    retrieval: { k: 3, minScore: 0.2 },
    // Cosine similarity to the reference answer (threshold chosen for the recordings' embeddings).
    semantic: 0.7,
    // An LLM judge compares each answer with the reference answer (the correctness template).
    judge: { threshold: 0.7 },
    // Unanswerable cases must say "I don't know"; answerable ones must not.
    refusal: true,
    // Recorded in the report, never fails: lexical overlap has no threshold that fits every answer.
    rougeL: null,
    // keywords: added automatically for the cases that list keywords.
  },
  repeat: 3,
  passAt: 2,
  thresholds: { passRate: 0.75, mean: { judge: 0.7, semantic: 0.6 } },
  baseline: { tolerance: 0.05 },
  budget: { p95LatencyMs: 2_000, maxCostUsd: 0.05 },
  // How strong are these checks? Each reference answer is turned into wrong answers that keep most of its
  // words (a flipped negation, a changed number, ...), and every check above scores them as if the bot had
  // said them: its mutation score is the share it rejects. The judge's calls on them replay from recordings
  // like the bot's. No gate here; `npm run demo:mutate` runs the file with --min-score 0.8.
  mutate: true,
  // Also write the HTML report (.expect-llm/report.html: every suite's report, with its history).
  report: { html: true },
})
