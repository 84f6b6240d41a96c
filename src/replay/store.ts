import { readFileSync } from 'node:fs'
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { threadId } from 'node:worker_threads'
import { FixtureError, parseFixture, serializeFixture } from './fixture.js'
import type { Fixture } from './types.js'

/** Name of the per-test-file fixture folder created beside test files. */
export const FIXTURES_DIR_NAME = '__llm_fixtures__'
/** Folder used for requests made outside any test file. */
export const NO_TEST_FOLDER = '_no-test-file'

const FILE_RE = /^(.+)\.([0-9a-f]{16})\.json$/
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'coverage', '.expect-llm'])

/** Where fixtures live: the project root and an optional central directory. */
export interface StoreLayout {
  rootDir: string
  /** Absolute central fixture directory, or `undefined` for `__llm_fixtures__` beside each test file. */
  dir?: string
}

/** Resolves the layout from options. */
export function resolveLayout(rootDir: string | undefined, dir: string | undefined): StoreLayout {
  const root = resolve(rootDir ?? process.cwd())
  return dir ? { rootDir: root, dir: resolve(root, dir) } : { rootDir: root }
}

/**
 * The folder holding a test file's fixtures: `<test dir>/__llm_fixtures__/<test file name>` or, with a
 * central `dir`, `<dir>/<test file path relative to the root>`.
 */
export function folderFor(layout: StoreLayout, testPath: string | undefined): string {
  if (!testPath) return join(layout.dir ?? join(layout.rootDir, FIXTURES_DIR_NAME), NO_TEST_FOLDER)
  const abs = resolve(layout.rootDir, testPath)
  if (!layout.dir) return join(dirname(abs), FIXTURES_DIR_NAME, basename(abs))
  const rel = relative(layout.rootDir, abs)
  return join(layout.dir, rel.startsWith('..') || isAbsolute(rel) ? basename(abs) : rel)
}

/** The file name of a fixture: `<endpoint>.<hash16>.json`. */
export function fixtureFileName(endpoint: string, hash16: string): string {
  return `${endpoint}.${hash16}.json`
}

/** Parses a fixture file name into its endpoint and hash16, or `null` when it is not one. */
export function parseFixtureFileName(name: string): { endpoint: string; hash16: string } | null {
  const m = FILE_RE.exec(name)
  return m ? { endpoint: m[1]!, hash16: m[2]! } : null
}

/**
 * Calls `visit` for every file inside a fixture folder under the layout's root: all `__llm_fixtures__`
 * folders below `rootDir` (skipping `node_modules`, `.git`, `dist`, `coverage` and dot folders), or every
 * file under the central `dir`.
 */
async function walkFixtureFolders(layout: StoreLayout, visit: (file: string, name: string) => void): Promise<void> {
  const walk = async (dir: string, inside: boolean): Promise<void> => {
    let entries
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries) {
      const p = join(dir, e.name)
      if (e.isDirectory()) {
        if (!inside && (SKIP_DIRS.has(e.name) || e.name.startsWith('.'))) continue
        await walk(p, inside || e.name === FIXTURES_DIR_NAME)
      } else if (inside && e.isFile()) visit(p, e.name)
    }
  }
  if (layout.dir) await walk(layout.dir, true)
  else await walk(layout.rootDir, false)
}

/** Lists every fixture file under the layout's root (see {@link walkFixtureFolders}). */
export async function listFixtureFiles(layout: StoreLayout): Promise<string[]> {
  const out: string[] = []
  await walkFixtureFolders(layout, (file, name) => {
    if (FILE_RE.test(name)) out.push(file)
  })
  return out.sort()
}

/** Lists the fixture files directly inside one folder. */
export async function listFolder(folder: string): Promise<string[]> {
  try {
    const names = await readdir(folder)
    return names
      .filter((n) => FILE_RE.test(n))
      .sort()
      .map((n) => join(folder, n))
  } catch {
    return []
  }
}

/** A temporary file of {@link writeFileAtomic}: `<file>.<pid>.<thread>.<id>.tmp`. */
const TEMP_RE = /^(.+)\.(\d+)\.(\d+)\.([0-9a-f]{8})\.tmp$/

/** The temporary name {@link writeFileAtomic} writes `file` under before renaming it. */
export function tempFileName(file: string): string {
  return `${file}.${process.pid}.${threadId}.${randomUUID().slice(0, 8)}.tmp`
}

/** The process that wrote a temporary file of {@link writeFileAtomic}, or `undefined` for any other name. */
export function tempFileOwner(name: string): number | undefined {
  const m = TEMP_RE.exec(basename(name))
  return m ? Number(m[2]) : undefined
}

/** `true` while process `pid` exists (on this machine). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Temporary files that a writer left behind when it was killed mid-write (`kill -9`, a crash): files of
 * {@link writeFileAtomic} in `folder` whose process is gone.
 */
export async function staleTempFiles(folder: string): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(folder)
  } catch {
    return []
  }
  return names
    .filter((n) => {
      const pid = tempFileOwner(n)
      return pid !== undefined && !processAlive(pid)
    })
    .sort()
    .map((n) => join(folder, n))
}

/** Deletes {@link staleTempFiles} in `folder` and returns them. Temporary files of live writers are kept. */
export async function removeStaleTempFiles(folder: string): Promise<string[]> {
  const stale = await staleTempFiles(folder)
  for (const f of stale) await unlink(f).catch(() => undefined)
  return stale
}

/**
 * Every stale temporary file under the layout's fixture folders (for `expect-llm fixtures verify` and
 * `prune`).
 */
export async function listStaleTempFiles(layout: StoreLayout): Promise<string[]> {
  const out: string[] = []
  await walkFixtureFolders(layout, (file, name) => {
    const pid = tempFileOwner(name)
    if (pid !== undefined && !processAlive(pid)) out.push(file)
  })
  return out.sort()
}

/** The modification time of a file in ms, or `undefined`. */
export async function modifiedAt(file: string): Promise<number | undefined> {
  return (await stat(file).catch(() => undefined))?.mtimeMs
}

/**
 * Writes a file atomically: a uniquely named temporary file in the same folder, then `rename` over the
 * target. Readers never see a torn file, and parallel workers writing the same content-addressed fixture
 * are harmless (the last rename wins). A writer killed between the two steps leaves its temporary file;
 * the next run removes it ({@link removeStaleTempFiles}), and `expect-llm fixtures verify` reports it.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const tmp = tempFileName(file)
  try {
    await writeFile(tmp, text) // a string is written as UTF-8
    for (let attempt = 0; ; attempt++) {
      try {
        await rename(tmp, file)
        return
      } catch (error) {
        // Windows may refuse to rename over a file another process holds open.
        if ((error as NodeJS.ErrnoException).code !== 'EPERM' || attempt >= 5) throw error
        await new Promise((r) => setTimeout(r, 20 * 2 ** attempt))
      }
    }
  } catch (error) {
    await unlink(tmp).catch(() => undefined)
    throw error
  }
}

/**
 * Reads fixtures with an in-memory cache, looks them up by the test file's folder first and then by hash
 * anywhere under the root. The root is walked lazily, only on the first miss in a folder, so start-up does
 * not depend on how many fixtures exist.
 */
export class FixtureStore {
  private readonly cache = new Map<string, Fixture>()
  private index: Promise<Map<string, string[]>> | undefined

  constructor(readonly layout: StoreLayout) {}

  /** Reads and validates one fixture file; `undefined` if it does not exist. Throws {@link FixtureError} if it is corrupt. */
  async read(file: string): Promise<Fixture | undefined> {
    const cached = this.cache.get(file)
    if (cached) return cached
    let text: string
    try {
      // Synchronous on purpose: fixtures are small, and one blocking read (~20 µs) is several times
      // cheaper than the four thread-pool round trips of an async read, which dominated replay time.
      // Stryker disable next-line StringLiteral: equivalent, no encoding gives a Buffer, which JSON.parse reads as the same UTF-8 text
      text = readFileSync(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw new FixtureError(file, `it cannot be read (${(error as Error).message})`)
    }
    const fixture = parseFixture(text, file)
    this.cache.set(file, fixture)
    return fixture
  }

  /** Returns the fixture for `hash`, trying `preferred` first and then every file named `*.<hash16>.json` under the root. */
  async find(preferred: string, hash: string): Promise<{ file: string; fixture: Fixture } | undefined> {
    const direct = await this.read(preferred)
    if (direct && direct.hash === hash) return { file: preferred, fixture: direct }
    const index = await this.getIndex()
    // `preferred` too, if listed: it may have been written since the read above (by another worker).
    // Stryker disable next-line ArrayDeclaration: equivalent, the stray name is read in the working directory, where no fixture is
    for (const file of index.get(hash.slice(0, 16)) ?? []) {
      const fixture = await this.read(file)
      if (fixture && fixture.hash === hash) return { file, fixture }
    }
    return undefined
  }

  /** Writes a fixture atomically and updates the cache and index. */
  async write(file: string, fixture: Fixture): Promise<void> {
    await writeFileAtomic(file, serializeFixture(fixture))
    this.cache.set(file, fixture)
    if (this.index) {
      const index = await this.index
      const h = fixture.hash.slice(0, 16)
      const list = index.get(h) ?? []
      if (!list.includes(file)) list.push(file)
      index.set(h, list)
    }
  }

  /** Every fixture file under the root, grouped by hash16 (built once, on demand). */
  getIndex(): Promise<Map<string, string[]>> {
    this.index ??= listFixtureFiles(this.layout).then((files) => {
      const map = new Map<string, string[]>()
      for (const f of files) {
        // listFixtureFiles lists only names that parse.
        const { hash16 } = parseFixtureFileName(basename(f))!
        const list = map.get(hash16) ?? []
        list.push(f)
        map.set(hash16, list)
      }
      return map
    })
    return this.index
  }

  /** Relative path for messages. */
  rel(file: string): string {
    const r = relative(this.layout.rootDir, file)
    return r.startsWith('..') ? file : r.split(sep).join('/')
  }
}
