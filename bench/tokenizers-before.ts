// The ROUGE, SQuAD and BLEU (13a) tokenizers as they were before issue 11's speed work: regex chains
// over the whole text (replace, then split). Kept here, unchanged, as the "before" side of the
// tokenizer throughput benchmark; the bench checks that both sides return the same tokens.
import { porterStem } from '../src/metrics/porter.js'
import { pyRstrip, pySplit } from '../src/metrics/text.js'

const NON_ASCII_ALNUM_RUN = /[^a-z0-9]+/g
const NON_WORD_RUN = /[^\p{L}\p{M}\p{N}]+/gu
const ASCII_TOKEN = /^[a-z0-9]+$/
const CJK = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}'
const HAS_CJK = new RegExp(`[${CJK}]`, 'u')
const CJK_PIECE = new RegExp(`[${CJK}][\\p{M}\\uFF9E\\uFF9F]*|[^${CJK}]+`, 'gu')

const stemLong = (token: string, stemmer: boolean): string => (stemmer && token.length > 3 ? porterStem(token) : token)

/** rougeTokenize(text, { tokenizer: 'rouge-score' }) before. */
export function rougeScoreTokensBefore(text: string, stemmer = false): string[] {
  const out: string[] = []
  for (const piece of text.toLowerCase().replace(NON_ASCII_ALNUM_RUN, ' ').split(' ')) {
    if (piece.length === 0) continue
    const token = stemLong(piece, stemmer)
    if (ASCII_TOKEN.test(token)) out.push(token)
  }
  return out
}

/** rougeTokenize(text) (the 'unicode' tokenizer) before. */
export function rougeUnicodeTokensBefore(text: string, stemmer = false): string[] {
  const out: string[] = []
  for (const piece of text.toLowerCase().replace(NON_WORD_RUN, ' ').split(' ')) {
    if (piece.length === 0) continue
    if (ASCII_TOKEN.test(piece)) {
      out.push(stemLong(piece, stemmer))
    } else if (HAS_CJK.test(piece)) {
      for (const match of piece.matchAll(CJK_PIECE)) {
        const sub = match[0]
        out.push(ASCII_TOKEN.test(sub) ? stemLong(sub, stemmer) : sub)
      }
    } else {
      out.push(piece)
    }
  }
  return out
}

const ASCII_PUNCTUATION = /[!-\/:-@\[-`{-~]/g
const ARTICLES = /(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu

/** squadTokens(text) before. */
export function squadTokensBefore(text: string): string[] {
  return pySplit(text.toLowerCase().replace(ASCII_PUNCTUATION, '').replace(ARTICLES, ' '))
}

const SPLIT_SYMBOLS = /([\x20-\x26\x28-\x2B\x2F\x3A-\x40\x5B-\x60\x7B-\x7E])/gu
const SPLIT_PERIOD_COMMA_AFTER = /([^0-9])([.,])/gu
const SPLIT_PERIOD_COMMA_BEFORE = /([.,])([^0-9])/gu
const SPLIT_DASH_AFTER_DIGIT = /([0-9])(-)/gu

/** tokenize13a(text) before. */
export function tokenize13aBefore(text: string): string[] {
  let line = pyRstrip(text)
  line = line.replaceAll('<skipped>', '').replaceAll('-\n', '').replaceAll('\n', ' ')
  if (line.includes('&')) {
    line = line.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>')
  }
  line = ` ${line} `
    .replace(SPLIT_SYMBOLS, ' $1 ')
    .replace(SPLIT_PERIOD_COMMA_AFTER, '$1 $2 ')
    .replace(SPLIT_PERIOD_COMMA_BEFORE, ' $1 $2')
    .replace(SPLIT_DASH_AFTER_DIGIT, '$1 $2 ')
  return pySplit(line)
}
