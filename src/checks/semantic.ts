/** The `semantic` check: cosine similarity of embeddings, the best over the references. @module */
import { embedsPerCall } from '../embedders/batch.js'
import { resolveEmbedder } from '../embedders/resolve.js'
import { DEFAULT_SIMILARITY_THRESHOLD, type Embedder, type EmbedderLike } from '../embedders/types.js'
import { cosineSimilarity } from '../metrics/cosine.js'
import { fail, hasReference, result, runFail } from './shared.js'
import type { CheckDefinition } from './types.js'

/**
 * Embeddings for the `semantic` scorer in an order that does not depend on timing, so that recordings
 * replay: the references of all cases are embedded first, together (sorted, deduplicated), and then
 * each output on its own, one at a time. Concurrent cases would otherwise be merged into batches that
 * differ from run to run, and a replayed batch must be the same request as the recorded one.
 */
export class SemanticEmbeddings {
  private warm: Promise<void> | undefined
  private queue: Promise<unknown> = Promise.resolve()
  constructor(
    private readonly embedder: Embedder,
    private readonly references: () => string[],
  ) {}

  /** Embeds `[output, ...refs]`: refs from the shared warm-up, the output alone. */
  async embed(output: string, refs: string[]): Promise<{ output: number[]; refs: number[][] }> {
    // The warm-up only fills the cache; an embedder that sends one request per call (under record/replay)
    // has none to fill, and its per-case requests are deterministic already.
    this.warm ??= (async () => {
      const all = [...new Set(this.references())].sort()
      if (all.length > 0 && !embedsPerCall(this.embedder)) await this.embedder.embed(all)
    })()
    await this.warm
    const run = this.queue.then(() => this.embedder.embed([output, ...refs]))
    this.queue = run.catch(() => undefined)
    const [out, ...rest] = await run
    return { output: out as number[], refs: rest }
  }
}

/** What the semantic check keeps as `data`: the cosine similarity to each reference (unclamped), the best one's index, the embedder's name. */
export interface SemanticData {
  scores: number[]
  best: number
  embedder?: string
}

export const semantic: CheckDefinition = {
  name: 'semantic',
  defaultThreshold: DEFAULT_SIMILARITY_THRESHOLD,
  optionKeys: ['threshold', 'embedder'],
  appliesTo: hasReference,
  setup(plan, cases, env) {
    const embedder = resolveEmbedder(plan.options.embedder as EmbedderLike | undefined, fail)
    const refs = () =>
      cases()
        .filter((c) => c.answerable !== false)
        .flatMap((c) => [...(typeof c.expected === 'string' && c.expected.trim() !== '' ? [c.expected] : []), ...(c.acceptable ?? [])])
    env[plan.key] ??= new SemanticEmbeddings(embedder, refs)
  },
  async run({ output, references }, plan, env) {
    const embeddings = env[plan.key] as SemanticEmbeddings | undefined
    let vo: number[]
    let vr: number[][]
    let name: string | undefined
    if (embeddings) {
      ;({ output: vo, refs: vr } = await embeddings.embed(output, references))
    } else {
      // One output outside a suite (a matcher): one request, the output and then the references.
      const embedder = resolveEmbedder(plan.options.embedder as EmbedderLike | undefined, runFail(plan))
      name = embedder.name
      const [out, ...rest] = await embedder.embed([output, ...references])
      vo = out as number[]
      vr = rest
    }
    const scores = vr.map((v) => cosineSimilarity(vo, v))
    let best = 0
    scores.forEach((s, i) => {
      if (s > (scores[best] as number)) best = i
    })
    const data: SemanticData = { scores, best, ...(name !== undefined ? { embedder: name } : {}) }
    return result(Math.min(1, Math.max(0, scores[best] as number)), plan.threshold, undefined, undefined, data)
  },
}
