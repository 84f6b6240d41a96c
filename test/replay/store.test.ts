// Where fixtures live and how they are found (src/replay/store.ts): folder layout, file names, the walk
// over fixture folders, temporary files of interrupted writes, and FixtureStore's lookups and cache.
import { writeFileSync } from 'node:fs'
import fsp, { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { syncBuiltinESMExports } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { threadId } from 'node:worker_threads'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { serializeFixture } from '../../src/replay/fixture.js'
import { buildKey } from '../../src/replay/key.js'
import {
  FIXTURES_DIR_NAME,
  FixtureStore,
  fixtureFileName,
  folderFor,
  listFixtureFiles,
  listFolder,
  listStaleTempFiles,
  modifiedAt,
  NO_TEST_FOLDER,
  parseFixtureFileName,
  processAlive,
  removeStaleTempFiles,
  resolveLayout,
  staleTempFiles,
  tempFileName,
  tempFileOwner,
} from '../../src/replay/store.js'
import type { Fixture } from '../../src/replay/types.js'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'expect-llm-store-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

/** A pid that no process has (pids never reach this on Linux and macOS). */
const GONE = 2 ** 22 + 17

function fixtureFor(content: string): Fixture {
  const key = buildKey(
    'POST',
    new URL('https://api.openai.com/v1/chat/completions'),
    new TextEncoder().encode(JSON.stringify({ content })),
    'application/json',
    {},
  )
  return {
    schemaVersion: 1,
    hash: key.hash,
    key: key.material,
    response: { status: 200, headers: {}, json: { content } },
    meta: { recordedAt: '2026-01-01T00:00:00.000Z', durationMs: 1, endpoint: key.endpoint, model: null, usage: null, sdkUserAgent: null, testFile: null },
  } as Fixture
}
const nameOf = (f: Fixture) => fixtureFileName('chat-completions', f.hash.slice(0, 16))

/**
 * Runs `fn` with node:fs/promises' readdir listing names in reverse order, the store's own code unchanged
 * (some file systems, like this machine's, list them sorted, which would hide a listing left unsorted).
 */
async function withReaddirReversed<T>(fn: () => Promise<T>): Promise<T> {
  const real = fsp.readdir as (...args: unknown[]) => Promise<unknown[]>
  const spy = vi.spyOn(fsp, 'readdir').mockImplementation((async (...args: unknown[]) => (await real(...args)).reverse()) as typeof fsp.readdir)
  syncBuiltinESMExports()
  try {
    return await fn()
  } finally {
    spy.mockRestore()
    syncBuiltinESMExports()
  }
}

async function put(file: string, text = '{}'): Promise<string> {
  await mkdir(join(file, '..'), { recursive: true })
  await writeFile(file, text)
  return file
}

describe('layout', () => {
  test('resolveLayout: the root (default: the working directory) and a central dir resolved against it', () => {
    expect(resolveLayout(undefined, undefined)).toEqual({ rootDir: process.cwd() })
    expect(resolveLayout('/p', 'fixtures')).toEqual({ rootDir: resolve('/p'), dir: resolve('/p/fixtures') })
    expect(resolveLayout('/p', '')).toEqual({ rootDir: resolve('/p') })
  })

  test('folderFor: __llm_fixtures__/<file name> beside the test file, or its path under a central dir', () => {
    const layout = { rootDir: '/p' }
    expect(folderFor(layout, '/p/test/a.test.ts')).toBe(join('/p/test', FIXTURES_DIR_NAME, 'a.test.ts'))
    expect(folderFor(layout, 'test/a.test.ts')).toBe(join('/p/test', FIXTURES_DIR_NAME, 'a.test.ts'))
    expect(folderFor({ rootDir: '/p', dir: '/p/fx' }, '/p/test/a.test.ts')).toBe(join('/p/fx', 'test', 'a.test.ts'))
    // A test file outside the root keeps only its name under the central dir.
    expect(folderFor({ rootDir: '/p', dir: '/p/fx' }, '/elsewhere/b.test.ts')).toBe(join('/p/fx', 'b.test.ts'))
  })

  test('folderFor: requests outside a test file go to _no-test-file', () => {
    expect(folderFor({ rootDir: '/p' }, undefined)).toBe(join('/p', FIXTURES_DIR_NAME, NO_TEST_FOLDER))
    expect(folderFor({ rootDir: '/p', dir: '/p/fx' }, '')).toBe(join('/p/fx', NO_TEST_FOLDER))
  })

  test('fixture file names: <endpoint>.<hash16>.json, and only those parse', () => {
    expect(fixtureFileName('chat-completions', '0123456789abcdef')).toBe('chat-completions.0123456789abcdef.json')
    expect(parseFixtureFileName('models-x.y.0123456789abcdef.json')).toEqual({ endpoint: 'models-x.y', hash16: '0123456789abcdef' })
    for (const name of ['a.0123456789ABCDEF.json', 'a.0123456789abcde.json', 'a.0123456789abcdef.json.tmp', '.0123456789abcdef.json', 'x.json'])
      expect(parseFixtureFileName(name), name).toBeNull()
  })
})

describe('listing', () => {
  test('listFolder: the fixture files directly in a folder, sorted; [] for a missing folder', async () => {
    const folder = join(root, 'f')
    await put(join(folder, 'b.0123456789abcdef.json'))
    await put(join(folder, 'a.0123456789abcdef.json'))
    await put(join(folder, 'notes.md'))
    await put(join(folder, 'sub', 'c.0123456789abcdef.json'))
    expect(await listFolder(folder)).toEqual([join(folder, 'a.0123456789abcdef.json'), join(folder, 'b.0123456789abcdef.json')])
    expect(await listFolder(join(root, 'missing'))).toEqual([])
  })

  test('listFolder: sorted by name, whatever order the folder lists them in', async () => {
    const folder = join(root, 'f')
    const files: string[] = []
    for (const n of ['c', 'a', 'e', 'b', 'd']) files.push(await put(join(folder, `${n}.0123456789abcdef.json`)))
    expect(await withReaddirReversed(() => listFolder(folder))).toEqual(files.toSorted())
  })

  test('listFixtureFiles: every fixture inside __llm_fixtures__ folders, skipping node_modules, dist, coverage and dot folders', async () => {
    const keep = [
      await put(join(root, 'test', FIXTURES_DIR_NAME, 'a.test.ts', 'x.0123456789abcdef.json')),
      await put(join(root, 'test', 'deep', FIXTURES_DIR_NAME, 'b.test.ts', 'nested', 'y.0123456789abcdef.json')),
    ]
    await put(join(root, 'test', 'z.0123456789abcdef.json')) // not in a fixture folder
    await put(join(root, 'test', FIXTURES_DIR_NAME, 'a.test.ts', 'README.md'))
    for (const skipped of ['node_modules', '.git', 'dist', 'coverage', '.expect-llm', '.cache'])
      await put(join(root, skipped, FIXTURES_DIR_NAME, 'c.test.ts', 'z.0123456789abcdef.json'))
    expect(await listFixtureFiles({ rootDir: root })).toEqual(keep.sort())
  })

  test('listFixtureFiles with a central dir: every fixture under it, at any depth, dot folders included', async () => {
    const dir = join(root, 'fx')
    const files = [await put(join(dir, 'test', 'a.test.ts', 'x.0123456789abcdef.json')), await put(join(dir, '.hidden', 'y.0123456789abcdef.json'))]
    await put(join(root, 'test', FIXTURES_DIR_NAME, 'a.test.ts', 'z.0123456789abcdef.json'))
    expect(await listFixtureFiles({ rootDir: root, dir })).toEqual(files.sort())
    expect(await listFixtureFiles({ rootDir: root, dir: join(root, 'missing') })).toEqual([])
  })

  test('listFixtureFiles: sorted by path, whatever order the folders list them in', async () => {
    const files: string[] = []
    for (const n of ['c', 'a', 'e', 'b', 'd']) {
      files.push(await put(join(root, 'test', FIXTURES_DIR_NAME, `${n}.test.ts`, 'x.0123456789abcdef.json')))
      files.push(await put(join(root, 'test', FIXTURES_DIR_NAME, 'z.test.ts', `${n}.0123456789abcdef.json`)))
    }
    expect(await withReaddirReversed(() => listFixtureFiles({ rootDir: root }))).toEqual(files.toSorted())
  })
})

describe('temporary files of interrupted writes', () => {
  test('tempFileName: <file>.<pid>.<thread>.<8 hex>.tmp, unique, owned by this process', () => {
    const a = tempFileName('/f/x.0123456789abcdef.json')
    expect(a).toMatch(new RegExp(`^/f/x\\.0123456789abcdef\\.json\\.${process.pid}\\.${threadId}\\.[0-9a-f]{8}\\.tmp$`))
    expect(tempFileName('/f/x.json')).not.toBe(tempFileName('/f/x.json'))
    expect(tempFileOwner(a)).toBe(process.pid)
  })

  test('tempFileOwner: undefined for any other name', () => {
    expect(tempFileOwner('/f/x.json')).toBeUndefined()
    expect(tempFileOwner('x.json.12.0.0123abcd.tmp.bak')).toBeUndefined()
    expect(tempFileOwner('x.json.12.0.0123abcg.tmp')).toBeUndefined()
    expect(tempFileOwner('/dir.json.12.0.0123abcd.tmp/x.json')).toBeUndefined()
    expect(tempFileOwner('x.json.12.0.0123abcd.tmp')).toBe(12)
  })

  test('processAlive: this process and its parent are alive, an unused pid is not', () => {
    expect(processAlive(process.pid)).toBe(true)
    expect(processAlive(process.ppid)).toBe(true)
    expect(processAlive(GONE)).toBe(false)
  })

  test('processAlive: a process of another user (EPERM on signal 0) is alive; any other error means gone', () => {
    const kill = vi.spyOn(process, 'kill')
    try {
      kill.mockImplementationOnce(() => {
        throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' })
      })
      expect(processAlive(GONE)).toBe(true)
      kill.mockImplementationOnce(() => {
        throw Object.assign(new Error('kill ESRCH'), { code: 'ESRCH' })
      })
      expect(processAlive(GONE)).toBe(false)
      expect(kill).toHaveBeenCalledWith(GONE, 0)
    } finally {
      kill.mockRestore()
    }
  })

  test('processAlive: this process is alive without asking the OS (a process.kill stubbed by a test cannot make its files stale)', () => {
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error('kill ESRCH'), { code: 'ESRCH' })
    })
    try {
      expect(processAlive(process.pid)).toBe(true)
      expect(kill).not.toHaveBeenCalled()
    } finally {
      kill.mockRestore()
    }
  })

  test('staleTempFiles and removeStaleTempFiles: only files of processes that are gone', async () => {
    const folder = join(root, 'f')
    const stale = await put(join(folder, `x.0123456789abcdef.json.${GONE}.0.0123abcd.tmp`), '{')
    const live = await put(tempFileName(join(folder, 'y.0123456789abcdef.json')), '{')
    await put(join(folder, 'x.0123456789abcdef.json'))
    expect(await staleTempFiles(folder)).toEqual([stale])
    expect(await staleTempFiles(join(root, 'missing'))).toEqual([])
    expect(await removeStaleTempFiles(folder)).toEqual([stale])
    expect(await listFolder(folder)).toEqual([join(folder, 'x.0123456789abcdef.json')])
    expect(await readFile(live, 'utf8')).toBe('{')
    expect(await staleTempFiles(folder)).toEqual([])
  })

  test('staleTempFiles: sorted by name, whatever order the folder lists them in', async () => {
    const folder = join(root, 'f')
    const files: string[] = []
    for (const n of ['c', 'a', 'e', 'b', 'd']) files.push(await put(join(folder, `${n}.0123456789abcdef.json.${GONE}.0.0123abcd.tmp`)))
    expect(await withReaddirReversed(() => staleTempFiles(folder))).toEqual(files.toSorted())
  })

  test('listStaleTempFiles: every stale temporary file under the fixture folders, sorted', async () => {
    const a = await put(join(root, 'test', FIXTURES_DIR_NAME, 'b.test.ts', `x.0123456789abcdef.json.${GONE}.0.0123abcd.tmp`))
    const b = await put(join(root, 'test', FIXTURES_DIR_NAME, 'a.test.ts', `x.0123456789abcdef.json.${GONE}.1.0123abcd.tmp`))
    await put(tempFileName(join(root, 'test', FIXTURES_DIR_NAME, 'a.test.ts', 'y.0123456789abcdef.json')))
    await put(join(root, 'test', `x.0123456789abcdef.json.${GONE}.0.0123abcd.tmp`)) // outside a fixture folder
    expect(await listStaleTempFiles({ rootDir: root })).toEqual([b, a])
  })

  test('listStaleTempFiles: sorted by path, whatever order the folders list them in', async () => {
    const files: string[] = []
    for (const n of ['c', 'a', 'e', 'b', 'd']) {
      files.push(await put(join(root, 'test', FIXTURES_DIR_NAME, `${n}.test.ts`, `x.0123456789abcdef.json.${GONE}.0.0123abcd.tmp`)))
      files.push(await put(join(root, 'test', FIXTURES_DIR_NAME, 'z.test.ts', `${n}.0123456789abcdef.json.${GONE}.0.0123abcd.tmp`)))
    }
    expect(await withReaddirReversed(() => listStaleTempFiles({ rootDir: root }))).toEqual(files.toSorted())
  })
})

describe('modifiedAt', () => {
  test('the modification time in ms, or undefined for a missing file', async () => {
    const file = await put(join(root, 'x'))
    await utimes(file, 1_700_000_000, 1_700_000_000)
    expect(await modifiedAt(file)).toBe(1_700_000_000_000)
    expect(await modifiedAt(join(root, 'missing'))).toBeUndefined()
  })
})

describe('FixtureStore', () => {
  const folder = () => join(root, 'test', FIXTURES_DIR_NAME, 'a.test.ts')

  test('read: undefined for a missing file, the fixture otherwise, a FixtureError for a file that cannot be read', async () => {
    const store = new FixtureStore({ rootDir: root })
    const f = fixtureFor('hi')
    const file = await put(join(folder(), nameOf(f)), serializeFixture(f))
    expect(await store.read(join(folder(), 'missing.0123456789abcdef.json'))).toBeUndefined()
    expect(await store.read(file)).toEqual(f)
    await expect(store.read(folder())).rejects.toMatchObject({
      name: 'FixtureError',
      file: folder(),
      reason: expect.stringMatching(/^it cannot be read \(EISDIR/),
    })
  })

  test('read caches: a file changed on disk afterwards is not read again', async () => {
    const store = new FixtureStore({ rootDir: root })
    const f = fixtureFor('hi')
    const file = await put(join(folder(), nameOf(f)), serializeFixture(f))
    await store.read(file)
    await writeFile(file, '{ not json')
    expect(await store.read(file)).toEqual(f)
    await expect(new FixtureStore({ rootDir: root }).read(file)).rejects.toThrow('it is not valid JSON')
  })

  test('find: the preferred file when its hash matches, else a file of that hash anywhere under the root', async () => {
    const f = fixtureFor('hi')
    const elsewhere = await put(join(root, 'other', FIXTURES_DIR_NAME, 'b.test.ts', nameOf(f)), serializeFixture(f))
    const preferred = join(folder(), nameOf(f))
    const store = new FixtureStore({ rootDir: root })
    expect(await store.find(preferred, f.hash)).toEqual({ file: elsewhere, fixture: f })
    await put(preferred, serializeFixture(f))
    expect(await new FixtureStore({ rootDir: root }).find(preferred, f.hash)).toEqual({ file: preferred, fixture: f })
  })

  test('find: undefined when no file holds the full hash', async () => {
    const f = fixtureFor('hi')
    await put(join(folder(), nameOf(f)), serializeFixture(f))
    const otherHash = `${f.hash.slice(0, 16)}${'0'.repeat(48)}`
    expect(await new FixtureStore({ rootDir: root }).find(join(folder(), nameOf(f)), otherHash)).toBeUndefined()
    expect(await new FixtureStore({ rootDir: root }).find(join(folder(), 'x.json'), fixtureFor('nothing').hash)).toBeUndefined()
  })

  test('find: a file whose hash16 matches but whose full hash differs (a prefix collision) is passed over', async () => {
    const f = fixtureFor('hi')
    // No two requests share 16 hex digits in practice: the colliding fixture is written through the store,
    // which caches it as written.
    const collision = { ...f, hash: `${f.hash.slice(0, 16)}${'0'.repeat(48)}` }
    const store = new FixtureStore({ rootDir: root })
    const first = join(root, 'a', FIXTURES_DIR_NAME, 'a.test.ts', nameOf(f))
    await store.write(first, collision)
    const second = await put(join(root, 'b', FIXTURES_DIR_NAME, 'b.test.ts', nameOf(f)), serializeFixture(f))
    expect(await store.getIndex()).toEqual(new Map([[f.hash.slice(0, 16), [first, second]]]))
    expect(await store.find(join(root, 'elsewhere.json'), f.hash)).toEqual({ file: second, fixture: f })
    expect(await store.find(join(root, 'elsewhere.json'), collision.hash)).toEqual({ file: first, fixture: collision })
  })

  test('find: the preferred file written by another worker after the first read is found through the index', async () => {
    const f = fixtureFor('hi')
    const preferred = join(folder(), nameOf(f))
    await mkdir(folder(), { recursive: true })
    const store = new FixtureStore({ rootDir: root })
    const found = store.find(preferred, f.hash) // reads the preferred file at once: missing
    writeFileSync(preferred, serializeFixture(f)) // before the walk of the root
    expect(await found).toEqual({ file: preferred, fixture: f })
  })

  test('write: the serialized fixture on disk, in the cache, and in an index already built', async () => {
    const store = new FixtureStore({ rootDir: root })
    expect(await store.getIndex()).toEqual(new Map())
    const f = fixtureFor('hi')
    const file = join(folder(), nameOf(f))
    await store.write(file, f)
    await store.write(file, f)
    expect(await readFile(file, 'utf8')).toBe(serializeFixture(f))
    expect(await store.getIndex()).toEqual(new Map([[f.hash.slice(0, 16), [file]]]))
    expect(await store.find(join(root, 'elsewhere.json'), f.hash)).toEqual({ file, fixture: f })
  })

  test('write: a later read returns the fixture written, without reading the file again', async () => {
    const store = new FixtureStore({ rootDir: root })
    const f = fixtureFor('hi')
    const file = join(folder(), nameOf(f))
    await store.write(file, f)
    await rm(file)
    expect(await store.read(file)).toBe(f)
  })

  test('getIndex: fixture files by hash16, built once', async () => {
    const f = fixtureFor('hi')
    const a = await put(join(folder(), nameOf(f)), serializeFixture(f))
    const b = await put(join(root, 'x', FIXTURES_DIR_NAME, 'b.test.ts', nameOf(f)), serializeFixture(f))
    await put(join(folder(), 'README.md'))
    const store = new FixtureStore({ rootDir: root })
    const index = await store.getIndex()
    expect(index).toEqual(new Map([[f.hash.slice(0, 16), [a, b].sort()]]))
    expect(store.getIndex()).toBe(store.getIndex())
  })

  test('rel: a POSIX path relative to the root, or the absolute path outside it', () => {
    const store = new FixtureStore({ rootDir: root })
    expect(store.rel(join(root, 'test', 'a.json'))).toBe('test/a.json')
    expect(store.rel(join(root, '..', 'elsewhere.json'))).toBe(join(root, '..', 'elsewhere.json'))
  })
})
