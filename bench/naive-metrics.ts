// Straightforward implementations of chrF, TER and GLEU: the baselines of the metric benchmarks, and
// oracles for the property tests (same results, written as directly as the Python they follow).
// - chrF: character n-grams as substrings of the code-point array, one Map per order, per reference.
// - TER: sacrebleu's lib_ter read line by line: for every shift candidate the whole banded edit
//   distance table is recomputed (sacrebleu's own prefix cache is left out too).
// - GLEU: NLTK's everygrams as joined strings.
import { pySplit } from '../src/metrics/text.js'

const ngrams = (items: string[], n: number, sep: string): Map<string, number> => {
  const m = new Map<string, number>()
  for (let i = 0; i + n <= items.length; i++) {
    const key = items.slice(i, i + n).join(sep)
    m.set(key, (m.get(key) ?? 0) + 1)
  }
  return m
}

/** sacrebleu sentence chrF (defaults: char order 6, beta 2, whitespace removed, effective order), / 100. */
export function naiveChrF(candidate: string, references: string[]): number {
  const chars = (s: string) => Array.from(pySplit(s).join(''))
  const hyp = chars(candidate)
  let best = -1
  for (const reference of references) {
    const ref = chars(reference)
    let precision = 0
    let recall = 0
    let orders = 0
    for (let n = 1; n <= 6; n++) {
      const h = ngrams(hyp, n, '')
      const r = ngrams(ref, n, '')
      let hTotal = 0
      let rTotal = 0
      let match = 0
      for (const [k, c] of h) {
        hTotal += c
        match += Math.min(c, r.get(k) ?? 0)
      }
      for (const c of r.values()) rTotal += c
      if (r.size === 0) hTotal = 0
      if (hTotal > 0 && rTotal > 0) {
        precision += match / hTotal
        recall += match / rTotal
        orders++
      }
    }
    if (orders > 0) {
      precision /= orders
      recall /= orders
    }
    const f = precision + recall ? (5 * precision * recall) / (4 * precision + recall) : 0
    if (f > best) best = f
  }
  return best
}

const INF = 1e16

/** sacrebleu's BeamEditDistance without the cache: (distance, trace). */
function beamEditDistance(hyp: string[], ref: string[]): [number, string] {
  const n = hyp.length
  const m = ref.length
  const dist: Array<Array<[number, string]>> = [Array.from({ length: m + 1 }, (_, j) => [j, 'i'] as [number, string])]
  for (let i = 0; i < n; i++) dist.push(Array.from({ length: m + 1 }, () => [INF, 'x'] as [number, string]))
  const ratio = n > 0 ? m / n : 1
  const beam = 25 < ratio / 2 ? Math.ceil(ratio / 2 + 25) : 25
  for (let i = 1; i <= n; i++) {
    const diagonal = Math.floor(i * ratio)
    const minJ = Math.max(0, diagonal - beam)
    const maxJ = i === n ? m + 1 : Math.min(m + 1, diagonal + beam)
    for (let j = minJ; j < maxJ; j++) {
      const row = dist[i]!
      if (j === 0) {
        row[0] = [dist[i - 1]![0]![0] + 1, 'd']
        continue
      }
      const sub = hyp[i - 1] === ref[j - 1] ? 0 : 1
      const ops: Array<[number, string]> = [
        [dist[i - 1]![j - 1]![0] + sub, sub === 0 ? ' ' : 's'],
        [dist[i - 1]![j]![0] + 1, 'd'],
        [row[j - 1]![0] + 1, 'i'],
      ]
      for (const op of ops) if (row[j]![0] > op[0]) row[j] = op
    }
  }
  let trace = ''
  let i = n
  let j = m
  while (i > 0 || j > 0) {
    const op = dist[i]![j]![1]
    trace = op + trace
    if (op === ' ' || op === 's') {
      i--
      j--
    } else if (op === 'i') j--
    else if (op === 'd') i--
    else throw new Error(`unknown operation ${op}`)
  }
  return [dist[n]![m]![0], trace]
}

function shift(words: string[], ref: string[], checked: number): [number, string[], number] {
  const [pre, inv] = beamEditDistance(words, ref)
  const trace = inv.replace(/[id]/g, (c) => (c === 'i' ? 'd' : 'i'))
  let ph = -1
  let pr = -1
  const hypErr: number[] = []
  const refErr: number[] = []
  const align = new Map<number, number>()
  for (const op of trace) {
    if (op === ' ' || op === 's') {
      ph++
      pr++
      align.set(pr, ph)
      hypErr.push(op === 's' ? 1 : 0)
      refErr.push(op === 's' ? 1 : 0)
    } else if (op === 'i') {
      ph++
      hypErr.push(1)
    } else {
      pr++
      align.set(pr, ph)
      refErr.push(1)
    }
  }
  let best: [number, number, number, number, string[]] | undefined
  const sum = (a: number[], from: number, to: number) => a.slice(from, to).reduce((s, x) => s + x, 0)
  outer: for (let sh = 0; sh < words.length; sh++) {
    for (let sr = 0; sr < ref.length; sr++) {
      if (Math.abs(sr - sh) > 50) continue
      let length = 0
      while (words[sh + length] === ref[sr + length] && length < 10) {
        length++
        if (sum(hypErr, sh, sh + length) !== 0 && sum(refErr, sr, sr + length) !== 0 && !(sh <= align.get(sr)! && align.get(sr)! < sh + length)) {
          let prev = -1
          for (let off = -1; off < length; off++) {
            let idx: number
            if (sr + off === -1) idx = 0
            else if (align.has(sr + off)) idx = align.get(sr + off)! + 1
            else break
            if (idx === prev) continue
            prev = idx
            const moved = words.slice(sh, sh + length)
            const shifted =
              idx < sh
                ? [...words.slice(0, idx), ...moved, ...words.slice(idx, sh), ...words.slice(sh + length)]
                : idx > sh + length
                  ? [...words.slice(0, sh), ...words.slice(sh + length, idx), ...moved, ...words.slice(idx)]
                  : [...words.slice(0, sh), ...words.slice(sh + length, length + idx), ...moved, ...words.slice(length + idx)]
            const cand: [number, number, number, number, string[]] = [pre - beamEditDistance(shifted, ref)[0], length, -sh, -idx, shifted]
            checked++
            if (!best || cand[0] > best[0] || (cand[0] === best[0] && (cand[1] > best[1] || (cand[1] === best[1] && (cand[2] > best[2] || (cand[2] === best[2] && cand[3] > best[3])))))) best = cand
          }
          if (checked >= 1000) break outer
        }
        if (words.length === sh + length || ref.length === sr + length) break
      }
    }
  }
  return best ? [best[0], best[4], checked] : [0, words, checked]
}

/** sacrebleu's translation_edit_rate: (edits, reference length). */
export function naiveTerEdits(hyp: string[], ref: string[]): number {
  if (ref.length === 0) return hyp.length
  let words = hyp
  let shifts = 0
  let checked = 0
  for (;;) {
    const [delta, next, c] = shift(words, ref, checked)
    checked = c
    if (checked >= 1000 || delta <= 0) break
    shifts++
    words = next
  }
  return shifts + beamEditDistance(words, ref)[0]
}

/** sacrebleu sentence TER with the default options (lower-cased, split on whitespace), / 100. */
export function naiveTer(candidate: string, reference: string): number {
  const hyp = pySplit(candidate.toLowerCase())
  const ref = pySplit(reference.toLowerCase())
  const edits = naiveTerEdits(hyp, ref)
  return ref.length > 0 ? edits / ref.length : edits > 0 ? 1 : 0
}

/** NLTK sentence_gleu([reference.split()], candidate.split()). */
export function naiveGleu(candidate: string, reference: string): number {
  const every = (tokens: string[]) => {
    const m = new Map<string, number>()
    for (let n = 1; n <= 4; n++) for (const [k, c] of ngrams(tokens, n, ' ')) m.set(`${n}:${k}`, c)
    return m
  }
  const h = every(pySplit(candidate))
  const r = every(pySplit(reference))
  let tp = 0
  let hTotal = 0
  let rTotal = 0
  for (const [k, c] of h) {
    hTotal += c
    tp += Math.min(c, r.get(k) ?? 0)
  }
  for (const c of r.values()) rTotal += c
  const all = Math.max(hTotal, rTotal)
  return all > 0 ? tp / all : 0
}
