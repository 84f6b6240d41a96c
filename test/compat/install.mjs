// Installs the older majors we support but do not develop against (msw 2, Vitest 4.1) into
// node_modules/.cache/expect-llm-compat, so that the compat checks can run against them without
// adding them to this repository's dependency tree. Idempotent: skips when the versions are there.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
export const compatDir = join(root, 'node_modules/.cache/expect-llm-compat')
const wanted = { msw: '2.15.0', vitest: '4.1.12' }

const installed = (name) => {
  try {
    return JSON.parse(readFileSync(join(compatDir, 'node_modules', name, 'package.json'), 'utf8')).version
  } catch {
    return undefined
  }
}

if (Object.entries(wanted).some(([name, version]) => installed(name) !== version)) {
  mkdirSync(compatDir, { recursive: true })
  if (!existsSync(join(compatDir, 'package.json'))) writeFileSync(join(compatDir, 'package.json'), '{ "private": true }\n')
  const specs = Object.entries(wanted).map(([name, version]) => `${name}@${version}`)
  console.log(`[compat] installing ${specs.join(', ')} into ${compatDir}`)
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', compatDir, ...specs], { stdio: 'inherit' })
}
for (const [name, version] of Object.entries(wanted)) {
  if (installed(name) !== version) throw new Error(`[compat] ${name}@${version} is not installed in ${compatDir}`)
}
console.log(`[compat] msw ${installed('msw')}, vitest ${installed('vitest')} ready`)
