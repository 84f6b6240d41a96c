// stringPieces (src/report/client/build.mjs): the generated page script is written as short string
// literals that join back into the script, so no line of bundle.generated.ts is over 160 characters.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
// @ts-expect-error a build script in plain JavaScript, without types
import { stringPieces } from '../../src/report/client/build.mjs'
import { CLIENT_SCRIPT } from '../../src/report/client/bundle.generated.js'

const pieces = stringPieces as (text: string, width: number) => string[]

describe('stringPieces', () => {
  test('JSON string literals of at most the width, in order', () => {
    expect(pieces('abcdefgh', 5)).toEqual(['"abc"', '"def"', '"gh"'])
    expect(pieces('', 5)).toEqual([])
  })

  test('an escape counts with its backslash and is never cut', () => {
    expect(pieces('a"b\nc', 6)).toEqual(['"a\\"b"', '"\\nc"'])
  })

  test('a surrogate pair stays in one piece; a character wider than the width still gets a piece', () => {
    expect(pieces('ab😀c', 5)).toEqual(['"ab"', '"😀c"'])
    expect(pieces('\u0001x', 3)).toEqual(['"\\u0001"', '"x"'])
  })

  test('the pieces join back into the text', () => {
    const text = 'const s="a\\\\b";\n\t/* 😀 */ `x${1}`\u2028'.repeat(40)
    expect(
      pieces(text, 30)
        .map((p) => JSON.parse(p) as string)
        .join(''),
    ).toBe(text)
  })
})

test('the committed bundle has no line over 160 characters and carries the whole script', () => {
  const module = readFileSync(new URL('../../src/report/client/bundle.generated.ts', import.meta.url), 'utf8')
  expect(module.split('\n').filter((line) => line.length > 160)).toEqual([])
  expect(CLIENT_SCRIPT.startsWith('"use strict";(()=>{')).toBe(true)
  expect(CLIENT_SCRIPT.endsWith('})();')).toBe(true)
})
