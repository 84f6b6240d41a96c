// Runs a test body without the replay session test/setup.ts starts (it stands in a placeholder API key), and
// puts the session back after, so a test can check what happens when no key and no session are there.

/** Runs `body` with no replay session registered, then restores the one there was. */
export async function withoutReplaySession<T>(body: () => Promise<T>): Promise<T> {
  const key = Symbol.for('expect-llm.replay-session')
  const g = globalThis as Record<symbol, unknown>
  const session = g[key]
  delete g[key]
  try {
    return await body()
  } finally {
    if (session !== undefined) g[key] = session
  }
}
