// Recording only: fixtures are looked up in the consumer project alone, so that every recording the
// consumer suite needs is written into its own __llm_fixtures__ (and none is borrowed from elsewhere in the repo).
import { fileURLToPath } from 'node:url'
import { configure } from 'expect-llm'

configure({ replay: { rootDir: fileURLToPath(new URL('./projects/vitest', import.meta.url)) } })
