// Straightforward implementations of chrF, TER and GLEU: the baselines of the metric benchmarks, and
// oracles for the property tests (same results, written as directly as the Python they follow).
// - chrF: character n-grams as substrings of the code-point array, one Map per order, per reference.
// - TER: sacrebleu's lib_ter read line by line: for every shift candidate the whole banded edit
//   distance table is recomputed (sacrebleu's own prefix cache is left out too; rows keep only
//   their band, where sacrebleu copies full-width rows, which would be far slower still).
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

/** [candidate n-grams, reference n-grams, clipped matches]. */
function overlap(h: Map<string, number>, r: Map<string, number>): [number, number, number] {
  let hTotal = 0
  let rTotal = 0
  let match = 0
  for (const [k, c] of h) {
    hTotal += c
    match += Math.min(c, r.get(k) ?? 0)
  }
  for (const c of r.values()) rTotal += c
  return [hTotal, rTotal, match]
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
      const r = ngrams(ref, n, '')
      let [hTotal, rTotal, match] = overlap(ngrams(hyp, n, ''), r)
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

const OPS = ' sdix' // nop, sub, del, ins, undefined

/**
 * sacrebleu's BeamEditDistance without the cache: (distance, trace). Each row keeps only its band
 * (cells outside read as infinite), and the whole table is recomputed for every call.
 */
function beamEditDistance(hyp: string[], ref: string[]): [number, string] {
  const n = hyp.length
  const m = ref.length
  const ratio = n > 0 ? m / n : 1
  const beam = 25 < ratio / 2 ? Math.ceil(ratio / 2 + 25) : 25
  const lo: number[] = [0]
  const cost: Float64Array[] = [Float64Array.from({ length: m + 1 }, (_, j) => j)]
  const op: Uint8Array[] = [new Uint8Array(m + 1).fill(3)]
  const at = (i: number, j: number) => (j >= lo[i]! && j - lo[i]! < cost[i]!.length ? cost[i]![j - lo[i]!]! : INF)
  for (let i = 1; i <= n; i++) {
    const diagonal = Math.floor(i * ratio)
    const minJ = Math.max(0, diagonal - beam)
    const maxJ = i === n ? m + 1 : Math.min(m + 1, diagonal + beam)
    lo.push(minJ)
    const row = new Float64Array(Math.max(0, maxJ - minJ)).fill(INF)
    const ops = new Uint8Array(row.length).fill(4)
    cost.push(row)
    op.push(ops)
    for (let j = minJ; j < maxJ; j++) {
      const k = j - minJ
      if (j === 0) {
        row[k] = at(i - 1, 0) + 1
        ops[k] = 2
        continue
      }
      const sub = hyp[i - 1] === ref[j - 1] ? 0 : 1
      // Tercom's preference: no-op/substitution, then deletion, then insertion.
      const diagonal = at(i - 1, j - 1) + sub
      const up = at(i - 1, j) + 1
      const left = (k > 0 ? row[k - 1]! : INF) + 1
      if (row[k]! > diagonal) {
        row[k] = diagonal
        ops[k] = sub
      }
      if (row[k]! > up) {
        row[k] = up
        ops[k] = 2
      }
      if (row[k]! > left) {
        row[k] = left
        ops[k] = 3
      }
    }
  }
  let trace = ''
  let i = n
  let j = m
  while (i > 0 || j > 0) {
    const k = j - lo[i]!
    const o = OPS[k >= 0 && k < op[i]!.length ? op[i]![k]! : 4]!
    trace = o + trace
    if (o === ' ' || o === 's') {
      i--
      j--
    } else if (o === 'i') j--
    else if (o === 'd') i--
    else throw new Error(`unknown operation ${o}`)
  }
  return [at(n, m), trace]
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
            if (
              !best ||
              cand[0] > best[0] ||
              (cand[0] === best[0] && (cand[1] > best[1] || (cand[1] === best[1] && (cand[2] > best[2] || (cand[2] === best[2] && cand[3] > best[3])))))
            )
              best = cand
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
  const [hTotal, rTotal, tp] = overlap(every(pySplit(candidate)), every(pySplit(reference)))
  const all = Math.max(hTotal, rTotal)
  return all > 0 ? tp / all : 0
}
