// `npm run docs:report-screenshot`: runs the support-bot demo (replayed, offline), which writes
// .expect-llm/report.html, opens that page in headless Chromium (Debian's chromium, driven by
// playwright-core) and saves the README's screenshot of it, docs/report.png.
import { execFileSync } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'

const root = fileURLToPath(new URL('../..', import.meta.url))
execFileSync('npm', ['run', 'demo', '--silent'], { cwd: root, stdio: 'ignore' })
const executablePath = execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim().split('\n')[0]!
const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] })
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1500 }, colorScheme: 'light' })
  await page.goto(
    `${pathToFileURL(`${root}.expect-llm/report.html`).href}#suite=${encodeURIComponent(process.argv[2] ?? 'examples/support-bot/test/golden.test.ts#support-bot-prompt-v1')}`,
  )
  await page.waitForSelector('html[data-ready=true]')
  await page.screenshot({ path: `${root}docs/report.png` })
  console.log('wrote docs/report.png')
} finally {
  await browser.close()
}
