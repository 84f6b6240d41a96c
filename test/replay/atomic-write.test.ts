// Fixture writes are atomic: a failure at any point leaves the previous file whole (or no file), never a
// torn one, and no temporary file behind. Failures are injected deterministically through the fs module
// the store writes with, instead of hoping that parallel writers collide (test/replay/concurrency.test.ts).
import fsp from 'node:fs/promises'
import { syncBuiltinESMExports } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test, vi, type MockInstance } from 'vitest'
import { writeFileAtomic } from '../../src/replay/store.js'

// The spies replace the functions on node:fs/promises itself, and syncBuiltinESMExports() makes every
// `import { rename } from 'node:fs/promises'` see them: the store's own code path runs, unchanged.
const real = { ...fsp }
let writeSpy: MockInstance<typeof fsp.writeFile>
let renameSpy: MockInstance<typeof fsp.rename>
let dir: string
let target: string
const before = `${JSON.stringify({ hash: 'old', body: 'x'.repeat(200) }, null, 2)}\n`
const after = `${JSON.stringify({ hash: 'new', body: 'y'.repeat(200) }, null, 2)}\n`

beforeEach(async () => {
  dir = await real.mkdtemp(join(tmpdir(), 'expect-llm-atomic-'))
  target = join(dir, 'chat-completions.0123456789abcdef.json')
  await real.writeFile(target, before)
  writeSpy = vi.spyOn(fsp, 'writeFile')
  renameSpy = vi.spyOn(fsp, 'rename')
  syncBuiltinESMExports()
})

afterEach(async () => {
  vi.restoreAllMocks()
  syncBuiltinESMExports()
  await real.rm(dir, { recursive: true, force: true })
})

test('a failure after the data is written and before the rename leaves the previous file whole and no temporary file', async () => {
  renameSpy.mockRejectedValueOnce(Object.assign(new Error('ENOSPC: no space left on device, rename'), { code: 'ENOSPC' }))
  await expect(writeFileAtomic(target, after)).rejects.toThrow('ENOSPC')
  // The new content was written somewhere else first, the step that failed was the rename onto the file.
  expect(writeSpy.mock.calls.map((c) => c[0])).not.toContain(target)
  expect(renameSpy).toHaveBeenCalledTimes(1)
  expect(renameSpy.mock.calls[0]![1]).toBe(target)
  expect(await real.readFile(target, 'utf8')).toBe(before)
  expect(await real.readdir(dir)).toEqual(['chat-completions.0123456789abcdef.json'])
})

test('a write that dies halfway never shows a torn file under the fixture name', async () => {
  writeSpy.mockImplementationOnce(async (path, data) => {
    await real.writeFile(path as string, String(data).slice(0, 100)) // half the bytes reach the disk
    throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' })
  })
  await expect(writeFileAtomic(target, after)).rejects.toThrow('EIO')
  expect(await real.readFile(target, 'utf8')).toBe(before)
  expect(await real.readdir(dir)).toEqual(['chat-completions.0123456789abcdef.json'])
})

test('without a failure the new content replaces the file and only the file remains', async () => {
  await writeFileAtomic(target, after)
  expect(await real.readFile(target, 'utf8')).toBe(after)
  expect(await real.readdir(dir)).toEqual(['chat-completions.0123456789abcdef.json'])
})

test('a rename refused with EPERM (Windows: the target is open elsewhere) is retried until it succeeds', async () => {
  const eperm = () => Object.assign(new Error('EPERM: operation not permitted, rename'), { code: 'EPERM' })
  renameSpy.mockRejectedValueOnce(eperm()).mockRejectedValueOnce(eperm())
  await writeFileAtomic(target, after)
  expect(renameSpy).toHaveBeenCalledTimes(3)
  expect(await real.readFile(target, 'utf8')).toBe(after)
  expect(await real.readdir(dir)).toEqual(['chat-completions.0123456789abcdef.json'])
})

test('after six refused renames the write gives up with the error, leaving the previous file and no temporary file', async () => {
  renameSpy.mockImplementation(async () => {
    throw Object.assign(new Error('EPERM: operation not permitted, rename'), { code: 'EPERM' })
  })
  await expect(writeFileAtomic(target, after)).rejects.toThrow('EPERM')
  expect(renameSpy).toHaveBeenCalledTimes(6)
  expect(await real.readFile(target, 'utf8')).toBe(before)
  expect(await real.readdir(dir)).toEqual(['chat-completions.0123456789abcdef.json'])
})

test('the retries wait 20, 40, 80, 160 and 320 ms: twice as long each time', async () => {
  renameSpy.mockImplementation(async () => {
    throw Object.assign(new Error('EPERM: operation not permitted, rename'), { code: 'EPERM' })
  })
  const delays: unknown[] = []
  const realSetTimeout = globalThis.setTimeout
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
    delays.push(ms)
    return realSetTimeout(fn, 0)
  }) as typeof setTimeout)
  await expect(writeFileAtomic(target, after)).rejects.toThrow('EPERM')
  expect(delays).toEqual([20, 40, 80, 160, 320])
})

test('the folder is created when it does not exist yet', async () => {
  const nested = join(dir, 'test', '__llm_fixtures__', 'a.test.ts', 'chat-completions.0123456789abcdef.json')
  await writeFileAtomic(nested, after)
  expect(await real.readFile(nested, 'utf8')).toBe(after)
})
