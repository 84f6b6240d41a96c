import { beforeEach, describe, expect, test } from 'vitest'
import { __testing, porterStem } from '../../src/metrics/porter.js'

// Every expected stem below is the output of nltk 3.8's `PorterStemmer().stem(word)` (default mode
// NLTK_EXTENSIONS), the stemmer rouge-score uses. Where a comment gives "Martin" / "original", those are
// nltk's own MARTIN_EXTENSIONS / ORIGINAL_ALGORITHM modes, i.e. what a port of Martin Porter's C code or
// of the 1980 paper returns instead: those rows fail for a port that is not NLTK's.

// Each test stems its words afresh: a memoized stem (from an earlier test, or from the run of another mutant
// in a mutation run, which reuses this module) would otherwise answer it without running the rules.
beforeEach(() => __testing.clearCache())

describe('porterStem: stems that the reference vectors rely on (reference README section 4.2)', () => {
  test.each([
    ['tying', 'tie'],
    ['innings', 'inning'],
    ['ties', 'tie'],
    ['laces', 'lace'],
    ['shining', 'shine'],
    ['brightly', 'brightli'],
    ['dried', 'dri'],
    ['buses', 'buse'],
    ['tranquility', 'tranquil'],
    ['tranquillity', 'tranquil'],
    ['source', 'sourc'],
    ['only', 'onli'],
  ])('%s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })
})

describe('porterStem: NLTK irregular-forms table', () => {
  test.each([
    ['sky', 'sky'], // the steps alone give 'ski'
    ['skies', 'sky'],
    ['dying', 'die'], // Martin/original: 'dy'
    ['lying', 'lie'],
    ['tying', 'tie'],
    ['news', 'news'], // Martin/original: 'new'
    ['innings', 'inning'], // Martin/original: 'in'
    ['inning', 'inning'],
    ['outings', 'outing'],
    ['outing', 'outing'],
    ['cannings', 'canning'],
    ['canning', 'canning'], // Martin/original: 'can'
    ['howe', 'howe'], // Martin/original: 'how'
    ['proceed', 'proceed'], // Martin/original: 'proce'
    ['exceed', 'exceed'],
    ['succeed', 'succeed'],
  ])('%s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })
})

describe('porterStem: NLTK-only rules', () => {
  test.each([
    ['ties', 'tie'],
    ['dies', 'die'],
    ['pies', 'pie'],
  ])('step 1a: a 4-letter word ending in "ies" keeps "ie": %s -> %s (Martin/original drop "es")', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test.each([
    ['cries', 'cri'],
    ['flies', 'fli'],
    ['ponies', 'poni'],
  ])('step 1a: a longer word ending in "ies" follows the normal rule: %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test.each([
    ['died', 'die'], // Martin/original: 'di'
    ['tied', 'tie'],
    ['lied', 'lie'],
  ])('step 1b: "ied" -> "ie" in a 4-letter word: %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test.each([
    ['spied', 'spi'],
    ['dried', 'dri'],
    ['hurried', 'hurri'],
  ])('step 1b: "ied" -> "i" in a longer word: %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test.each([
    ['happy', 'happi'],
    ['dry', 'dri'], // Martin/original: 'dry' (no vowel before the y)
    ['spy', 'spi'],
    ['shy', 'shi'],
  ])('step 1c: y -> i after a consonant that is not the whole stem: %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test.each([
    ['enjoy', 'enjoy'], // Martin/original: 'enjoi'
    ['employ', 'employ'],
    ['obey', 'obey'],
    ['enjoying', 'enjoy'], // Martin/original: 'enjoi'
    ['playing', 'play'], // Martin/original: 'plai'
  ])('step 1c: y stays after a vowel: %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test.each([
    ['additionally', 'addit'], // Martin/original: 'addition'
    ['conditionally', 'condit'],
    ['emotionally', 'emot'],
    ['traditionally', 'tradit'],
  ])('step 2: "alli" -> "al" runs first and step 2 runs again on the result: %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test.each([
    ['hopefully', 'hope'], // Martin/original: 'hopefulli'
    ['carefully', 'care'],
    ['beautifully', 'beauti'],
    ['wonderfully', 'wonder'],
  ])('step 2: "fulli" -> "ful": %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test.each([
    ['possibly', 'possibl'], // original ('abli' -> 'able' only): 'possibli'
    ['terribly', 'terribl'],
    ['humbly', 'humbl'],
    ['visibly', 'visibl'],
  ])('step 2: "bli" -> "ble" (not "abli" -> "able"): %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test.each([
    ['geology', 'geolog'], // Martin: 'geologi' (it measures 'geo', m = 0; NLTK measures 'geol', m = 1)
    ['theology', 'theolog'],
    ['biology', 'biolog'],
    ['apology', 'apolog'], // original (no 'logi' rule): 'apologi'
    ['technologies', 'technolog'],
  ])('step 2: "logi" -> "log" with the "l" kept in the measured stem: %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test.each([
    ['ales', 'ale'], // Martin/original: 'al'
    ['uses', 'use'],
    ['ices', 'ice'],
    ['axes', 'axe'],
    ['abed', 'abe'], // Martin/original: 'ab'
    ['aced', 'ace'],
  ])('*o is also true for a 2-letter vowel-consonant stem: %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })
})

describe('porterStem: a y at the start of a word (nltk 3.8 from Debian, python3-nltk)', () => {
  test.each([
    // A first-letter y is a consonant: 'yor' is consonant-vowel-consonant (*o), so step 5a keeps the e.
    ['yore', 'yore'],
    // y's after it alternate: in 'yyy' the third is a consonant again, so 'yyy' has m = 1 and step 5a drops the e.
    ['yyye', 'yyy'],
    ['yyyed', 'yy'],
    ['yelling', 'yell'],
    ['yearly', 'yearli'],
  ])('%s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })
})

describe('porterStem: rules no example above reaches (nltk 3.8 from Debian, python3-nltk)', () => {
  test('a y after a consonant is a vowel: "cry" contains one, so "crying" loses "ing"', () => {
    expect(porterStem('crying')).toBe('cri')
  })

  test('a doubled vowel is not a double consonant: "seeing" -> "see" (not "se")', () => {
    expect(porterStem('seeing')).toBe('see')
  })

  test('step 1b adds no "e" to a stem with m = 0: "fleeing" -> "flee" (not "fleee")', () => {
    // 'flee' has m = 0, so step 5a would keep an added 'e'.
    expect(porterStem('fleeing')).toBe('flee')
  })

  test('step 1b: "eed" -> "ee" measures everything before "eed": "guaranteed" -> "guarante"', () => {
    expect(porterStem('guaranteed')).toBe('guarante')
  })

  test.each([
    ['activated', 'activ'], // 'activat' + 'e', then step 4 drops 'ate'
    ['formalized', 'formal'], // 'formaliz' + 'e', then step 3 'alize' -> 'al'
    ['fashionabled', 'fashion'], // made up: 'fashionabl' + 'e', then step 4 drops 'able'
  ])('step 1b: a stem ending in "at", "bl" or "iz" gets its "e" back: %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test.each([
    ['blotted', 'blot'],
    ['atrapped', 'atrap'], // made up
    ['izmitted', 'izmit'], // made up
  ])('step 1b: a stem that starts with "bl", "at" or "iz" is undoubled, not given an "e": %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test('step 1b: a stem with m > 1 gets no "e" even when it ends consonant-vowel-consonant: "caregiving" -> "caregiv"', () => {
    // 'caregive' would lose 'ive' in step 4 ('careg' has m = 2).
    expect(porterStem('caregiving')).toBe('caregiv')
  })

  test('*o needs a consonant last: "canoeing" -> "cano" ("canoe" ends consonant-vowel-vowel)', () => {
    expect(porterStem('canoeing')).toBe('cano')
  })

  test.each([
    ['bowing', 'bow'],
    ['boxing', 'box'],
  ])('*o is false when the last consonant is w or x: %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  test('*o of a longer stem looks at its last three letters, not at a leading vowel-consonant: "urge" -> "urg"', () => {
    expect(porterStem('urge')).toBe('urg')
  })

  test('step 2: "alli" -> "al" needs m > 0 before "alli": "tally" -> "talli"', () => {
    expect(porterStem('tally')).toBe('talli')
  })

  test.each([
    ['confusion', 'confus'], // m > 1, ends in s
    ['companion', 'companion'], // m > 1, but ends in n
    ['lotion', 'lotion'], // ends in t, but m = 1
    ['onion', 'onion'],
  ])('step 4: "ion" goes only after s or t and with m > 1: %s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })
})

describe('porterStem: examples from Porter (1980), NLTK results', () => {
  test.each([
    // step 1a
    ['caresses', 'caress'],
    ['caress', 'caress'],
    ['cats', 'cat'],
    // step 1b
    ['feed', 'feed'],
    ['agreed', 'agre'],
    ['plastered', 'plaster'],
    ['bled', 'bled'],
    ['motoring', 'motor'],
    ['sing', 'sing'],
    ['conflated', 'conflat'],
    ['troubled', 'troubl'],
    ['sized', 'size'],
    ['hopping', 'hop'],
    ['hoping', 'hope'],
    ['tanned', 'tan'],
    ['falling', 'fall'],
    ['hissing', 'hiss'],
    ['fizzed', 'fizz'],
    ['failing', 'fail'],
    ['filing', 'file'],
    // step 2
    ['relational', 'relat'],
    ['conditional', 'condit'],
    ['rational', 'ration'],
    ['valenci', 'valenc'],
    ['hesitanci', 'hesit'],
    ['digitizer', 'digit'],
    ['conformabli', 'conform'],
    ['radicalli', 'radic'],
    ['differentli', 'differ'],
    ['vileli', 'vile'],
    ['analogousli', 'analog'],
    ['vietnamization', 'vietnam'],
    ['predication', 'predic'],
    ['operator', 'oper'],
    ['feudalism', 'feudal'],
    ['decisiveness', 'decis'],
    ['hopefulness', 'hope'],
    ['callousness', 'callous'],
    ['formaliti', 'formal'],
    ['sensitiviti', 'sensit'],
    ['sensibiliti', 'sensibl'],
    // step 3
    ['triplicate', 'triplic'],
    ['formative', 'form'],
    ['formalize', 'formal'],
    ['electriciti', 'electr'],
    ['electrical', 'electr'],
    ['hopeful', 'hope'],
    ['goodness', 'good'],
    // step 4
    ['revival', 'reviv'],
    ['allowance', 'allow'],
    ['inference', 'infer'],
    ['airliner', 'airlin'],
    ['gyroscopic', 'gyroscop'],
    ['adjustable', 'adjust'],
    ['defensible', 'defens'],
    ['irritant', 'irrit'],
    ['replacement', 'replac'],
    ['adjustment', 'adjust'],
    ['dependent', 'depend'],
    ['adoption', 'adopt'],
    ['homologou', 'homolog'],
    ['communism', 'commun'],
    ['activate', 'activ'],
    ['angulariti', 'angular'],
    ['homologous', 'homolog'],
    ['effective', 'effect'],
    ['bowdlerize', 'bowdler'],
    // step 5
    ['probate', 'probat'],
    ['rate', 'rate'],
    ['cease', 'ceas'],
    ['controlling', 'control'],
    ['roll', 'roll'],
  ])('%s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })
})

describe('porterStem: input handling like nltk stem(word)', () => {
  test('lower-cases the word before stemming', () => {
    expect(porterStem('Running')).toBe('run')
  })

  test('looks the original (not lower-cased) word up in the irregular-forms table, as nltk does', () => {
    // 'Sky' is not a key of nltk's table, so it is stemmed like any word: 'sky' -> step 1c -> 'ski'.
    expect(porterStem('Sky')).toBe('ski')
  })

  test('returns words of 1 or 2 characters lower-cased but not stemmed', () => {
    expect([porterStem('is'), porterStem('as'), porterStem('IS'), porterStem('a')]).toEqual(['is', 'as', 'is', 'a'])
  })

  test('returns the empty string for the empty string', () => {
    expect(porterStem('')).toBe('')
  })

  test('counts lengths in code points like Python, not UTF-16 units', () => {
    // '😀ies' has 4 code points (nltk's 4-letter 'ies' rule) but 5 UTF-16 units; '😀s' has 2 code
    // points (returned unchanged) but 3 units.
    expect([porterStem('😀ies'), porterStem('😀s'), porterStem('😀ied'), porterStem('b😀y')]).toEqual(['😀ie', '😀s', '😀ie', 'b😀i'])
  })

  test('lower-cases astral letters like Python', () => {
    expect(porterStem('𐐀s')).toBe('𐐨s')
  })

  test('gives a repeated astral character one placeholder, so it can be a double consonant', () => {
    // 'a😀😀' ends in a double consonant (nltk: the emoji is not a vowel), which step 1b undoubles.
    expect(porterStem('a😀😀ed')).toBe('a😀')
  })

  test('keeps a private-use character of the word apart from the placeholder of an astral one', () => {
    expect(porterStem('\uE000😀s')).toBe('\uE000😀')
  })

  test('keeps a lone surrogate as it is, next to astral characters', () => {
    expect(porterStem('😀\uD800😁')).toBe('😀\uD800😁')
  })

  test('leaves non-ASCII letters in place and stems around them', () => {
    expect([porterStem('naïvely'), porterStem('crèmes')]).toEqual(['naïv', 'crème'])
  })
})

describe('porterStem: memoization', () => {
  const { CACHE_GENERATION_SIZE, cacheSizes, clearCache } = __testing

  test('remembers each new word in the young generation', () => {
    porterStem('running')
    porterStem('jumping')
    porterStem('running')
    expect(cacheSizes()).toEqual({ young: 2, old: 0 })
  })

  test('keeps filling the young generation up to its size, then starts a new one', () => {
    for (let i = 0; i < CACHE_GENERATION_SIZE; i++) porterStem(`word${i}ness`)
    expect(cacheSizes()).toEqual({ young: CACHE_GENERATION_SIZE, old: 0 })
    expect(porterStem('relational')).toBe('relat')
    expect(cacheSizes()).toEqual({ young: 1, old: CACHE_GENERATION_SIZE })
  })

  test('answers a word of a full young generation from it, without starting a new one', () => {
    for (let i = 0; i < CACHE_GENERATION_SIZE; i++) porterStem(`word${i}ness`)
    expect(porterStem('word0ness')).toBe('word0')
    expect(cacheSizes()).toEqual({ young: CACHE_GENERATION_SIZE, old: 0 })
  })

  test('moves a word found in the old generation into the young one', () => {
    for (let i = 0; i <= CACHE_GENERATION_SIZE; i++) porterStem(`word${i}ness`)
    expect(porterStem('word0ness')).toBe('word0')
    expect(cacheSizes()).toEqual({ young: 2, old: CACHE_GENERATION_SIZE })
  })

  test('clearCache empties both generations', () => {
    for (let i = 0; i <= CACHE_GENERATION_SIZE; i++) porterStem(`word${i}ness`)
    clearCache()
    expect(cacheSizes()).toEqual({ young: 0, old: 0 })
  })

  test('returns the same stem on a repeated call', () => {
    const first = porterStem('generalizations')
    expect(porterStem('generalizations')).toBe(first)
    expect(first).toBe('gener')
  })

  test('stays correct after more distinct words than the cache holds', () => {
    expect(porterStem('relational')).toBe('relat')
    // Far more words than the two 10,000-entry cache generations, so 'relational' is evicted.
    for (let i = 0; i < 30_000; i++) porterStem(`word${i}ness`)
    expect(porterStem(`word29999ness`)).toBe('word29999')
    expect(porterStem('relational')).toBe('relat')
  })
})
