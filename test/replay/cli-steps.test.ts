// The pure steps of the `expect-llm fixtures` command (src/replay/cli.ts).
import { describe, expect, test } from 'vitest'
import { buildKey } from '../../src/replay/key.js'
import {
  firstUserMessage,
  fixtureProblems,
  fixtureRows,
  fixturesByFolder,
  fixtureTable,
  parseCliArgs,
  planCommand,
  pruneSkipReason,
} from '../../src/replay/cli.js'
import { buildFixture } from '../../src/replay/record-steps.js'
import type { RecordedResponse } from '../../src/replay/types.js'

const plan = (...argv: string[]) => planCommand(argv, parseCliArgs(argv), '/cwd')

describe('planCommand', () => {
  test('a command with its root, dir and flags', () => {
    const planned = plan('fixtures', 'prune', '--root', '/r', '--dir', 'fx', '--dry-run')
    expect(planned).toMatchObject({ command: 'prune', root: '/r', dir: 'fx' })
    expect('flags' in planned && planned.flags.has('dry-run')).toBe(true)
    expect(plan('fixtures', 'ls')).toMatchObject({ command: 'ls', root: '/cwd', dir: undefined })
  })

  test('--help prints the help and exits 0; a missing command prints it and exits 2', () => {
    expect(plan('--help')).toMatchObject({ code: 0, err: [] })
    const missing = plan('fixtures')
    expect(missing).toMatchObject({ code: 2 })
    expect('err' in missing && missing.err[0]).toMatch(/"expect-llm fixtures": a command is missing/)
    expect('out' in missing && missing.out[0]).toMatch(/^Usage: expect-llm fixtures/)
  })

  test('an unknown command or option exits 2 without running anything', () => {
    expect(plan('fixtures', 'delete')).toMatchObject({ code: 2, out: [], err: [expect.stringMatching(/unknown command/)] })
    expect(plan('fixtures', 'ls', 'extra')).toMatchObject({ code: 2 })
    expect(plan('fixtures', 'prune', '--force')).toMatchObject({ code: 2, err: [expect.stringMatching(/Unknown option '--force'/)] })
  })

  test('an unknown option prints only the error, naming the options', () => {
    expect(plan('fixtures', 'prune', '--force')).toEqual({
      code: 2,
      out: [],
      err: [
        `[expect-llm] Failed to run "expect-llm fixtures prune --force": Unknown option '--force'. Options: --root <dir>, --dir <dir>, --max-age <age>, --dry-run, --json, --help.`,
      ],
    })
  })

  test('a group other than fixtures is an unknown command, with a subcommand or without', () => {
    const unknown = (line: string) => ({
      code: 2,
      out: [],
      err: [`[expect-llm] Failed to run "expect-llm ${line}": unknown command. Use one of: expect-llm fixtures ls | verify | prune.`],
    })
    expect(plan('purge')).toEqual(unknown('purge'))
    expect(plan('other', 'ls')).toEqual(unknown('other ls'))
  })
})

const key = buildKey(
  'POST',
  new URL('https://api.openai.com/v1/chat/completions'),
  new TextEncoder().encode(JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is the capital of France?' }] })),
  'application/json',
  {},
)
const response: RecordedResponse = { status: 200, headers: {}, json: { ok: true } }
const fixture = buildFixture({
  key,
  shaped: { response },
  redacted: response,
  durationMs: 5,
  recordedAt: new Date('2026-01-01T00:00:00Z'),
  userAgent: null,
  testFile: null,
})
const now = Date.parse('2026-01-03T00:00:00Z')

describe('fixtures ls', () => {
  test('a row per file, a corrupt one saying so', () => {
    const rows = fixtureRows(
      [
        { file: '/r/a.json', size: 2048, fixture },
        { file: '/r/b.json', size: 10, error: 'not JSON' },
      ],
      (f) => f.slice(3),
      now,
    )
    expect(rows).toEqual([
      { file: 'a.json', endpoint: key.endpoint, model: 'gpt-4o-mini', message: 'What is the capital of France?', age: '2d', size: '2.0 KB' },
      { file: 'b.json', endpoint: '?', model: '', message: 'CORRUPT: not JSON', age: '', size: '10 B' },
    ])
  })

  test('a file with neither a fixture nor an error has an empty message', () => {
    expect(fixtureRows([{ file: '/r/a.json', size: 0 }], (f) => f.slice(3), now)).toEqual([
      { file: 'a.json', endpoint: '?', model: '', message: '', age: '', size: '0 B' },
    ])
  })

  test('sizes under 1024 bytes in B, from 1024 in KB with one decimal', () => {
    const sizes = [1023, 1024, 1536].map((size) => fixtureRows([{ file: '/r/a.json', size, fixture }], (f) => f, now)[0]!.size)
    expect(sizes).toEqual(['1023 B', '1.0 KB', '1.5 KB'])
  })

  test('the table pads each column to its widest cell', () => {
    const lines = fixtureTable([{ file: 'a.json', endpoint: 'e', model: 'm', message: 'hello', age: '1d', size: '1 B' }])
    expect(lines).toEqual(['ENDPOINT  MODEL  MESSAGE  AGE  SIZE  FILE', 'e         m      hello    1d   1 B   a.json'])
  })
})

describe('fixtures verify', () => {
  test('a fine fixture has no problem; a corrupt one has one', () => {
    expect(fixtureProblems({ fixture }, 'a.json')).toEqual([])
    expect(fixtureProblems({ error: 'bad hash' }, 'a.json')).toEqual(['a.json: corrupt: bad hash'])
  })

  test('a file with neither a fixture nor an error is corrupt: unreadable', () => {
    expect(fixtureProblems({}, 'a.json')).toEqual(['a.json: corrupt: unreadable'])
  })

  test('an error makes the file corrupt even with a fixture', () => {
    expect(fixtureProblems({ fixture, error: 'bad hash' }, 'a.json')).toEqual(['a.json: corrupt: bad hash'])
  })

  test('a fixture exactly --max-age old is not stale yet', () => {
    expect(fixtureProblems({ fixture }, 'a.json', { now, maxAge: 2 * 86400e3, maxAgeText: '2d' })).toEqual([])
  })

  test('stale past --max-age, with the age and how to record again', () => {
    expect(fixtureProblems({ fixture }, 'a.json', { now, maxAge: 86400e3, maxAgeText: '1d' })).toEqual([
      'a.json: stale: recorded 2d ago (max age 1d); record it again with EXPECT_LLM_REPLAY=rerecord',
    ])
    expect(fixtureProblems({ fixture }, 'a.json', { now, maxAge: 3 * 86400e3, maxAgeText: '3d' })).toEqual([])
  })

  test('each secret is a problem', () => {
    const secret = ['sk', 'proj', 'B'.repeat(24)].join('-')
    const leaky: RecordedResponse = { status: 200, headers: {}, json: { echo: secret } }
    const withSecret = buildFixture({
      key,
      shaped: { response: leaky },
      redacted: leaky,
      durationMs: 1,
      recordedAt: new Date(now),
      userAgent: null,
      testFile: null,
    })
    expect(fixtureProblems({ fixture: withSecret }, 'a.json')).toEqual([expect.stringMatching(/^a\.json: secret: .* at \/response\/json\/echo$/)])
  })
})

describe('fixtures prune', () => {
  test('a folder is pruned only after a complete, green run of its test file', () => {
    expect(pruneSkipReason({ complete: true })).toBeUndefined()
    expect(pruneSkipReason(undefined)).toMatch(/no run of its test file was recorded/)
    expect(pruneSkipReason({ complete: false, reason: 'failed' })).toMatch(/failing tests/)
    expect(pruneSkipReason({ complete: false, reason: 'filtered' })).toMatch(/filtered or skipped/)
    expect(pruneSkipReason({ complete: false })).toMatch(/filtered or skipped/)
  })

  test('files grouped by folder, folders in order', () => {
    const rel = (f: string) => f.replace('/r/', '')
    expect(fixturesByFolder(['/r/b/1.json', '/r/a/2.json', '/r/b/3.json'], rel)).toEqual([
      ['a', ['/r/a/2.json']],
      ['b', ['/r/b/1.json', '/r/b/3.json']],
    ])
  })
})

describe('firstUserMessage', () => {
  const withBody = (body: unknown) => ({ key: { body } }) as unknown as Parameters<typeof firstUserMessage>[0]

  test('the first user message of a chat, its text parts joined', () => {
    expect(
      firstUserMessage(
        withBody({
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Hi  there\n you' },
          ],
        }),
      ),
    ).toBe('Hi there you')
    expect(
      firstUserMessage(withBody({ messages: [{ role: 'user', content: ['Look:', { type: 'text', text: 'this' }, { type: 'image_url', image_url: {} }] }] })),
    ).toBe('Look: this')
  })

  test('parts without a text string (null, a number, no text) add nothing', () => {
    expect(firstUserMessage(withBody({ messages: [{ role: 'user', content: ['a', null, { type: 'text', text: 42 }, { type: 'image_url' }, 'b'] }] }))).toBe(
      'a b',
    )
  })

  test('a Responses or embeddings input, as a string, a list of strings or a list of messages', () => {
    expect(firstUserMessage(withBody({ input: 'Embed me' }))).toBe('Embed me')
    expect(firstUserMessage(withBody({ input: ['first', 'second'] }))).toBe('first')
    expect(firstUserMessage(withBody({ input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hello' }] }] }))).toBe('Hello')
  })

  test('cut to 50 characters with an ellipsis; nothing for other bodies', () => {
    expect(firstUserMessage(withBody({ input: 'x'.repeat(50) }))).toBe('x'.repeat(50))
    expect(firstUserMessage(withBody({ input: 'x'.repeat(51) }))).toBe(`${'x'.repeat(49)}…`)
    expect(firstUserMessage(withBody(null))).toBe('')
    expect(firstUserMessage(withBody({ messages: [{ role: 'assistant', content: 'no user' }] }))).toBe('')
    expect(firstUserMessage(withBody({ input: [] }))).toBe('')
  })
})

describe('pruneSkipReason', () => {
  test('each reason a folder is left alone', () => {
    expect(pruneSkipReason(undefined)).toBe('no run of its test file was recorded; run the full suite first')
    expect(pruneSkipReason({ complete: true })).toBeUndefined()
    expect(pruneSkipReason({ complete: false, reason: 'failed' })).toBe('its last run had failing tests; prune after a green run')
    expect(pruneSkipReason({ complete: false, reason: 'filtered' })).toBe('its last run was filtered or skipped tests; run the full suite first')
  })
})
