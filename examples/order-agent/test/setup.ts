// What the example's tests share, registered after expect-llm/vitest (see vitest.config.ts).
import { fileURLToPath } from 'node:url'
import { configure } from 'expect-llm'

// The example is its own project inside this repository: recordings are looked up (by hash) in this
// folder only, so it never borrows a recording from another suite of the repository.
configure({ replay: { rootDir: fileURLToPath(new URL('..', import.meta.url)) } })
