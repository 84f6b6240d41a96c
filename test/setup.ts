// Vitest setup for this repository's own tests: registers every matcher from source,
// exactly as users get them from `expect-llm/vitest`.
import '../src/entries/vitest'
