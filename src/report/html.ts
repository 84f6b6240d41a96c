/**
 * The HTML report: one self-contained static file. The page data is JSON, gzipped and base64-encoded
 * in a data block (so no text in it can close the block, and 5,000 cases with their answers stay a few
 * MB: answers compress about 4:1); the page's script inflates it with the browser's own
 * `DecompressionStream`. The script and the styles are inlined, and a Content Security Policy allows
 * exactly that script and that stylesheet (by hash) and no network at all: even text that got past the
 * escaping could not run or fetch anything.
 *
 * @module
 */
import { createHash } from 'node:crypto'
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { formatMessage } from '../errors.js'
import { CLIENT_SCRIPT } from './client/bundle.generated.js'
import type { PageData } from './page-types.js'

/** The report's stylesheet: system fonts, light and dark colours with at least 4.5:1 contrast for text. */
export const REPORT_CSS = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;--accent:#0b5cad;--good:#1a7f37;
--good-bg:#dafbe1;--bad:#b42318;--bad-bg:#ffebe9;--warn:#8a4b00;--warn-bg:#fff1d6;--s0:#0b5cad;--s1:#b35900;
--s2:#6b3fa0;--s3:#00796b;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#3d444d;--panel:#161b22;
--accent:#6cb6ff;--good:#57d364;--good-bg:#12361f;--bad:#ff7b72;--bad-bg:#4a1512;--warn:#e3b341;--warn-bg:#3b2a00;
--s0:#6cb6ff;--s1:#f0883e;--s2:#c297ff;--s3:#39c5bb}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5em 1em;z-index:2}.skip:focus{left:.5em}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
header{padding:1rem 1.5rem;border-bottom:1px solid var(--line)}header h1{margin:0;font-size:1.4rem}header p{margin:.25rem 0 0;color:var(--muted)}
.notes{color:var(--warn);margin:.5rem 0 0}
.layout{display:flex;align-items:flex-start}
nav{flex:0 0 17rem;padding:1rem;border-right:1px solid var(--line);position:sticky;top:0;max-height:100vh;overflow:auto}
nav ul{list-style:none;margin:0;padding:0}nav li{margin:0 0 .25rem}
nav a{display:block;padding:.4rem .5rem;border-radius:6px;text-decoration:none;color:var(--fg);overflow-wrap:anywhere}
nav a[aria-current=page]{background:var(--panel);font-weight:600;box-shadow:inset 3px 0 var(--accent)}
nav small{display:block;color:var(--muted);font-weight:400}
.nav-title{font-size:.95rem;margin:0 0 .5rem;color:var(--muted)}
main{flex:1;min-width:0;padding:1rem 1.5rem 3rem}
main:focus{outline:none}
h2{margin:.25rem 0}h3{margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
.meta{color:var(--muted);margin:.25rem 0 1rem;overflow-wrap:anywhere}
.note{background:var(--warn-bg);color:var(--fg);padding:.5rem .75rem;border-radius:6px}
.badge{display:inline-block;font-size:.8rem;font-weight:600;padding:0 .45em;border-radius:1em;border:1px solid;vertical-align:middle;white-space:nowrap}
.badge-pass{color:var(--good);background:var(--good-bg)}
.badge-fail,.badge-error,.badge-regressed{color:var(--bad);background:var(--bad-bg)}.badge-flaky{color:var(--warn);background:var(--warn-bg)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.6rem;margin:0 0 1rem}
.card{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:.5rem .75rem;border-left-width:4px}
.card dt{color:var(--muted);font-size:.85rem}.card dd{margin:0;font-size:1.05rem;font-weight:600;overflow-wrap:anywhere}
.card.good{border-left-color:var(--good)}.card.bad{border-left-color:var(--bad)}.card.warn{border-left-color:var(--warn)}
.checks{list-style:none;padding:0;margin:0 0 1rem}.checks li{padding:.15rem 0;overflow-wrap:anywhere}
.checks .ok{color:var(--good)}.checks .bad{color:var(--bad);font-weight:600}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
thead th{background:var(--panel);position:sticky;top:0}
caption{text-align:left;color:var(--muted);padding:.25rem 0}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.score.bad,.down{color:var(--bad);font-weight:600}.up{color:var(--good);font-weight:600}
.na{color:var(--muted)}
td.id{min-width:9rem;max-width:16rem;overflow-wrap:anywhere}td.input{min-width:16rem;max-width:32rem;overflow-wrap:anywhere}
.preview{color:var(--muted)}
button{font:inherit;color:inherit;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.2rem .6rem;cursor:pointer}
button:disabled{opacity:.5;cursor:default}
button.sort{background:none;border:0;padding:0;font-weight:600}
button.link{background:none;border:0;padding:0;color:var(--accent);text-decoration:underline;font-family:ui-monospace,monospace}
button.expand{width:1.8rem;padding:0}
.expand-col{width:2.2rem}
select,input{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.2rem .4rem}
.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:.5rem 0}
label.check{display:inline-flex;gap:.3rem;align-items:center}
.grid-status{margin:.25rem 0;color:var(--muted)}
.pager{display:flex;gap:.75rem;align-items:center;margin:.5rem 0;flex-wrap:wrap}
.empty{color:var(--muted);text-align:center;padding:1rem}
.detail-row>td{background:var(--panel)}
.case-detail dl{display:grid;grid-template-columns:8rem minmax(0,1fr);gap:.25rem 1rem;margin:0}
.case-detail dt{font-weight:600;color:var(--muted)}.case-detail dd{margin:0;min-width:0}
pre.text{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-word;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;
background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.4rem .5rem;max-width:100%}
pre.error{border-color:var(--bad)}
pre.clamp{max-height:10em;overflow:auto}
td.variant{min-width:14rem;max-width:30rem}
.score-chip{display:inline-block;font-size:.8rem;background:var(--panel);border:1px solid var(--line);border-radius:4px;padding:0 .3em;margin:0 .2em .2em 0}
.scores{margin:0;padding-left:1.1rem}.reason{margin:.1rem 0 .3rem;color:var(--fg);overflow-wrap:anywhere;white-space:pre-wrap}
.chart-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(20rem,1fr));gap:1rem}
.chart-figure{margin:0;background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:.5rem}
.chart-figure.wide{max-width:44rem;margin:.75rem 0}
.chart-figure figcaption{font-size:.85rem;color:var(--muted);overflow-wrap:anywhere}
.chart{width:100%;height:auto;display:block}
.chart .axis{stroke:var(--muted);stroke-width:1}
.chart .tick{font-size:10px;fill:var(--muted)}
.chart .label{font-size:10px;font-weight:600}
.chart .bar{fill:var(--accent);opacity:.85}
.chart .threshold{stroke:var(--bad);stroke-width:1.5;stroke-dasharray:4 3}.chart .threshold-label{fill:var(--bad)}
.chart .baseline{stroke:var(--warn);stroke-width:1.5;stroke-dasharray:1 3}.chart .baseline-label{fill:var(--warn)}
.chart .mean-mark{stroke:var(--fg);stroke-width:3}
.chart .line{fill:none;stroke-width:2}
.chart .s0 .line{stroke:var(--s0)}.chart .s0 .point{fill:var(--s0)}.chart .s1 .line{stroke:var(--s1);stroke-dasharray:6 3}.chart .s1 .point{fill:var(--s1)}
.chart .s2 .line{stroke:var(--s2);stroke-dasharray:2 2}.chart .s2 .point{fill:var(--s2)}.chart .s3 .line{stroke:var(--s3)}.chart .s3 .point{fill:var(--s3)}
.chart .point.current{stroke:var(--fg);stroke-width:2}
.chart .zero{stroke:var(--muted);stroke-dasharray:3 3}
.chart .ci{stroke:var(--fg);stroke-width:2}.chart .interval .point{fill:var(--fg)}
.chart .up .ci,.chart .up .point{stroke:var(--good);fill:var(--good)}.chart .down .ci,.chart .down .point{stroke:var(--bad);fill:var(--bad)}
.legend{list-style:none;display:flex;gap:1rem;padding:0;margin:.25rem 0;font-size:.85rem}
.legend li::before{content:"";display:inline-block;width:1.2em;height:.25em;margin-right:.3em;vertical-align:middle;background:currentColor}
.legend .s0{color:var(--s0)}.legend .s1{color:var(--s1)}.legend .s2{color:var(--s2)}.legend .s3{color:var(--s3)}
.chart-data summary{cursor:pointer;font-size:.85rem;color:var(--accent)}
.chart-data table{font-size:.85rem;margin-top:.25rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
@media (max-width:800px){.layout{display:block}nav{position:static;max-height:none;border-right:0;border-bottom:1px solid var(--line)}
.case-detail dl{grid-template-columns:1fr}}
`

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64')

/**
 * JSON for a `<script type="application/json">` block: `<`, `>` and `&` as `\u` escapes (so no text can
 * end the block or open a comment), and the line separators JSON allows but HTML parsers may not like.
 */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** The page data as the HTML file carries it: JSON, gzipped, in base64 (characters that cannot end a script block). */
export function encodePageData(data: PageData): string {
  return gzipSync(Buffer.from(JSON.stringify(data), 'utf8')).toString('base64')
}

/**
 * The page data of an HTML report file's text, for tools and tests (the page's script does the same in
 * the browser).
 *
 * @example
 * ```ts
 * const data = readPageData(readFileSync('.expect-llm/report.html', 'utf8'))
 * data.suites.map((s) => s.name)
 * ```
 */
export function readPageData(html: string): PageData {
  const m = /<script type="application\/octet-stream" id="report-data" data-encoding="gzip\+base64">([A-Za-z0-9+/=]*)<\/script>/.exec(html)
  if (!m) throw new Error(formatMessage('Failed to read the HTML report: it has no report-data block. Write it again with expect-llm report.'))
  return JSON.parse(gunzipSync(Buffer.from(m[1]!, 'base64')).toString('utf8')) as PageData
}

/** Text for an HTML text node or attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)
}

/**
 * The report page for the data: a complete HTML document with no external resource.
 *
 * @example
 * ```ts
 * writeFileSync('report.html', renderReportHtml(buildPageData(reports)))
 * ```
 */
export function renderReportHtml(data: PageData): string {
  const script = CLIENT_SCRIPT
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${sha256(script)}'`,
    `style-src 'sha256-${sha256(REPORT_CSS)}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ')
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="expect-llm">',
    `<title>${escapeHtml(data.title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<div id="app"><noscript>This report needs JavaScript to draw its tables and charts; ' +
      'its data is in the JSON reports it was made from (.expect-llm/reports/).</noscript></div>',
    `<script type="application/octet-stream" id="report-data" data-encoding="gzip+base64">${encodePageData(data)}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n')
}

/** Writes a file atomically (temporary file, then rename), creating its folder. */
export function writeFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, text)
  renameSync(tmp, path)
}
