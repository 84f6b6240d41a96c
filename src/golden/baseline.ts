/**
 * Baselines: a committed score snapshot per suite at `<test dir>/__golden__/<test file>/<suite>.json`,
 * written when missing, rewritten under the runner's update flag (`-u`), and compared on every other
 * run: a scorer whose mean over the cases in both drops by more than the tolerance is a regression.
 *
 * @module
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { formatMessage } from '../errors.js'

/** Baseline file format version. */
export const BASELINE_VERSION = 1

/** A baseline file. */
export interface BaselineFile {
  version: 1
  suite: string
  updatedAt: string
  /** Per case: pass/fail and the mean score per scorer. */
  cases: Record<string, { pass: boolean; scores: Record<string, number> }>
}

/** A case's scores as the baseline sees them. */
export type BaselineCases = BaselineFile['cases']

/** One scorer's mean, before and after. */
export interface ScorerDelta {
  scorer: string
  baseline: number
  current: number
  delta: number
  tolerance: number
  /** Cases that both runs scored. */
  cases: number
}

/** One case that changed by more than the tolerance on a scorer, or flipped between pass and fail. */
export interface CaseChange {
  id: string
  scorer: string | 'pass'
  baseline: number
  current: number
}

/** The comparison of a run with its baseline. */
export interface BaselineComparison {
  scorers: ScorerDelta[]
  /** Scorers whose mean dropped by more than the tolerance. */
  regressions: ScorerDelta[]
  regressedCases: CaseChange[]
  improvedCases: CaseChange[]
  /** Cases in the run that the baseline does not have (not compared). */
  newCases: string[]
}

/** A file-system-safe slug of a suite name. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return slug.slice(0, 80) || 'suite'
}

/** `<test dir>/__golden__/<test file name>/<suite slug>.json`. */
export function baselinePath(testPath: string, suite: string): string {
  return join(dirname(testPath), '__golden__', basename(testPath), `${slugify(suite)}.json`)
}

/** Reads a baseline; `undefined` when the file does not exist. A corrupt file throws with its path. */
export function readBaseline(path: string): BaselineFile | undefined {
  let text: string
  try {
    // Stryker disable next-line StringLiteral: with encoding '' it returns a Buffer, which JSON.parse reads as the same UTF-8 text
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new Error(
      formatMessage(
        `Failed to read the golden baseline ${path}: invalid JSON (${(error as Error).message}). ` +
          'Fix the file, or delete it and run with -u to write a new one.',
      ),
    )
  }
  const b = parsed as Partial<BaselineFile>
  if (b.version !== BASELINE_VERSION || b.cases === null || typeof b.cases !== 'object') {
    throw new Error(
      formatMessage(
        `Failed to read the golden baseline ${path}: it is not a version ${BASELINE_VERSION} baseline ` +
          '(no "version": 1 or no "cases"). Delete it and run with -u to write a new one.',
      ),
    )
  }
  return b as BaselineFile
}

/** Writes a baseline atomically (pretty-printed, keys in case order). */
export function writeBaseline(path: string, file: BaselineFile): void {
  mkdirSync(dirname(path), { recursive: true })
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`)
  renameSync(tmp, path)
}

/**
 * Merges a run into a baseline: cases of the run replace theirs, other cases are kept (so that a
 * filtered run updates only what it ran).
 */
export function mergeBaseline(previous: BaselineFile | undefined, suite: string, current: BaselineCases, now = new Date()): BaselineFile {
  return { version: BASELINE_VERSION, suite, updatedAt: now.toISOString(), cases: { ...(previous?.cases ?? {}), ...current } }
}

/**
 * Compares a run with a baseline over the cases both have. `tolerance(scorer)` gives the allowed drop.
 *
 * @example
 * ```ts
 * compareBaseline(readBaseline(path)!, current, () => 0.05).regressions
 * ```
 */
export function compareBaseline(baseline: BaselineFile, current: BaselineCases, tolerance: (scorer: string) => number): BaselineComparison {
  const scorers = new Set<string>()
  for (const c of Object.values(current)) for (const s of Object.keys(c.scores)) scorers.add(s as string)
  const deltas: ScorerDelta[] = []
  const regressedCases: CaseChange[] = []
  const improvedCases: CaseChange[] = []
  const newCases = Object.keys(current).filter((id) => !(id in baseline.cases))
  for (const scorer of scorers) {
    let before = 0
    let after = 0
    let n = 0
    const tol = tolerance(scorer)
    for (const [id, now] of Object.entries(current)) {
      const then = baseline.cases[id]?.scores[scorer]
      const value = now.scores[scorer]
      if (then === undefined || value === undefined) continue
      before += then
      after += value
      n++
      if (value < then - tol - 1e-12) regressedCases.push({ id, scorer, baseline: then, current: value })
      else if (value > then + tol + 1e-12) improvedCases.push({ id, scorer, baseline: then, current: value })
    }
    if (n === 0) continue
    const delta = after / n - before / n
    deltas.push({ scorer, baseline: before / n, current: after / n, delta, tolerance: tol, cases: n })
  }
  for (const [id, now] of Object.entries(current)) {
    const then = baseline.cases[id]
    if (!then || then.pass === now.pass) continue
    ;(now.pass ? improvedCases : regressedCases).push({ id, scorer: 'pass', baseline: then.pass ? 1 : 0, current: now.pass ? 1 : 0 })
  }
  const bySize = (a: CaseChange, b: CaseChange) => Math.abs(b.current - b.baseline) - Math.abs(a.current - a.baseline)
  return {
    scorers: deltas,
    regressions: deltas.filter((d) => d.delta < -d.tolerance - 1e-12),
    regressedCases: regressedCases.sort(bySize),
    improvedCases: improvedCases.sort(bySize),
    newCases,
  }
}
