import type OpenAI from 'openai'
import { handbook as defaultHandbook, type HandbookSection } from './handbook.js'
import { chunkHandbook } from './chunk.js'
import { prompts, userMessage, type PromptVersion } from './prompts.js'
import { Retriever } from './retriever.js'

export interface SupportBotOptions {
  /** The OpenAI client (any OpenAI-compatible server works through its `baseURL`). Nothing global is read. */
  client: OpenAI
  /** Chat model. Default `gpt-4.1-mini`. */
  model?: string
  /** Which system prompt. Default `v1`. */
  prompt?: PromptVersion
  /** How many chunks go into the context. Default 3. */
  k?: number
  /** Sampling temperature. Default 0. */
  temperature?: number
  embeddingModel?: string
  embeddingDimensions?: number
  handbook?: readonly HandbookSection[]
  /** Share an index between bots (for example two prompt versions): the handbook is embedded once. */
  retriever?: Retriever
}

/** What the bot returns: the answer and what it was based on (what tests check retrieval and faithfulness against). */
export interface BotAnswer {
  answer: string
  /** Retrieved sections, best first, one entry per section with its best chunk's score. */
  retrieved: Array<{ id: string; score: number }>
  /** The chunk texts that were put into the prompt. */
  context: string[]
}

export interface SupportBot {
  readonly prompt: PromptVersion
  readonly model: string
  readonly retriever: Retriever
  /** Embeds the handbook now (otherwise the first question does it). */
  ready(): Promise<void>
  /** `seed` is passed to the chat model: with temperature > 0, different seeds sample different answers. */
  answer(question: string, options?: { seed?: number }): Promise<BotAnswer>
}

/**
 * A retrieval-augmented support bot: embed the question, take the `k` most similar handbook chunks,
 * and ask the chat model to answer from them only.
 *
 * @example
 * ```ts
 * const bot = createSupportBot({ client: new OpenAI() })
 * const { answer, retrieved } = await bot.answer('How long do I have to ask for a refund?')
 * ```
 */
export function createSupportBot(options: SupportBotOptions): SupportBot {
  const model = options.model ?? 'gpt-4.1-mini'
  const prompt = options.prompt ?? 'v1'
  const k = options.k ?? 3
  const retriever =
    options.retriever ??
    new Retriever(options.client, chunkHandbook(options.handbook ?? defaultHandbook), {
      ...(options.embeddingModel ? { model: options.embeddingModel } : {}),
      ...(options.embeddingDimensions ? { dimensions: options.embeddingDimensions } : {}),
    })
  return {
    prompt,
    model,
    retriever,
    async ready() {
      await retriever.index()
    },
    async answer(question, answerOptions = {}) {
      const hits = await retriever.search(question, k)
      const completion = await options.client.chat.completions.create({
        model,
        temperature: options.temperature ?? 0,
        ...(answerOptions.seed !== undefined ? { seed: answerOptions.seed } : {}),
        messages: [
          { role: 'system', content: prompts[prompt] },
          {
            role: 'user',
            content: userMessage(
              question,
              hits.map((h) => ({ sectionId: h.chunk.sectionId, text: h.chunk.text })),
            ),
          },
        ],
      })
      const retrieved: BotAnswer['retrieved'] = []
      for (const h of hits) if (!retrieved.some((r) => r.id === h.chunk.sectionId)) retrieved.push({ id: h.chunk.sectionId, score: h.score })
      return { answer: completion.choices[0]?.message.content?.trim() ?? '', retrieved, context: hits.map((h) => h.chunk.text) }
    },
  }
}
