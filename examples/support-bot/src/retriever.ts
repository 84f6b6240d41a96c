import { cosineSimilarity } from 'expect-llm'
import type OpenAI from 'openai'
import type { Chunk } from './chunk.js'

/** One retrieved chunk with its cosine similarity to the question. */
export interface Hit {
  chunk: Chunk
  score: number
}

export interface RetrieverOptions {
  /** Embedding model. Default `text-embedding-3-small`. */
  model?: string
  /** Shorter vectors (text-embedding-3 models accept `dimensions`). Default 256: plenty for a dozen sections. */
  dimensions?: number
}

/**
 * An in-memory vector index: every chunk is embedded once (one request for the whole handbook), the
 * question is embedded on each search, and chunks are ranked by cosine similarity.
 */
export class Retriever {
  private vectors: Promise<number[][]> | undefined
  /** Question embeddings already computed: asking the same question again costs no request. */
  private readonly queries = new Map<string, Promise<number[]>>()
  readonly model: string
  readonly dimensions: number

  constructor(
    private readonly client: OpenAI,
    readonly chunks: readonly Chunk[],
    options: RetrieverOptions = {},
  ) {
    this.model = options.model ?? 'text-embedding-3-small'
    this.dimensions = options.dimensions ?? 256
  }

  private async embed(texts: string[]): Promise<number[][]> {
    const res = await this.client.embeddings.create({ model: this.model, input: texts, dimensions: this.dimensions })
    return [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding)
  }

  /** Embeds the handbook (once; later calls reuse it). Call it before the first question to keep that question's latency honest. */
  index(): Promise<number[][]> {
    this.vectors ??= this.embed(this.chunks.map((c) => c.text)).catch((error: unknown) => {
      this.vectors = undefined
      throw error
    })
    return this.vectors
  }

  /** The `k` chunks most similar to the question, best first. */
  async search(question: string, k: number): Promise<Hit[]> {
    let query = this.queries.get(question)
    if (!query) {
      query = this.embed([question]).then(([v]) => v!)
      query.catch(() => this.queries.delete(question))
      this.queries.set(question, query)
    }
    const [vectors, q] = await Promise.all([this.index(), query])
    return vectors
      .map((v, i) => ({ chunk: this.chunks[i]!, score: cosineSimilarity(q, v) }))
      .sort((a, b) => b.score - a.score || a.chunk.id.localeCompare(b.chunk.id))
      .slice(0, k)
  }
}
