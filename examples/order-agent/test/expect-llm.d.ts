// Brings expect-llm's matcher types into the tests (what `setupFiles: ['expect-llm/vitest']` registers
// at run time). In your project, the same line in any .d.ts file, or one import of 'expect-llm/vitest'.
import type {} from 'expect-llm/vitest'
