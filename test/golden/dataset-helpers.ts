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

/** The DatasetError that `fn` throws (fails the test when it throws anything else, or nothing). */
function datasetErrorOf(fn: () => unknown): DatasetError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError)
    return error as DatasetError
  }
  throw new Error('expected a DatasetError')
}

/** The message of the DatasetError that `fn` throws. */
export const errorOf = (fn: () => unknown): string => datasetErrorOf(fn).message

/** The problems of the DatasetError that `fn` throws. */
export const problemsOf = (fn: () => unknown): string[] => datasetErrorOf(fn).problems
