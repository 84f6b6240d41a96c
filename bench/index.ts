// `npm run bench`: every benchmark of the project, each printing ratios measured in this one run.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const suites = ['lexical', 'replay']
for (const name of suites) {
  const file = fileURLToPath(new URL(`./${name}.ts`, import.meta.url))
  if (!existsSync(file)) continue
  console.log(`\n=== ${name} ===`)
  const mod = (await import(file)) as { run: () => Promise<void> }
  await mod.run()
}
