// Helpers of the dataset tests: dataset files written to a temporary folder removed after the file's tests,
// and the problem lines of a DatasetError.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect } from 'vitest'
import { DatasetError } from '../../src/golden/dataset.js'

/** A temporary folder for this test file's datasets (removed after its tests); returns a writer of `name` with `text`. */
export function datasetFiles(prefix: string): { dir: string; file: (name: string, text: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  return {
    dir,
    file(name, text) {
      const path = join(dir, name)
      writeFileSync(path, text)
      return path
    },
  }
}

/** The message of the DatasetError that `fn` throws (fails the test when it throws anything else, or nothing). */
export function errorOf(fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError)
    return (error as Error).message
  }
  throw new Error('expected a DatasetError')
}

/** The problems of the DatasetError that `fn` throws (fails the test when it throws anything else, or nothing). */
export function problemsOf(fn: () => unknown): string[] {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError)
    return (error as DatasetError).problems
  }
  throw new Error('expected a DatasetError')
}
