import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import * as matchers from '../../matchers/index.js'

const folder = fileURLToPath(new URL('../../matchers/', import.meta.url))
const helperFiles = new Set(['index.ts', 'context.ts', 'types.ts', 'utils.ts', '_engine.ts'])

describe('matchers/index.ts', () => {
  test('exports every matcher file under its own name', () => {
    const files = readdirSync(folder)
      .filter((f) => f.endsWith('.ts') && !helperFiles.has(f))
      .map((f) => f.slice(0, -3))
      .sort()
    expect(Object.keys(matchers).sort()).toEqual(files)
  })

  test('exports only functions, so expect.extend(matchers) registers nothing else', () => {
    for (const [name, fn] of Object.entries(matchers)) expect(typeof fn, name).toBe('function')
  })

  test('every matcher is registered on Vitest expect by the setup file', () => {
    for (const name of Object.keys(matchers)) expect(typeof (expect('') as unknown as Record<string, unknown>)[name], name).toBe('function')
  })
})
