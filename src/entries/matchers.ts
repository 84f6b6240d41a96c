/**
 * `expect-llm/matchers`: every matcher function, for a manual `expect.extend(matchers)`, and the matcher
 * option types. The list itself is matchers/index.ts (one export per line, checked against the folder).
 *
 * @example
 * ```ts
 * import { expect } from '@jest/globals'
 * import * as matchers from 'expect-llm/matchers'
 * expect.extend(matchers)
 * ```
 * @packageDocumentation
 */
export * from '../../matchers/index.js'
