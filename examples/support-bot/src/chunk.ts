import type { HandbookSection } from './handbook.js'

/** A piece of a handbook section small enough to embed and to quote in the prompt. */
export interface Chunk {
  /** `<section id>#<n>`. */
  id: string
  sectionId: string
  /** What gets embedded and shown to the model: the section title, then the sentences. */
  text: string
}

/** Sentences of a paragraph: split after `.`, `?` or `!` followed by a space (the handbook has no abbreviations). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.?!])\s+(?=[A-Z"])/)
    .map((s) => s.trim())
    .filter(Boolean)
}

/**
 * Splits every section into chunks of whole sentences, at most `maxWords` words each (a sentence longer
 * than that is a chunk on its own). Each chunk starts with its section title, so that a chunk read on
 * its own still says what it is about, which helps both retrieval and the model.
 */
export function chunkHandbook(sections: readonly HandbookSection[], maxWords = 45): Chunk[] {
  const chunks: Chunk[] = []
  for (const section of sections) {
    let current: string[] = []
    let words = 0
    const flush = () => {
      if (current.length === 0) return
      chunks.push({
        id: `${section.id}#${chunks.filter((c) => c.sectionId === section.id).length}`,
        sectionId: section.id,
        text: `${section.title}: ${current.join(' ')}`,
      })
      current = []
      words = 0
    }
    for (const sentence of sentences(section.text)) {
      const n = sentence.split(/\s+/).length
      if (words > 0 && words + n > maxWords) flush()
      current.push(sentence)
      words += n
    }
    flush()
  }
  return chunks
}
