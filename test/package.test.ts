// The package as `npm pack` / `npm publish` build it from a checkout.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'

const root = new URL('..', import.meta.url)
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

test('npm pack in a checkout without dist/ builds first, so the tarball holds dist/', () => {
  // This package.json with its lifecycle scripts as they are, except that `build` writes a marker file
  // instead of running tsup (a minute on CI machines): what is under test is that packing runs it.
  const dir = mkdtempSync(join(tmpdir(), 'expect-llm-pack-'))
  dirs.push(dir)
  const build = "node -e \"require('fs').mkdirSync('dist',{recursive:true});require('fs').writeFileSync('dist/index.js','')\""
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, scripts: { ...pkg.scripts, build } }))
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  })
  const files = (JSON.parse(out.slice(out.indexOf('['))) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path)
  expect(files).toContain('dist/index.js')
})
