// Replays the client scenarios (scenarios.ts) from the fixtures recorded by clients.test.ts, in a process
// of its own that clients.test.ts starts with no network at all (`unshare -rn`, where available): every
// request must be answered by replay. Then runs them again with every prompt changed: each must fail at
// once, with a single request. Behind the replay handler, a sentinel catches any request that would leave.
//   replay-child.ts <root> <test file> <output json>      (MSW_DIR=<dir with msw 2> to use msw 2)
import { writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ReplayEngine } from '../../../src/replay/engine.js'
import { createLlmReplay } from '../../../src/replay/handlers.js'
import { runAll, scenarios } from './scenarios.js'

const [root, testFile, outFile] = process.argv.slice(2) as [string, string, string]
const from = process.env.MSW_DIR ? createRequire(join(process.env.MSW_DIR, 'package.json')) : createRequire(import.meta.url)
const msw = await import(pathToFileURL(from.resolve('msw')).href)
const { setupServer } = await import(pathToFileURL(from.resolve('msw/node')).href)
const mswVersion = (from('msw/package.json') as { version: string }).version

process.env.EXPECT_LLM_REPLAY = 'replay'
const replay = createLlmReplay(msw, new ReplayEngine({ options: { rootDir: root, testPath: () => testFile } }))
const escaped: string[] = []
const sentinel = msw.http.all('*', ({ request }: { request: Request }) => {
  // msw 2 also shows data: URLs (a client probing fetch) to handlers: only the network counts.
  if (!/^https?:/.test(request.url)) return undefined
  escaped.push(`${request.method} ${request.url}`)
  return new Response('{"error":{"message":"sentinel"}}', { status: 404, headers: { 'content-type': 'application/json', 'x-should-retry': 'false' } })
})
const server = setupServer(...replay.handlers, sentinel)
server.listen({ onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' })
const handled = () => replay.engine.handled
const replayed = await runAll(scenarios(), handled)
const replayProblems = replay.takeProblems().map((p) => p.message)
const misses = await runAll(scenarios(' (changed)'), handled)
const missProblems = replay.takeProblems().map((p) => ({ kind: p.kind, headline: p.message.split('\n')[0] }))
server.close()
await writeFile(outFile, JSON.stringify({ mswVersion, replayed, replayProblems, misses, missProblems, escaped }))
// LangChain and the AI SDK may keep sockets or timers alive; the results are written.
process.exit(0)
