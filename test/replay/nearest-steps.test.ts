// The pure choice of the recording a miss is compared with (src/replay/nearest.ts), rank by rank.
import { describe, expect, test } from 'vitest'
import { diffMaterial } from '../../src/replay/diff.js'
import { chooseNearest, clientFamily, type NearestCandidate, valueDistance } from '../../src/replay/nearest.js'
import type { Fixture, KeyMaterial } from '../../src/replay/types.js'

const material = (body: Record<string, unknown>, origin = 'https://api.openai.com'): KeyMaterial => ({
  v: 1,
  method: 'POST',
  origin,
  path: '/v1/chat/completions',
  query: [],
  bodyType: 'json',
  body,
})
const candidate = (file: string, key: KeyMaterial, { sameFolder = true, ua = null as string | null } = {}): NearestCandidate => ({
  file,
  sameFolder,
  fixture: { key, meta: { sdkUserAgent: ua } } as unknown as Fixture,
})
const actual = material({ model: 'gpt-4o', content: 'hello world' })

describe('clientFamily', () => {
  test.each([
    ['OpenAI/JS 7.59.0', 'openai'],
    ['ai/7.0.1 ai-sdk/provider-utils/3', 'ai-sdk'],
    ['ai-sdk-openai/4.0.1', 'ai-sdk'],
    ['langchainjs-openai/1.0.0', 'langchain'],
    ['Anthropic/JS 1.14.0', 'anthropic'],
    ['  curl/8.0', 'curl'],
    ['aiohttp/3.9', 'aiohttp'],
  ])('%j → %j', (ua, family) => {
    expect(clientFamily(ua)).toBe(family)
  })

  test('no user agent: null', () => {
    expect(clientFamily(null)).toBeNull()
    expect(clientFamily(undefined)).toBeNull()
    expect(clientFamily('   ')).toBeNull()
  })
})

describe('valueDistance', () => {
  /** The weight of each difference between a recorded body and the actual one. */
  const weights = (recorded: Record<string, unknown>, actual: Record<string, unknown>) => diffMaterial(material(recorded), material(actual)).map(valueDistance)

  test('two strings: their edit distance', () => {
    expect(weights({ content: 'hello world' }, { content: 'hello, world!' })).toEqual([2])
  })

  test('a string recorded, absent now: its JSON length (quotes included), not its edit distance to nothing', () => {
    expect(weights({ system: 'be brief' }, {})).toEqual([10])
  })

  test('absent when recorded, a string now: its JSON length', () => {
    expect(weights({}, { system: 'be brief' })).toEqual([10])
  })

  test('a string against a number: both JSON lengths added up', () => {
    expect(weights({ n: 'abc' }, { n: 12345 })).toEqual([10])
  })

  test('two non-strings: both JSON lengths added up', () => {
    expect(weights({ n: 12345 }, { n: 7 })).toEqual([6])
    expect(weights({ tools: [{ a: 1 }] }, { tools: [{ a: 22 }] })).toEqual([3])
  })
})

describe('chooseNearest', () => {
  test('no candidates: undefined', () => {
    expect(chooseNearest(actual, null, [])).toBeUndefined()
  })

  test('the smallest text distance wins, with its differences', () => {
    const near = candidate('b.json', material({ model: 'gpt-4o', content: 'hello world!' }))
    const far = candidate('a.json', material({ model: 'gpt-4o', content: 'something else entirely' }))
    expect(chooseNearest(actual, null, [far, near])).toEqual({
      file: 'b.json',
      diffs: [{ path: '/body/content', recorded: 'hello world!', actual: 'hello world' }],
    })
  })

  test('the test file’s own folder beats a closer recording elsewhere', () => {
    const elsewhere = candidate('a.json', material({ model: 'gpt-4o', content: 'hello world' }), { sameFolder: false })
    const own = candidate('b.json', material({ model: 'gpt-4o', content: 'quite different' }))
    expect(chooseNearest(actual, null, [elsewhere, own])?.file).toBe('b.json')
  })

  test('then the same origin', () => {
    const otherHost = candidate('a.json', material({ model: 'gpt-4o', content: 'hello world' }, 'https://other.example'))
    const sameHost = candidate('b.json', material({ model: 'gpt-4o', content: 'quite different' }))
    expect(chooseNearest(actual, null, [otherHost, sameHost])?.file).toBe('b.json')
  })

  test('then the same model', () => {
    const otherModel = candidate('a.json', material({ model: 'gpt-4.1', content: 'hello world' }))
    const sameModel = candidate('b.json', material({ model: 'gpt-4o', content: 'quite different' }))
    expect(chooseNearest(actual, null, [otherModel, sameModel])?.file).toBe('b.json')
  })

  test('then the same client family', () => {
    const otherClient = candidate('a.json', material({ model: 'gpt-4o', content: 'hello world' }), { ua: 'ai/7.0.1' })
    const sameClient = candidate('b.json', material({ model: 'gpt-4o', content: 'quite different' }), { ua: 'OpenAI/JS 7.1.0' })
    expect(chooseNearest(actual, 'openai', [otherClient, sameClient])?.file).toBe('b.json')
  })

  test('equal ranks: the first file name, whatever the order given', () => {
    const a = candidate('a.json', material({ model: 'gpt-4o', content: 'hello worlx' }))
    const b = candidate('b.json', material({ model: 'gpt-4o', content: 'hello worly' }))
    expect(chooseNearest(actual, null, [b, a])?.file).toBe('a.json')
    expect(chooseNearest(actual, null, [a, b])?.file).toBe('a.json')
  })

  test('a better rank given first stays: a worse candidate after it does not replace it', () => {
    const own = candidate('b.json', material({ model: 'gpt-4o', content: 'quite different' }))
    const elsewhere = candidate('a.json', material({ model: 'gpt-4o', content: 'hello world' }), { sameFolder: false })
    expect(chooseNearest(actual, null, [own, elsewhere])?.file).toBe('b.json')
    const near = candidate('d.json', material({ model: 'gpt-4o', content: 'hello world!' }))
    const far = candidate('c.json', material({ model: 'gpt-4o', content: 'something else entirely' }))
    expect(chooseNearest(actual, null, [near, far])?.file).toBe('d.json')
  })

  test('the same file name twice with equal ranks: the first given is kept, with its differences', () => {
    const first = candidate('a.json', material({ model: 'gpt-4o', content: 'hello worlx' }))
    const second = candidate('a.json', material({ model: 'gpt-4o', content: 'hello worly' }))
    expect(chooseNearest(actual, null, [first, second])).toEqual({
      file: 'a.json',
      diffs: [{ path: '/body/content', recorded: 'hello worlx', actual: 'hello world' }],
    })
  })

  test('a changed array length counts 50 per item; non-strings count their JSON size', () => {
    const oneMore = candidate('a.json', material({ model: 'gpt-4o', content: 'hello world', list: [1, 2] }))
    const bigText = candidate('b.json', material({ model: 'gpt-4o', content: `hello world${'!'.repeat(60)}`, list: [1] }))
    const withList = { ...actual, body: { model: 'gpt-4o', content: 'hello world', list: [1] } }
    // One extra item (50) is nearer than 60 extra characters.
    expect(chooseNearest(withList, null, [bigText, oneMore])?.file).toBe('a.json')
    const numberOff = candidate('c.json', material({ model: 'gpt-4o', content: 'hello world', n: 12345 }))
    const charsOff = candidate('d.json', material({ model: 'gpt-4o', content: 'hello world!!!!!!' }))
    // n: 12345 against absent counts 5; six extra characters count 6.
    expect(chooseNearest(actual, null, [charsOff, numberOff])?.file).toBe('c.json')
  })
})
