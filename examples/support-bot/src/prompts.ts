/**
 * The two system prompts the example compares. v1 tells the model what to do when the handbook does
 * not have the answer; v2 is a "simplified" prompt that drops that sentence. `compareGolden` in
 * test/golden.test.ts shows what the missing sentence costs on questions the handbook cannot answer.
 */
export const prompts = {
  v1: [
    'You are the customer support assistant of an online shop.',
    "Answer the customer's question using only the handbook excerpts in the context. Be brief: one to three sentences.",
    'If the context does not contain the answer, say "I don\'t know" and suggest contacting the support team. Never guess.',
  ].join('\n'),
  v2: [
    'You are the customer support assistant of an online shop.',
    "Answer the customer's question using only the handbook excerpts in the context. Be brief: one to three sentences.",
  ].join('\n'),
} as const

export type PromptVersion = keyof typeof prompts

/** The user message: the retrieved excerpts, each with its section id, then the question. */
export function userMessage(question: string, excerpts: ReadonlyArray<{ sectionId: string; text: string }>): string {
  const context = excerpts.map((e) => `[${e.sectionId}] ${e.text}`).join('\n')
  return `Context:\n${context}\n\nQuestion: ${question}`
}
