// Types of parts.mjs (plain JavaScript, since run.mjs runs it under node without a TypeScript loader).

/** A file of a Stryker report (mutation-testing-report-schema's FileResult, the fields used here). */
export interface FileResult {
  language: string
  /** The source text (a report's file); a record's result has sourceSha256 instead. */
  source?: string
  sourceSha256?: string
  mutants: {
    id: string
    mutatorName: string
    status: string
    replacement?: string
    location: { start: { line: number; column: number }; end: { line: number; column: number } }
  }[]
}

/** A folder scored separately. */
export interface Folder {
  name: string
  slug: string
  mutate: string[]
  /** The score it must reach, in percent; undefined for src/rest. */
  target: number | undefined
}

/** One report on disk (a folder's whole-folder report or a part's). */
export interface Result {
  /** Its folder under reports/mutation/, e.g. `src-metrics` or `src-metrics/parts/lcs`. */
  scope: string
  /** The part's name; null for the whole-folder report. */
  part: string | null
  /** When it finished (run.json), or the report's modification time: milliseconds since the epoch. */
  time: number
  /** The test globs it was narrowed to; null for the whole suite; undefined when not recorded. */
  tests: string | null | undefined
  files: Record<string, FileResult>
  /** The scope's run.json when it describes the report (reports only). */
  run?: RunRecord
  /** True for a committed record (test/mutation/results/). */
  record?: boolean
}

/** What run.json holds. */
export interface RunRecord {
  folder: string | null
  part: string | null
  mutate: string[]
  tests: string | null
  static: boolean
  finishedAt: string
  report: string
}

/** The committed record of one file's result (test/mutation/results/<file>.json). */
export interface MutationRecord {
  file: string
  sourceSha256: string
  scope: string
  commit: string | null
  finishedAt: string
  /** null: the whole suite; a string: the test globs the run was narrowed to; absent: not recorded. */
  tests?: string | null
  static: boolean | null
  counts: Record<string, number>
  /** Each undetected mutant: where its span starts and ends (the text it replaces), what replaces it, its status. */
  undetected: { line: number; column: number; endLine: number; endColumn: number; mutator: string; replacement: string | null; status: string }[]
}

export interface FileState {
  path: string
  /** measured: a result of today's source counts; stale: only results of another source; missing: none. */
  state: 'measured' | 'stale' | 'missing' | 'no-mutants'
  /** The scope of the counted result (measured) or of the newest one (stale). */
  scope?: string
  mutants: number
}

export interface Metrics {
  killed: number
  timeout: number
  survived: number
  noCoverage: number
  ignored: number
  compileErrors: number
  runtimeErrors: number
  totalMutants: number
  mutationScore: number
}

export interface Assessment {
  folder: Folder
  files: FileState[]
  metrics: Metrics
  complete: boolean
  /** The folder's score: null unless complete (or when it has no valid mutant). */
  score: number | null
  /** The score of the measured files only. */
  measuredScore: number | null
  lowerBound: boolean
  narrowed: { scope: string; tests: string | undefined }[]
}

export type CountMutants = (path: string, source: string) => number | Promise<number>

export const TARGET: number
export const REPORTS: string
export const RUN_FILE: string
export const RECORDS: string
export const FOLDERS: Folder[]
export interface Args {
  /** `--help` or `-h`: print the usage and run nothing (wins over every other argument). */
  help: boolean
  since: string | undefined
  summaryOnly: boolean
  withStatic: boolean
  equivalent: boolean
  write: boolean
  record: boolean
  filesArg: string | undefined
  missing: boolean
  limit: number | undefined
  part: string | undefined
  chosen: Folder[]
  passThrough: string[]
}
export function parseArgs(args: string[]): Args
export function folderOf(file: string): Folder
export function sourceFiles(root: string): string[]
export function folderFiles(root: string, folder: Folder): string[]
export function resolveFiles(root: string, folder: Folder, globs: string[]): string[]
export function partName(folder: Folder, items: string[]): string
export function checkPartName(name: string): string
export function partScope(folder: Folder, name: string): string
export function writeRun(
  root: string,
  scope: string,
  run: { folder: string | null; part: string | null; mutate: string[]; tests: string | undefined; withStatic: boolean; finishedAt?: Date },
): { folder: string | null; part: string | null; mutate: string[]; tests: string | null; static: boolean; finishedAt: string; report: string }
export function readResults(root: string, folder: Pick<Folder, 'slug'>): Result[]
export function recordOf(
  path: string,
  fileResult: FileResult,
  options: { scope: string; run: RunRecord | undefined; commit?: string | null; finishedAt?: Date },
): MutationRecord
export function recordPath(file: string): string
export function readRecord(root: string, file: string): MutationRecord | undefined
export function writeRecords(root: string, scope: string, options?: { commit?: string | null }): string[]
export function syncRecords(root: string, options?: { commit?: string | null }): { written: string[]; deleted: string[] }
export function readRecords(root: string, folder: Folder): Result[]
export function readAllResults(root: string, folder: Folder): Result[]
export function createMutantCounter(): Promise<(path: string, source: string) => Promise<number>>
export function assessFolder(input: { folder: Folder; sources: Map<string, string>; results: Result[]; countMutants: CountMutants }): Promise<Assessment>
export function nextPart(assessment: Assessment, limit: number | undefined): { files: FileState[]; left: FileState[] }
export function assessReport(folder: Folder, files: Record<string, FileResult>, tests: string | null | undefined): Assessment
export function summariseFolder(root: string, folder: Folder, countMutants: CountMutants): Promise<Assessment | undefined>
export function isBelowTarget(assessment: Assessment): boolean
export function formatSummary(assessments: Assessment[], options?: { title?: string; notMeasured?: string[]; hint?: boolean }): string
