// The diff a replay miss prints (src/replay/diff.ts): which paths differ between the nearest recording and
// the request, how each value is shown, and the hints for model-only, stream, host and volatile differences.
import { describe, expect, test } from 'vitest'
import { diffHints, diffMaterial, formatDifferences } from '../../src/replay/diff.js'
import type { KeyMaterial } from '../../src/replay/types.js'

const material = (body: unknown, over: Partial<KeyMaterial> = {}): KeyMaterial => ({
  v: 1,
  method: 'POST',
  origin: 'https://api.openai.com',
  path: '/v1/chat/completions',
  query: [],
  bodyType: 'json',
  body,
  ...over,
})

describe('diffMaterial', () => {
  test('identical material: no differences', () => {
    expect(diffMaterial(material({ a: [1, { b: 2 }] }), material({ a: [1, { b: 2 }] }))).toEqual([])
  })

  test('leaf by leaf, by JSON pointer, keys in sorted order', () => {
    expect(diffMaterial(material({ z: 1, a: 'x', n: { m: true } }), material({ z: 2, a: 'y', n: { m: false } }))).toEqual([
      { path: '/body/a', recorded: 'x', actual: 'y' },
      { path: '/body/n/m', recorded: true, actual: false },
      { path: '/body/z', recorded: 1, actual: 2 },
    ])
  })

  test('a field present on one side only is compared against "missing"', () => {
    const [added] = diffMaterial(material({}), material({ user: 'u' }))
    expect(added).toMatchObject({ path: '/body/user', actual: 'u' })
    expect(typeof added!.recorded).toBe('symbol')
    const [removed] = diffMaterial(material({ user: 'u' }), material({}))
    expect(removed).toMatchObject({ path: '/body/user', recorded: 'u' })
    expect(typeof removed!.actual).toBe('symbol')
  })

  test('a field that is undefined on one side and absent on the other still differs', () => {
    expect(diffMaterial(material({ a: undefined }), material({})).map((d) => d.path)).toEqual(['/body/a'])
    expect(diffMaterial(material({}), material({ a: undefined })).map((d) => d.path)).toEqual(['/body/a'])
  })

  test('arrays of different lengths: once at the array, then the common prefix', () => {
    expect(diffMaterial(material({ m: ['a', 'b', 'c'] }), material({ m: ['a', 'x'] }))).toEqual([
      { path: '/body/m', recorded: '3 item(s)', actual: '2 item(s)', lengthChange: true },
      { path: '/body/m/1', recorded: 'b', actual: 'x' },
    ])
  })

  test('an array against an object, or a value against null, differs at that path', () => {
    expect(diffMaterial(material({ a: [1] }), material({ a: { 0: 1 } }))).toEqual([{ path: '/body/a', recorded: [1], actual: { 0: 1 } }])
    expect(diffMaterial(material({ a: { b: 1 } }), material({ a: null }))).toEqual([{ path: '/body/a', recorded: { b: 1 }, actual: null }])
  })

  test('null, a string or an absent field recorded where the request has an object differs at that path', () => {
    const [absent, ...rest] = diffMaterial(material({ n: null, s: 'x' }), material({ a: { k: 1 }, n: { k: 1 }, s: { k: 1 } }))
    expect(absent).toMatchObject({ path: '/body/a', actual: { k: 1 } })
    expect(typeof absent!.recorded).toBe('symbol')
    expect(rest).toEqual([
      { path: '/body/n', recorded: null, actual: { k: 1 } },
      { path: '/body/s', recorded: 'x', actual: { k: 1 } },
    ])
  })

  test('a difference at the root is reported at "/"', () => {
    expect(diffMaterial([1] as unknown as KeyMaterial, [1, 2] as unknown as KeyMaterial)).toEqual([
      { path: '/', recorded: '1 item(s)', actual: '2 item(s)', lengthChange: true },
    ])
    expect(diffMaterial('a' as unknown as KeyMaterial, 'b' as unknown as KeyMaterial)).toEqual([{ path: '/', recorded: 'a', actual: 'b' }])
  })

  test('"~" and "/" in keys are escaped as in JSON pointers', () => {
    expect(diffMaterial(material({ 'a/b~c': 1 }), material({ 'a/b~c': 2 })).map((d) => d.path)).toEqual(['/body/a~1b~0c'])
  })

  test('the origin, path and query are compared too', () => {
    expect(diffMaterial(material({}), material({}, { origin: 'https://other.example', path: '/v1/responses', query: [['v', '2']] }))).toEqual([
      { path: '/origin', recorded: 'https://api.openai.com', actual: 'https://other.example' },
      { path: '/path', recorded: '/v1/chat/completions', actual: '/v1/responses' },
      { path: '/query', recorded: '0 item(s)', actual: '1 item(s)', lengthChange: true },
    ])
  })
})

describe('formatDifferences', () => {
  test('each path with its recorded and actual value', () => {
    expect(formatDifferences([{ path: '/body/a', recorded: 'x', actual: 'y' }])).toEqual(['    /body/a', '      - recorded: "x"', '      + actual:   "y"'])
  })

  test('an absent value, a length change, numbers, objects and undefined', () => {
    const recorded = diffMaterial(material({}), material({ a: 1 }))[0]!.recorded
    expect(
      formatDifferences([
        { path: '/body/a', recorded, actual: 1 },
        { path: '/body/m', recorded: '3 item(s)', actual: '2 item(s)', lengthChange: true },
        { path: '/body/o', recorded: { k: [1] }, actual: undefined },
      ]),
    ).toEqual([
      '    /body/a',
      '      - recorded: (absent)',
      '      + actual:   1',
      '    /body/m (length)',
      '      - recorded: "3 item(s)"',
      '      + actual:   "2 item(s)"',
      '    /body/o',
      '      - recorded: {"k":[1]}',
      '      + actual:   undefined',
    ])
  })

  test('long strings are cut to 60 characters around the first difference, with its offset', () => {
    const recorded = `${'a'.repeat(100)}X${'b'.repeat(100)}`
    const actual = `${'a'.repeat(100)}Y${'b'.repeat(100)}`
    const [, rec, act] = formatDifferences([{ path: '/body/p', recorded, actual }])
    expect(rec).toBe(`      - recorded: …"${'a'.repeat(60)}X${'b'.repeat(59)}"… (201 chars, first difference at 100)`)
    expect(act).toBe(`      + actual:   …"${'a'.repeat(60)}Y${'b'.repeat(59)}"… (201 chars, first difference at 100)`)
  })

  test('a difference near the start has no leading "…"; one near the end no trailing "…"', () => {
    const [, start] = formatDifferences([{ path: '/p', recorded: `X${'a'.repeat(200)}`, actual: `Y${'a'.repeat(200)}` }])
    expect(start).toBe(`      - recorded: "X${'a'.repeat(59)}"… (201 chars, first difference at 0)`)
    const [, end] = formatDifferences([{ path: '/p', recorded: `${'a'.repeat(200)}X`, actual: `${'a'.repeat(200)}Y` }])
    expect(end).toBe(`      - recorded: …"${'a'.repeat(60)}X" (201 chars, first difference at 200)`)
  })

  test('a string of 140 characters is shown whole; a long string against a non-string is cut at 140', () => {
    const s140 = 'c'.repeat(140)
    expect(formatDifferences([{ path: '/p', recorded: s140, actual: `${s140.slice(0, 139)}d` }])[1]).toBe(`      - recorded: "${s140}"`)
    expect(formatDifferences([{ path: '/p', recorded: 'c'.repeat(150), actual: 3 }])[1]).toBe(`      - recorded: "${'c'.repeat(140)}…"`)
    expect(formatDifferences([{ path: '/p', recorded: 3, actual: 'c'.repeat(150) }])[2]).toBe(`      + actual:   "${'c'.repeat(140)}…"`)
  })

  test('at most ten paths (or the limit), then how many more', () => {
    const diffs = Array.from({ length: 12 }, (_, i) => ({ path: `/body/${i}`, recorded: i, actual: i + 1 }))
    const lines = formatDifferences(diffs)
    expect(lines).toHaveLength(31)
    expect(lines.at(-1)).toBe('    … and 2 more path(s)')
    expect(formatDifferences(diffs, 12)).toHaveLength(36)
    expect(formatDifferences(diffs.slice(0, 3), 2).at(-1)).toBe('    … and 1 more path(s)')
  })
})

describe('diffHints', () => {
  test('only the model differs', () => {
    expect(diffHints([{ path: '/body/model', recorded: 'gpt-4o', actual: 'gpt-4.1' }])).toEqual([
      'Only the model differs (recorded "gpt-4o", now "gpt-4.1"). If the model change is intended, record again with EXPECT_LLM_REPLAY=rerecord.',
    ])
  })

  test('the model and something else: no model hint', () => {
    expect(
      diffHints([
        { path: '/body/model', recorded: 'a', actual: 'b' },
        { path: '/body/messages/0/content', recorded: 'x', actual: 'y' },
      ]),
    ).toEqual([])
    expect(diffHints([])).toEqual([])
  })

  test('streaming now, not when recorded; and the other way round', () => {
    expect(diffHints([{ path: '/body/stream', recorded: Symbol('missing'), actual: true }])).toEqual([
      'The recording is a non-streaming call, but the test now streams (stream: true). Record the streaming call.',
    ])
    expect(diffHints([{ path: '/body/stream', recorded: true, actual: false }])).toEqual([
      'The recording is a streaming call, but the test now makes a non-streaming call. Record the non-streaming call.',
    ])
  })

  test('another host', () => {
    expect(diffHints([{ path: '/origin', recorded: 'https://a', actual: 'https://b' }])).toEqual([
      'The host differs: check baseURL, or add the host to configure({ replay: { hosts } }).',
    ])
  })

  test('a body field named origin is no host difference', () => {
    expect(diffHints([{ path: '/body/origin', recorded: 'a', actual: 'b' }])).toEqual([])
  })

  test.each(['user', 'metadata', 'request_id', 'session', 'trace-id', 'created', 'prompt_cache_key', 'ID'])('a field named %s looks volatile', (name) => {
    expect(diffHints([{ path: `/body/${name}`, recorded: 'a', actual: 'b' }])).toEqual([
      `"${name}" looks volatile: if it changes every run, add '${name}' to configure({ replay: { ignoreBodyFields } }).`,
    ])
  })

  test('a nested field is judged by its own name: metadata.id looks volatile (the dot is no separator of a name)', () => {
    expect(diffHints([{ path: '/body/metadata/id', recorded: 'a', actual: 'b' }])).toEqual([
      `"metadata.id" looks volatile: if it changes every run, add 'metadata.id' to configure({ replay: { ignoreBodyFields } }).`,
    ])
  })

  test.each([
    ['a UUID', '0f8fad5b-d9cb-469f-a165-70867728950e'],
    ['an ISO timestamp', '2026-12-01T02:34:57Z'],
    ['a long hex id', 'a'.repeat(24)],
  ])('a value that is %s looks volatile, named by its dot path', (_what, value) => {
    expect(diffHints([{ path: '/body/meta~1data/x~0y/tag', recorded: 'old', actual: value }])).toEqual([
      `"meta/data.x~y.tag" looks volatile: if it changes every run, add 'meta/data.x~y.tag' to configure({ replay: { ignoreBodyFields } }).`,
    ])
  })

  test('ordinary fields and values do not look volatile; a name only ends in a volatile word after a separator', () => {
    expect(diffHints([{ path: '/body/messages/0/content', recorded: 'a', actual: 'b' }])).toEqual([])
    expect(diffHints([{ path: '/body/valid', recorded: 'a', actual: 'b' }])).toEqual([])
    expect(diffHints([{ path: '/body/tag', recorded: 'a', actual: 'a'.repeat(23) }])).toEqual([])
    expect(diffHints([{ path: '/query/0/user', recorded: 'a', actual: 'b' }])).toEqual([])
  })

  test('only a string value can look volatile: a list holding a UUID does not', () => {
    expect(diffHints([{ path: '/body/tag', recorded: 'a', actual: ['0f8fad5b-d9cb-469f-a165-70867728950e'] }])).toEqual([])
  })

  test('a tool hint needs the actual material and a body path', () => {
    const body = { messages: [{ role: 'tool', tool_call_id: 'c', content: 'x' }] }
    expect(diffHints([{ path: '/body/messages/0/content', recorded: 'a', actual: 'b' }])).toEqual([])
    expect(diffHints([{ path: '/query/0', recorded: 'a', actual: 'b' }], material(body))).toEqual([])
  })
})

describe('diffHints for an Anthropic tool_result block', () => {
  const body = {
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Where is order 7?' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookupOrder', input: { id: 7 } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"status":"lost"}' }] },
    ],
  }

  test('names the tool by the tool_use block with its id', () => {
    expect(diffHints([{ path: '/body/messages/2/content/0/content', recorded: 'a', actual: 'b' }], material(body))).toEqual([
      'messages[2].content[0] is the result of the tool lookupOrder (call toolu_1), and it differs from the recording: the tool returned something else this time. If it varies between runs (ids, times, live data), make the tool deterministic in the test; if the change is intended, record again.',
    ])
  })

  test('without a matching tool_use, or an id, the tool is unnamed', () => {
    const orphan = { messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] }
    expect(diffHints([{ path: '/body/messages/0/content/0/content', recorded: 'a', actual: 'b' }], material(orphan))[0]).toMatch(
      /^messages\[0\]\.content\[0\] is the result of a tool, and it differs/,
    )
  })
})
