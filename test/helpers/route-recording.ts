/**
 * While recording only: sends the recorder's upstream requests for real provider origins
 * (`https://api.anthropic.com`, ...) to local scripted servers instead, so that fixtures are keyed exactly
 * like recordings of the hosted APIs and replay with the default configuration. expect-llm's recorder
 * forwards a request with msw's `bypass()`, which marks it with `accept: msw/passthrough`; only those are
 * rerouted (the same approach as examples/support-bot/scripted-model/setup.ts).
 */
const ROUTES = Symbol.for('expect-llm.test.recording-routes')

type Routes = Map<string, string>

/** Routes recorder requests for each `from` origin to the `to` origin, for this worker. Returns a function that removes them. */
export function routeRecording(routes: Record<string, string>): () => void {
  const g = globalThis as typeof globalThis & { [ROUTES]?: Routes }
  if (!g[ROUTES]) {
    const table: Routes = (g[ROUTES] = new Map())
    const realFetch = globalThis.fetch
    globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init)
      const url = new URL(request.url)
      const target = table.get(url.origin)
      if (!target || !(request.headers.get('accept') ?? '').includes('msw/passthrough')) return realFetch(request)
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
      return realFetch(`${target}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        ...(body ? { body } : {}),
        signal: request.signal,
      })
    }
  }
  const table = g[ROUTES]
  for (const [from, to] of Object.entries(routes)) table.set(from, to)
  return () => {
    for (const from of Object.keys(routes)) table.delete(from)
  }
}
