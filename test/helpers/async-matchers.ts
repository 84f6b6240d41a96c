// Types of the model-backed matchers for this repository's own Vitest tests, until src/vitest.ts merges
// LlmAsyncMatchers into Vitest's Matchers (then this file can go).
import type { LlmAsyncMatchers } from '../../matchers/types.js'

declare module 'vitest' {
  interface Matchers extends LlmAsyncMatchers {}
}

export {}
