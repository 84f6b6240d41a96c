// Setup file of the child run: the real `expect-llm/vitest` entry, from source, which starts replay
// while it is imported (synchronously under Vitest, no top-level await), before any test file builds a
// client at module level. The replay options are read on every request, so configuring after it is fine.
import '../../../src/entries/vitest.js'
import { configure } from '../../../src/config.js'

configure({
  replay: {
    hosts: [process.env.CHILD_ORIGIN!, ...(process.env.CHILD_EARLY_ORIGIN ? [process.env.CHILD_EARLY_ORIGIN] : [])],
    rootDir: process.env.CHILD_ROOT!,
    dir: process.env.CHILD_ROOT!,
  },
})
