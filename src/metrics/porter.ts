/**
 * NLTK's Porter stemmer (`nltk.stem.porter.PorterStemmer()` in its default mode `NLTK_EXTENSIONS`,
 * nltk 3.8), ported rule for rule from `nltk/stem/porter.py`.
 *
 * Why this is written by hand: rouge-score's `use_stemmer=True` calls exactly this stemmer, and ROUGE
 * values only reproduce rouge-score when every stem is NLTK's. The npm ports that were checked
 * (`stemmer`, `porterstem`, `porter-stemmer`, `en-stemmer`) implement Martin Porter's published
 * algorithm or his later C/ANSI variant. None has NLTK's irregular-forms table (`dying` -> `die`,
 * `skies` -> `sky`, `innings` -> `inning`, ...), its 4-letter `ies`/`ied` rules (`ties` -> `tie`),
 * its step 1c condition (`enjoy` stays, `dry` -> `dri`), the `alli` re-run of step 2, `fulli` -> `ful`,
 * or its `*o` extension for 2-letter stems, so each gives different stems for some words.
 *
 * The structure below mirrors nltk's methods (`_step1a`, `_apply_rule_list`, ...) so the two can be
 * compared line by line. Only the NLTK_EXTENSIONS branches are kept.
 *
 * @module
 */

/** A suffix rule: `[suffix, replacement, condition on the stem that remains]`, as in nltk. */
type Rule = readonly [suffix: string, replacement: string, condition: ((stem: string) => boolean) | null]

/** nltk's table of irregular forms: the word on the left maps straight to the stem on the right. */
const IRREGULAR_FORMS: ReadonlyMap<string, string> = new Map([
  ['sky', 'sky'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['news', 'news'],
  ['innings', 'inning'],
  ['inning', 'inning'],
  ['outings', 'outing'],
  ['outing', 'outing'],
  ['cannings', 'canning'],
  ['canning', 'canning'],
  ['howe', 'howe'],
  ['proceed', 'proceed'],
  ['exceed', 'exceed'],
  ['succeed', 'succeed'],
])

/** `_is_consonant`: a letter other than a, e, i, o, u, and other than a `y` preceded by a consonant. */
function isConsonant(word: string, i: number): boolean {
  // Iterative form of nltk's recursion: a run of y's alternates consonant/vowel, starting from the
  // first letter before the run (a y at index 0 is a consonant). `flipped`: an odd number of y's was
  // walked back over, so the answer is the opposite of the letter reached.
  let ch = word[i]
  let flipped = false
  while (ch === 'y') {
    if (i === 0) return !flipped
    flipped = !flipped
    i--
    ch = word[i]
  }
  const consonant = !(ch === 'a' || ch === 'e' || ch === 'i' || ch === 'o' || ch === 'u')
  return flipped ? !consonant : consonant
}

/** `_measure`: the number of vowel-consonant transitions (`m` in `[C](VC){m}[V]`). */
function measure(stem: string): number {
  let m = 0
  let previousIsVowel = false
  for (let i = 0; i < stem.length; i++) {
    const consonant = isConsonant(stem, i)
    if (consonant && previousIsVowel) m++
    previousIsVowel = !consonant
  }
  return m
}

function hasPositiveMeasure(stem: string): boolean {
  return measure(stem) > 0
}

function measureGreaterThanOne(stem: string): boolean {
  return measure(stem) > 1
}

/** `_contains_vowel` */
function containsVowel(stem: string): boolean {
  // `!==` rather than `<`: no copy of the stem on this hot path, and no `<=` mutant reading one past the end.
  for (let i = 0; i !== stem.length; i++) {
    if (!isConsonant(stem, i)) return true
  }
  return false
}

/**
 * `_ends_double_consonant` (condition `*d`). nltk also checks `len(word) >= 2`; here a 1-letter word
 * fails the comparison (`word[-1]` is undefined), and the only caller passes a stem with a vowel, so
 * never an empty one.
 */
function endsDoubleConsonant(word: string): boolean {
  const n = word.length
  return word[n - 1] === word[n - 2] && isConsonant(word, n - 1)
}

/**
 * `_ends_cvc` (condition `*o`): consonant-vowel-consonant where the last consonant is not w, x or y,
 * or (NLTK extension) a 2-letter vowel-consonant word. Both callers test it on a stem with m = 1, so
 * the word has at least 2 letters (a vowel-consonant pair when it has 2), and nltk's `len(word) >= 3` is the case that is not 2.
 */
function endsCvc(word: string): boolean {
  const n = word.length
  // nltk's 2-letter case asks for vowel-consonant, which a 2-letter stem with m = 1 (both callers' case) always is.
  if (n === 2) return true
  const last = word[n - 1]
  return isConsonant(word, n - 3) && !isConsonant(word, n - 2) && isConsonant(word, n - 1) && last !== 'w' && last !== 'x' && last !== 'y'
}

/**
 * `_apply_rule_list`: applies the first rule whose suffix matches. If that rule's condition fails, the
 * word is returned unchanged and no later rule is tried. (nltk's pseudo-suffix `*d` is used by step 1b
 * only, which is written out below, so no rule list here has it.)
 */
function applyRuleList(word: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, -suffix.length) // every suffix has at least one letter
      return condition === null || condition(stem) ? stem + replacement : word
    }
  }
  return word
}

const STEP1A_RULES: readonly Rule[] = [
  ['sses', 'ss', null],
  ['ies', 'i', null],
  ['ss', 'ss', null],
  ['s', '', null],
]

function step1a(word: string): string {
  // NLTK: 'flies' -> 'fli' but 'dies' -> 'die'.
  if (word.length === 4 && word.endsWith('ies')) return `${word.slice(0, -3)}ie`
  return applyRuleList(word, STEP1A_RULES)
}

function step1b(word: string): string {
  // NLTK: 'spied' -> 'spi' but 'died' -> 'die'.
  if (word.endsWith('ied')) return `${word.slice(0, -3)}${word.length === 4 ? 'ie' : 'i'}`

  if (word.endsWith('eed')) {
    const stem = word.slice(0, -3)
    return measure(stem) > 0 ? `${stem}ee` : word
  }

  let intermediate: string | null = null
  for (const suffix of ['ed', 'ing']) {
    if (word.endsWith(suffix)) {
      const candidate = word.slice(0, -suffix.length)
      if (containsVowel(candidate)) {
        intermediate = candidate
        break
      }
    }
  }
  if (intermediate === null) return word

  // nltk applies this rule list to the intermediate stem:
  //   at -> ate, bl -> ble, iz -> ize,
  //   (*d and not (*L or *S or *Z)) -> single letter,
  //   (m=1 and *o) -> e
  // written out here because the `*d` rule's replacement depends on the stem.
  if (intermediate.endsWith('at') || intermediate.endsWith('bl') || intermediate.endsWith('iz')) return `${intermediate}e`
  if (endsDoubleConsonant(intermediate)) {
    const last = intermediate[intermediate.length - 1]
    return last === 'l' || last === 's' || last === 'z' ? intermediate : intermediate.slice(0, -1)
  }
  return measure(intermediate) === 1 && endsCvc(intermediate) ? `${intermediate}e` : intermediate
}

const STEP1C_RULES: readonly Rule[] = [
  // NLTK: y -> i only after a consonant that is not the whole stem ('happy' -> 'happi', 'enjoy' stays).
  ['y', 'i', (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)],
]

function step1c(word: string): string {
  return applyRuleList(word, STEP1C_RULES)
}

const STEP2_RULES: readonly Rule[] = [
  ['ational', 'ate', hasPositiveMeasure],
  ['tional', 'tion', hasPositiveMeasure],
  ['enci', 'ence', hasPositiveMeasure],
  ['anci', 'ance', hasPositiveMeasure],
  ['izer', 'ize', hasPositiveMeasure],
  ['bli', 'ble', hasPositiveMeasure], // NLTK departure: the published rule is 'abli' -> 'able'
  ['alli', 'al', hasPositiveMeasure],
  ['entli', 'ent', hasPositiveMeasure],
  ['eli', 'e', hasPositiveMeasure],
  ['ousli', 'ous', hasPositiveMeasure],
  ['ization', 'ize', hasPositiveMeasure],
  ['ation', 'ate', hasPositiveMeasure],
  ['ator', 'ate', hasPositiveMeasure],
  ['alism', 'al', hasPositiveMeasure],
  ['iveness', 'ive', hasPositiveMeasure],
  ['fulness', 'ful', hasPositiveMeasure],
  ['ousness', 'ous', hasPositiveMeasure],
  ['aliti', 'al', hasPositiveMeasure],
  ['iviti', 'ive', hasPositiveMeasure],
  ['biliti', 'ble', hasPositiveMeasure],
  ['fulli', 'ful', hasPositiveMeasure], // NLTK extension
  // NLTK extension: the 'l' of 'logi' -> 'log' stays with the stem, so nltk tests the measure of the
  // word minus 'ogi' (`word[:-3]`), i.e. the stem plus 'l': 'geo-logi' works like 'archaeo-logi'.
  ['logi', 'log', (stem) => hasPositiveMeasure(`${stem}l`)],
]

function step2(word: string): string {
  // NLTK: 'alli' -> 'al' is tried first and, when it applies, step 2 runs again on the result.
  if (word.endsWith('alli') && hasPositiveMeasure(word.slice(0, -4))) {
    return step2(`${word.slice(0, -4)}al`)
  }
  return applyRuleList(word, STEP2_RULES)
}

const STEP3_RULES: readonly Rule[] = [
  ['icate', 'ic', hasPositiveMeasure],
  ['ative', '', hasPositiveMeasure],
  ['alize', 'al', hasPositiveMeasure],
  ['iciti', 'ic', hasPositiveMeasure],
  ['ical', 'ic', hasPositiveMeasure],
  ['ful', '', hasPositiveMeasure],
  ['ness', '', hasPositiveMeasure],
]

const STEP4_RULES: readonly Rule[] = [
  ['al', '', measureGreaterThanOne],
  ['ance', '', measureGreaterThanOne],
  ['ence', '', measureGreaterThanOne],
  ['er', '', measureGreaterThanOne],
  ['ic', '', measureGreaterThanOne],
  ['able', '', measureGreaterThanOne],
  ['ible', '', measureGreaterThanOne],
  ['ant', '', measureGreaterThanOne],
  ['ement', '', measureGreaterThanOne],
  ['ment', '', measureGreaterThanOne],
  ['ent', '', measureGreaterThanOne],
  ['ion', '', (stem) => measure(stem) > 1 && (stem.endsWith('s') || stem.endsWith('t'))],
  ['ou', '', measureGreaterThanOne],
  ['ism', '', measureGreaterThanOne],
  ['ate', '', measureGreaterThanOne],
  ['iti', '', measureGreaterThanOne],
  ['ous', '', measureGreaterThanOne],
  ['ive', '', measureGreaterThanOne],
  ['ize', '', measureGreaterThanOne],
]

function step5a(word: string): string {
  // Both rules are tried (not `applyRuleList`): (m>1) E -> '' and (m=1 and not *o) E -> ''.
  if (word.endsWith('e')) {
    const stem = word.slice(0, -1)
    const m = measure(stem)
    if (m > 1) return stem
    if (m === 1 && !endsCvc(stem)) return stem
  }
  return word
}

// Step 5b: (m > 1 and *d and *L) -> single letter. nltk measures the word minus its last letter
// (`word[:-1]`), i.e. the stem plus 'l'.
const STEP5B_RULES: readonly Rule[] = [['ll', 'l', (stem) => measure(`${stem}l`) > 1]]

/** Steps 1a to 5b on an already lower-cased word whose characters are all single UTF-16 units. */
function runSteps(lower: string): string {
  let stem = step1a(lower)
  stem = step1b(stem)
  stem = step1c(stem)
  stem = step2(stem)
  stem = applyRuleList(stem, STEP3_RULES)
  stem = applyRuleList(stem, STEP4_RULES)
  stem = step5a(stem)
  stem = applyRuleList(stem, STEP5B_RULES)
  return stem
}

/** A surrogate pair: one astral code point. */
const ASTRAL = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g
/** The characters `runStepsOnCodePoints` may use as placeholders: from U+E000 (private use) up. */
const PLACEHOLDER = /[\uE000-\uFFFF]/g

/**
 * Python indexes strings by code point and JavaScript by UTF-16 unit. The steps only compare
 * characters with ASCII letters and with each other, so each astral code point is swapped for a
 * private-use BMP character that does not occur in the word, the steps run, and the swap is undone.
 * This keeps every length test (`== 4`, `len(stem) > 1`) equal to Python's. A word without astral
 * characters passes through both replacements unchanged (a lone surrogate is one character in both
 * languages, and any other character from U+E000 up maps to itself).
 */
function runStepsOnCodePoints(lower: string): string {
  const toPlaceholder = new Map<string, string>()
  const fromPlaceholder = new Map<string, string>()
  let next = 0xe000
  const mapped = lower.replace(ASTRAL, (ch) => {
    let placeholder = toPlaceholder.get(ch)
    if (placeholder === undefined) {
      do placeholder = String.fromCharCode(next++)
      while (lower.includes(placeholder))
      toPlaceholder.set(ch, placeholder)
      fromPlaceholder.set(placeholder, ch)
    }
    return placeholder
  })
  return runSteps(mapped).replace(PLACEHOLDER, (ch) => fromPlaceholder.get(ch) ?? ch)
}

/** nltk's `PorterStemmer.stem(word)` (with its default `to_lowercase=True`), uncached. */
function stemUncached(word: string): string {
  const lower = word.toLowerCase()
  // nltk looks the *original* word up in the table but returns the entry of the lower-cased one, so
  // 'Sky' misses the table and is stemmed like any other word ('ski'). Reproduced on purpose.
  const irregular = IRREGULAR_FORMS.get(word)
  if (irregular !== undefined) return irregular
  // nltk returns words of 1 or 2 characters (code points, counted before lower-casing) lower-cased only.
  if (Array.from(word).length <= 2) return lower
  return runStepsOnCodePoints(lower)
}

/**
 * Memo of stems in two generations of at most `CACHE_GENERATION_SIZE` entries each: lookups check the
 * young generation, then the old one (promoting hits); when the young one is full it becomes the old
 * one and the previous old one is dropped. This bounds memory at 2 generations and keeps every
 * operation O(1). (Evicting single entries with `map.keys().next()` was measured 10x slower: V8 walks
 * the deleted slots at the front of the map's table on every call.)
 */
const CACHE_GENERATION_SIZE = 10_000
let youngCache = new Map<string, string>()
let oldCache = new Map<string, string>()

function remember(word: string, stem: string): void {
  if (youngCache.size >= CACHE_GENERATION_SIZE) {
    oldCache = youngCache
    youngCache = new Map()
  }
  youngCache.set(word, stem)
}

/**
 * Stems one word exactly like nltk 3.8's `PorterStemmer().stem(word)` (mode `NLTK_EXTENSIONS`), which
 * is what rouge-score uses with `use_stemmer=True`.
 *
 * The word is lower-cased first (`String.prototype.toLowerCase`, as nltk does with `str.lower()`).
 * Words of 1 or 2 characters come back lower-cased but otherwise unchanged. Note that rouge-score
 * itself only stems tokens longer than 3 characters; that rule lives in the tokenizer, not here.
 * Results are memoized in a bounded cache.
 *
 * @example
 * ```ts
 * porterStem('running')     // 'run'
 * porterStem('tying')       // 'tie'   (NLTK irregular form)
 * porterStem('ties')        // 'tie'   (NLTK: 4-letter 'ies' -> 'ie')
 * porterStem('brightly')    // 'brightli'
 * porterStem('tranquility') // 'tranquil'
 * ```
 */
export function porterStem(word: string): string {
  const young = youngCache.get(word)
  if (young !== undefined) return young
  const old = oldCache.get(word)
  const stem = old ?? stemUncached(word)
  remember(word, stem)
  return stem
}

/**
 * Internals exposed for this package's own tests: the memo's state, and a way to empty it so that each
 * test stems its words afresh (a mutation run reuses one module across mutants, and a stem memoized
 * under one mutant would otherwise answer the tests of the next). Not part of the public API; do not
 * re-export.
 *
 * @internal
 */
export const __testing = {
  CACHE_GENERATION_SIZE,
  cacheSizes: (): { young: number; old: number } => ({ young: youngCache.size, old: oldCache.size }),
  clearCache: (): void => {
    youngCache = new Map()
    oldCache = new Map()
  },
}
