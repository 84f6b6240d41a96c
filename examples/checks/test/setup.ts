// Recordings of this example live in this folder only (see ../support-bot/test/setup.ts).
import { fileURLToPath } from 'node:url'
import { configure } from 'expect-llm'

configure({ replay: { rootDir: fileURLToPath(new URL('..', import.meta.url)) }, embedder: { dimensions: 256 } })
