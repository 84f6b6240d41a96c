// sacrebleu 2.6.0's own unit tests (mjpost/sacrebleu, test/*.py at f615c72), ported case by case with
// their inputs, expected values and tolerances. sacrebleu takes reference *streams* (one list per
// reference, aligned with the hypotheses); the library takes the references of each segment, so
// `segments(streams)` transposes them. Scores are compared on sacrebleu's 0-100 scale.
// Not ported: test_api.py and test_dataset.py (sacrebleu's test-set downloads) and test_significance.py
// (paired significance tests between systems): the library has neither.
import { describe, expect, test } from 'vitest'
import { bleuFromStatistics, corpusBleu, corpusBleuDetails, bleu, type BleuOptions } from '../../../src/metrics/bleu.js'
import { chrF, corpusChrF } from '../../../src/metrics/chrf.js'
import { corpusTer, terTokenize, type TerOptions } from '../../../src/metrics/ter.js'

/** sacrebleu's reference streams -> the references of each segment. */
const segments = (streams: string[][]): string[][] => (streams[0] ?? []).map((_, i) => streams.map((s) => s[i] as string))
const within = (actual: number, expected: number, epsilon: number) => expect(Math.abs(actual - expected)).toBeLessThan(epsilon)

/** `sacrebleu.raw_corpus_bleu(h, r, smooth_value)`: no tokenization, floor smoothing, effective order. */
const rawCorpusBleu = (h: string[], r: string[][], smoothValue?: number) =>
  corpusBleuDetails(h, segments(r), { tokenize: 'none', smoothMethod: 'floor', effectiveOrder: true, ...(smoothValue === undefined ? {} : { smoothValue }) })

describe('test_bleu.py', () => {
  const EPSILON = 1e-8
  const refs = [
    ['The dog bit the man.', 'It was not unexpected.', 'The man bit him first.'],
    ['The dog had bit the man.', 'No one was surprised.', 'The man had bitten the dog.'],
  ]
  const hyps = ['The dog bit the man.', "It wasn't surprising.", 'The man had just bitten him.']

  test.each([
    [['this is a test', 'another test'], [['ref1', 'ref2']], 0.0],
    [['this is a test'], [['this is a test']], 1.0],
    [['this is a fest'], [['this is a test']], 0.223606797749979],
  ])('test_raw_bleu %#', (h, r, want) => {
    within(rawCorpusBleu(h, r, 0.01).score, want, EPSILON)
  })

  test.each([
    [hyps, {}, 48.530827],
    [['', '', ''], {}, 0.0],
    [hyps, { tokenize: 'none' }, 49.1919566],
    [hyps, { tokenize: '13a' }, 48.530827],
    [hyps, { tokenize: 'intl' }, 43.91623493],
    [hyps, { smoothMethod: 'none' }, 48.530827],
  ] as Array<[string[], BleuOptions, number]>)('test_corpus_bleu %#', (h, options, want) => {
    within(corpusBleu(h, segments(refs), options) * 100, want, EPSILON)
  })

  test.each([
    [['test'], [['a test']], 0.3678794411714425],
    [['a test'], [['a test']], 1.0],
    [['a little test'], [['a test']], 0.03218297948685433],
  ])('test_effective_order %#', (h, r, want) => {
    within(rawCorpusBleu(h, r, 0.01).score, want, EPSILON)
  })

  test('test_statistics', () => {
    const d = rawCorpusBleu(['am I am a character sequence'], [['I am a symbol string sequence a a']], 0.01)
    expect({ common: d.counts, total: d.totals }).toEqual({ common: [4, 2, 1, 0], total: [6, 5, 4, 3] })
  })

  test('test_scoring', () => {
    // BLEU.compute_bleu(common, total, sys_len, ref_len) with its default smooth_method='none'.
    const d = bleuFromStatistics({ counts: [9, 7, 5, 3], totals: [10, 8, 6, 4], sysLen: 11, refLen: 11 }, { smoothMethod: 'none' })
    within(d.score, 0.8375922397, EPSILON)
  })

  test('test_offset', () => {
    const h = ['am I am a character sequence']
    const r = [['I am a symbol string sequence a a']]
    within(rawCorpusBleu(h, r, 0.0).score, 0, EPSILON)
    within(rawCorpusBleu(h, r, undefined).score, 0.1555722182, EPSILON)
    within(rawCorpusBleu(h, r).score, 0.1555722182, EPSILON)
  })

  test.each([
    [[0, 0, 0, 0], [4, 4, 2, 1], 0, 1, 0.0],
    [[0, 0, 0, 0], [10, 11, 12, 0], 14, 10, 0.0],
    [[0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.0],
    [[6, 5, 4, 0], [6, 5, 4, 3], 6, 6, 0.0],
    [[0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.1],
    [[0, 0, 0, 0], [0, 0, 0, 0], 1, 5, 0.01],
  ])('test_degenerate_statistics %#', (counts, totals, sysLen, refLen, offset) => {
    const d = bleuFromStatistics({ counts, totals, sysLen, refLen }, { smoothMethod: 'floor', smoothValue: offset })
    expect(d.score).toBe(0)
  })

  test.each([
    [1, '77.65'],
    [2, '60.50'],
    [3, '53.93'],
    [4, '48.53'],
    [5, '46.14'],
    [6, '43.28'],
  ])('test_max_ngram_order %#', (order, want) => {
    expect((corpusBleu(hyps, segments(refs), { maxNgramOrder: order }) * 100).toFixed(2)).toBe(want)
  })
})

describe('test_sentence_bleu.py', () => {
  const EPSILON = 1e-3
  const REF = 'producţia de zahăr brut se exprimă în zahăr alb;'
  const SYS = 'Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;'
  const cases: Array<[BleuOptions['smoothMethod'], number | undefined, boolean, BleuOptions['tokenize'], number]> = [
    ['exp', undefined, false, '13a', 8.493],
    ['none', undefined, false, '13a', 0.0],
    ['floor', undefined, false, '13a', 4.51688],
    ['floor', 0.1, false, '13a', 4.51688],
    ['floor', 0.5, false, '13a', 10.1],
    ['add-k', undefined, false, '13a', 14.882],
    ['add-k', 1, false, '13a', 14.882],
    ['add-k', 2, false, '13a', 21.389],
    ['exp', undefined, false, 'none', 7.347],
    ['exp', undefined, false, 'intl', 8.493],
    ['exp', undefined, false, 'char', 40.8759],
    ['exp', undefined, true, 'char', 42.0267],
  ]
  const options = (
    smoothMethod: BleuOptions['smoothMethod'],
    smoothValue: number | undefined,
    lowercase: boolean,
    tokenize: BleuOptions['tokenize'],
  ): BleuOptions => ({
    smoothMethod,
    lowercase,
    tokenize,
    effectiveOrder: true,
    ...(smoothValue === undefined ? {} : { smoothValue }),
  })

  test.each(cases)('test_compat_sentence_bleu %#', (method, value, lowercase, tok, want) => {
    within(bleu(SYS, [REF], options(method, value, lowercase, tok)) * 100, want, EPSILON)
  })

  test.each(cases)('test_api_sentence_bleu %#', (method, value, lowercase, tok, want) => {
    within(bleu(SYS, [REF], options(method, value, lowercase, tok)) * 100, want, EPSILON)
  })

  test.each([
    ['exp', undefined],
    ['none', undefined],
    ['floor', undefined],
    ['floor', 0.1],
    ['add-k', undefined],
    ['add-k', 1],
  ] as Array<[BleuOptions['smoothMethod'], number | undefined]>)('test_api_sentence_bleu_zero %#', (method, value) => {
    within(bleu('this is a cat', ['okay thanks'], options(method, value, false, '13a')) * 100, 0, EPSILON)
  })
})

describe('test_chrf.py', () => {
  const EPSILON = 1e-4
  test.each([
    [['abcdefg'], ['hijklmnop'], 0.0],
    [['a'], ['b'], 0.0],
    [[''], ['b'], 0.0],
    [[''], ['ref'], 0.0],
    [[''], ['reference'], 0.0],
    [['aa'], ['ab'], 8.3333],
    [['a', 'b'], ['a', 'c'], 8.3333],
    [['a'], ['a'], 16.6667],
    [['a b c'], ['a b c'], 50.0],
    [['a b c'], ['abc'], 50.0],
    [
      [' risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists .'],
      ['risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists .'],
      63.36173,
    ],
    [
      [' Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. '],
      ['Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich.'],
      64.1302698,
    ],
    [['Niemand hat die Absicht, eine Mauer zu errichten'], ['Niemand hat die Absicht, eine Mauer zu errichten'], 100.0],
  ])('test_chrf %#', (h, r, want) => {
    within(corpusChrF(h, r, { charOrder: 6, wordOrder: 0, beta: 3, epsSmoothing: true }) * 100, want, EPSILON)
  })

  test.each([
    [['a'], ['a'], 100.0],
    [[''], ['reference'], 0.0],
    [['a b c'], ['a b c'], 100.0],
    [['a b c'], ['abc'], 100.0],
    [[''], ['c'], 0.0],
    [['a', 'b'], ['a', 'c'], 50.0],
    [['aa'], ['ab'], 25.0],
  ])('test_chrf_eff_order %#', (h, r, want) => {
    within(corpusChrF(h, r, { charOrder: 6, wordOrder: 0, beta: 3, epsSmoothing: false }) * 100, want, EPSILON)
  })

  test.each([
    [
      ['Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich.'],
      ['Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich.'],
      67.3481606,
    ],
    [
      ['risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists .'],
      ['risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists .'],
      65.2414427,
    ],
  ])('test_chrf_keep_whitespace %#', (h, r, want) => {
    // corpus_chrf(remove_whitespace=False) is CHRF(whitespace=True).
    within(corpusChrF(h, r, { charOrder: 6, wordOrder: 0, beta: 3, whitespace: true }) * 100, want, EPSILON)
  })

  test.each([
    [
      'Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.',
      ['Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře.'],
      39.14078509,
    ],
    [
      'Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.',
      ['A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři.'],
      31.22557079,
    ],
    [
      'Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.',
      ['Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli.'],
      57.15704367,
    ],
  ])('test_chrf_sentence_level %#', (h, r, want) => {
    within(chrF(h, r, { epsSmoothing: true }) * 100, want, EPSILON)
  })
})

describe('test_ter.py', () => {
  const EPSILON = 1e-3
  test.each([
    [['aaaa bbbb cccc dddd'], ['aaaa bbbb cccc dddd'], 0],
    [['dddd eeee ffff'], ['aaaa bbbb cccc'], 1],
    [[''], ['a'], 1],
    [['a'], [''], 1],
    [[''], [''], 0],
    [['d e f g h a b c'], ['a b c d e f g h'], 1 / 8],
    [
      [
        'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , damit das Bild ungefähr dieselbe Größe aufweist wie die andere Größe .',
        'wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
        'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und geben Sie Werte für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " ein .',
        'Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne enthält .',
        'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "',
      ],
      [
        'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , damit die Darstellung des Bildes in einer anderen Größe beibehalten wird .',
        'wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
        'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und geben Sie für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " niedrigere Werte ein .',
        'Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich über die Bühne bewegt .',
        'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "',
      ],
      0.136,
    ],
  ])('test_ter %#', (h, r, want) => {
    within(corpusTer(h, r) * 100, 100 * want, EPSILON)
  })
})

describe('test_tokenizer_ter.py', () => {
  const tercom = (input: string, options: TerOptions) => terTokenize(input, { caseSensitive: false, ...options }).join(' ')
  test.each([
    ['a b c d', 'a b c d'],
    ['', ''],
    ['a b c d.', 'a b c d.'],
    ['A B C D.', 'a b c d.'],
  ])('test_ter_tokenizer_default %#', (input, want) => {
    expect(tercom(input, {})).toBe(want)
  })

  test.each([
    ['a b c d.', 'a b c d'],
    ['A ; B ) C : D.', 'a b c d'],
  ])('test_ter_tokenizer_nopunct %#', (input, want) => {
    expect(tercom(input, { noPunct: true })).toBe(want)
  })

  test.each([
    ['a b (c) d.', 'a b ( c ) d .'],
    ["Jim's car.", "jim 's car ."],
    ['4.2', '4.2'],
  ])('test_ter_tokenizer_norm %#', (input, want) => {
    expect(tercom(input, { normalized: true })).toBe(want)
  })

  test.each([
    ['美众院公布对特', '美 众 院 公 布 对 特'],
    ['りの拳銃を持', 'りの 拳 銃 を 持'],
  ])('test_ter_tokenizer_asian %#', (input, want) => {
    expect(tercom(input, { normalized: true, asianSupport: true })).toBe(want)
  })
})
