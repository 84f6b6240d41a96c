// `expect-llm fixtures` on a project without recordings, and with options it must refuse: what it prints and
// its exit codes, run in-process on an empty temporary root.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { cliIn, removeRoot, tempRoot } from './helpers.js'

let root: string
beforeEach(async () => {
  root = await tempRoot()
})
afterEach(async () => {
  await removeRoot(root)
})

describe('expect-llm fixtures on a project without recordings', () => {
  test('ls says there are none, under the root or the central dir', async () => {
    expect(await cliIn(root, 'fixtures', 'ls')).toEqual({ code: 0, out: `No fixtures under ${root}.`, err: '' })
    expect(await cliIn(root, 'fixtures', 'ls', '--dir', 'fx')).toEqual({ code: 0, out: `No fixtures under ${root}/fx.`, err: '' })
  })

  test('ls --json prints an empty list', async () => {
    expect(await cliIn(root, 'fixtures', 'ls', '--json')).toEqual({ code: 0, out: '[]', err: '' })
  })

  test('verify passes with no problems', async () => {
    expect(await cliIn(root, 'fixtures', 'verify')).toEqual({ code: 0, out: '0 fixture(s) verified: no problems.', err: '' })
  })

  test('verify refuses a --max-age that is not an age, before reading anything', async () => {
    expect(await cliIn(root, 'fixtures', 'verify', '--max-age', 'soon')).toEqual({
      code: 1,
      out: '',
      err: '[expect-llm] Failed to verify fixtures: --max-age "soon" is not an age. Use a number with a unit, e.g. 30d, 12h or 90m.',
    })
  })

  test('prune deletes nothing, and says so (a dry run too)', async () => {
    expect(await cliIn(root, 'fixtures', 'prune')).toEqual({ code: 0, out: 'Deleted 0 unused fixture(s).', err: '' })
    expect(await cliIn(root, 'fixtures', 'prune', '--dry-run')).toEqual({ code: 0, out: 'Would delete 0 unused fixture(s).', err: '' })
  })
})
