// `npm run bench`: every benchmark of the project, each printing ratios measured in this one run.
// Pass suite names to run only some: `npm run bench -- lexical replay`.
const suites = {
  lexical: () => import('./lexical.js'),
  metrics: () => import('./metrics.js'),
  replay: () => import('./replay.js'),
  model: () => import('./model.js'),
  golden: () => import('./golden.js'),
  report: () => import('./report.js'),
  mutation: () => import('./mutation.js'),
} satisfies Record<string, () => Promise<{ run: () => Promise<void> }>>

const wanted = process.argv.slice(2)
for (const name of wanted) {
  if (!(name in suites)) throw new Error(`[expect-llm] Failed to run the benchmark: unknown suite "${name}". Suites: ${Object.keys(suites).join(', ')}.`)
}
for (const [name, load] of Object.entries(suites)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue
  console.log(`\n=== ${name} ===`)
  await (await load()).run()
}
