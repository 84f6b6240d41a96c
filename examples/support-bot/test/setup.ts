// What the example's tests share, registered after expect-llm/vitest (see vitest.config.ts).
import { configure } from 'expect-llm'

configure({
  // 256-dimension vectors, as the bot's retriever uses: plenty for comparing short answers, and small recordings.
  embedder: { dimensions: 256 },
})
