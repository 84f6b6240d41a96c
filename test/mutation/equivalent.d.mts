// Types of equivalent.mjs (plain JavaScript, since run.mjs runs it under node without a TypeScript loader).

/** A `Stryker disable` mark in the sources. */
export interface Mark {
  /** The file, relative to the repository root, with `/` separators. */
  file: string
  /** The first line the mark covers: for `next-line`, the line of the code it leads. */
  line: number
  /** The last line it covers: `line` for `next-line`, the `Stryker restore` line or the file's end for a range. */
  endLine: number
  /** The mutators as written (`all` included). */
  mutators: string[]
  /** The text after the colon, trimmed; undefined when there is none. */
  reason: string | undefined
  /** The plain comment lines right above the mark, joined; undefined when there are none. */
  context: string | undefined
  /** The line of the comment itself. */
  directiveLine: number
  /** Whether it leads only a token (`else`, a closing brace): Stryker ignores such a comment. */
  detached: boolean
}

export const STRYKER_MUTATORS: string[]
export const MARKED_FOLDERS: string[]
export const EQUIVALENT_FILE: string
export function marksOf(file: string, text: string): Mark[]
export function findMarks(root: string): Mark[]
export function problemsOf(mark: Mark, marksOfFile?: Mark[]): string[]
export function checkMarks(marks: Mark[]): string[]
export function explanationOf(mark: Mark, marksOfFile: Mark[]): string | undefined
export function formatMarks(marks: Mark[]): string
export function renderMarkdown(marks: Mark[]): string
