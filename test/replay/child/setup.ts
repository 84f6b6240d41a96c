// Setup file of the child run: what `expect-llm/vitest` does, from source. Replay must be listening once
// this module has been imported, before any test file builds a client at module level; under Vitest
// setupReplay() starts listening synchronously, so no top-level await is used here on purpose.
import { afterAll, afterEach, expect } from 'vitest'
import { configure } from '../../../src/config.js'
import { setupReplay } from '../../../src/replay/setup.js'

configure({ replay: { hosts: [process.env.CHILD_ORIGIN!], rootDir: process.env.CHILD_ROOT!, dir: process.env.CHILD_ROOT! } })
void setupReplay({ runner: 'vitest', afterEach, afterAll, expect })
