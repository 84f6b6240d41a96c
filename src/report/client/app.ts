/**
 * The script of the HTML report, run in the browser. It reads the page data (a JSON block of the page)
 * and builds the DOM with `textContent` and attributes only, never `innerHTML`, so text from a model
 * (`<script>`, `<img onerror>`) shows as text. Charts are hand-drawn SVG (about 4 KB here; the smallest
 * charting library that fits, uPlot, is 51 KB minified and draws on a canvas, which gives a screen
 * reader and a test nothing to read). Every chart has a caption and a data table as its text alternative.
 *
 * Bundled into `bundle.generated.ts` by `npm run build:report-client` (esbuild); it imports only types and
 * the pure steps of `steps.ts`.
 */
import type { PageCase, PageCheck, PageCompare, PageData, PageGolden, PageHistory, PageSuite } from '../page-types.js'
import {
  ariaSort,
  caseMatches,
  caseShowOptions,
  compareRowMatches,
  fmtInt,
  fmtScore,
  mcnemarLine,
  mutantsPassedText,
  mutationMeta,
  mutationSkippedText,
  nextSort,
  pageWindow,
  pairIntervalRows,
  plural,
  scoreDelta,
  sortedRows,
  suiteKeyOfHash,
  TREND,
  type TrendRef,
  type TrendSeries,
  trendCaption,
  trendPath,
  trendTicks,
  trendX,
  trendY,
  type VerdictChange,
  verdictChangesBetween,
} from './steps.js'

type Attr = string | number | boolean | null | undefined | ((event: Event) => void)
type Child = Node | string | number | null | undefined | false | Child[]

const SVG_NS = 'http://www.w3.org/2000/svg'

function append(el: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    if (Array.isArray(child)) append(el, child)
    else el.append(typeof child === 'number' ? String(child) : child)
  }
}

function setAttrs(el: Element, attrs: Record<string, Attr> | undefined): void {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue
    if (typeof value === 'function') el.addEventListener(name.slice(2), value)
    else el.setAttribute(name, value === true ? '' : String(value))
  }
}

/** An HTML element; strings become text nodes (never markup). */
function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Record<string, Attr>, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  setAttrs(el, attrs)
  append(el, children)
  return el
}

/** An SVG element. */
function s(tag: string, attrs?: Record<string, Attr>, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag) as SVGElement
  setAttrs(el, attrs)
  append(el, children)
  return el
}

const pct = (n: number | null | undefined): string => (n === null || n === undefined ? 'n/a' : `${(n * 100).toFixed(1)}%`)
// A difference that rounds to zero shows as +0.000, never −0.000.
const signed = (n: number): string => `${n >= 0 || n.toFixed(3) === '-0.000' ? '+' : '−'}${Math.abs(n).toFixed(3)}`
const fmtMs = (n: number | null): string => (n === null ? 'n/a' : n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n).toLocaleString('en-US')} ms`)
const fmtUsd = (n: number | null): string => (n === null ? 'unknown' : n === 0 ? '$0' : n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`)
const shortCommit = (c: string | null): string => (c ? c.slice(0, 7) : 'no commit')
const fmtDate = (iso: string): string => {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace('T', ' ').slice(0, 16) + ' UTC'
}
const preview = (text: string, max = 120): string => {
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length > max ? `${one.slice(0, max - 1)}…` : one
}

let uid = 0
const nextId = (prefix: string): string => `${prefix}-${++uid}`

/** A status badge: the word carries the meaning, the colour repeats it. */
function badge(kind: 'pass' | 'fail' | 'error' | 'flaky' | 'regressed' | 'info', text: string): HTMLElement {
  return h('span', { class: `badge badge-${kind}` }, text)
}

/** A data table for a chart's text alternative, in a closed disclosure. */
function dataTable(caption: string, head: string[], rows: Array<Array<string | number>>): HTMLElement {
  return h(
    'details',
    { class: 'chart-data' },
    h('summary', {}, 'Data'),
    h(
      'table',
      {},
      h('caption', { class: 'sr-only' }, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          head.map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            {},
            r.map((c) => h('td', {}, c)),
          ),
        ),
      ),
    ),
  )
}

// ---------------------------------------------------------------- charts

/** Distribution of one check's scores over the cases, threshold and mean marked. */
function histogramChart(check: PageCheck): HTMLElement {
  const W = 320
  const H = 150
  const m = { l: 34, r: 10, t: 12, b: 28 }
  const iw = W - m.l - m.r
  const ih = H - m.t - m.b
  const max = Math.max(1, ...check.bins)
  const x = (v: number) => m.l + v * iw
  const y = (c: number) => m.t + ih - (c / max) * ih
  const titleId = nextId('t')
  const descId = nextId('d')
  const n = check.bins.length
  const above = check.threshold === null ? null : check.count - Math.round((1 - check.passRate) * check.count)
  const gate = check.threshold !== null ? `, threshold ${fmtScore(check.threshold)}; ${above} of ${check.count} pass` : ', recorded only (no threshold)'
  const caption = `${check.name}: ${plural(check.count, 'case')}, mean ${fmtScore(check.mean)}${gate}.`
  const svg = s(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': `${titleId} ${descId}`, class: 'chart histogram', 'data-check': check.name },
    s('title', { id: titleId }, `Distribution of ${check.name}`),
    s('desc', { id: descId }, caption),
    s('line', { x1: m.l, y1: m.t + ih, x2: m.l + iw, y2: m.t + ih, class: 'axis' }),
    s('line', { x1: m.l, y1: m.t, x2: m.l, y2: m.t + ih, class: 'axis' }),
    s('text', { x: m.l - 4, y: m.t + 4, 'text-anchor': 'end', class: 'tick' }, String(max)),
    s('text', { x: m.l - 4, y: m.t + ih, 'text-anchor': 'end', class: 'tick' }, '0'),
    [0, 0.5, 1].map((t) => s('text', { x: x(t), y: H - 12, 'text-anchor': 'middle', class: 'tick' }, String(t))),
    s('text', { x: m.l + iw / 2, y: H - 1, 'text-anchor': 'middle', class: 'tick' }, 'score'),
    check.bins.map((count, i) => {
      const x0 = x(i / n) + 1
      const bw = iw / n - 2
      const label = `${(i / n).toFixed(1)}–${((i + 1) / n).toFixed(1)}: ${plural(count, 'case')}`
      return s('rect', { x: x0, y: y(count), width: bw, height: m.t + ih - y(count), class: 'bar', 'data-count': count, 'data-bin': i }, s('title', {}, label))
    }),
    check.threshold !== null && [
      s('line', { x1: x(check.threshold), y1: m.t - 4, x2: x(check.threshold), y2: m.t + ih, class: 'threshold' }),
      s(
        'text',
        {
          x: x(check.threshold) + (check.threshold > 0.7 ? -3 : 3),
          y: m.t + 6,
          'text-anchor': check.threshold > 0.7 ? 'end' : 'start',
          class: 'label threshold-label',
        },
        `threshold ${fmtScore(check.threshold)}`,
      ),
    ],
    s('line', { x1: x(check.mean), y1: m.t + ih, x2: x(check.mean), y2: m.t + ih + 6, class: 'mean-mark' }, s('title', {}, `mean ${fmtScore(check.mean)}`)),
  )
  return h(
    'figure',
    { class: 'chart-figure' },
    svg,
    h('figcaption', {}, caption),
    dataTable(
      `Cases per score bin of ${check.name}`,
      ['scores', 'cases'],
      check.bins.map((c, i) => [`${(i / n).toFixed(1)}–${((i + 1) / n).toFixed(1)}`, c]),
    ),
  )
}

const SERIES_CLASSES = ['s0', 's1', 's2', 's3']

/** One series of a trend: its line and a point per run with a value (the run shown ringed), each point titled. */
function trendSeries(se: TrendSeries, k: number, labels: readonly string[], named: boolean, current: number): SVGElement {
  const n = labels.length
  return s(
    'g',
    { class: `series ${SERIES_CLASSES[k % SERIES_CLASSES.length]}`, 'data-series': se.name },
    s('path', { d: trendPath(se.values, n), class: 'line' }),
    se.values.map((v, i) =>
      v === null
        ? null
        : s(
            'circle',
            { cx: trendX(i, n), cy: trendY(v), r: i === current ? 5 : 2.5, class: i === current ? 'point current' : 'point', 'data-value': v },
            s('title', {}, `${labels[i]}${named ? ` · ${se.name}` : ''}: ${fmtScore(v)}`),
          ),
    ),
  )
}

/** The axes of a trend: the two lines, the score ticks, the run labels and the axis title. */
function trendAxes(labels: readonly string[]): Child[] {
  const { W, H, m } = TREND
  const bottom = trendY(0)
  return [
    s('line', { x1: m.l, y1: bottom, x2: W - m.r, y2: bottom, class: 'axis' }),
    s('line', { x1: m.l, y1: m.t, x2: m.l, y2: bottom, class: 'axis' }),
    [0, 0.5, 1].map((t) => s('text', { x: m.l - 4, y: trendY(t) + 3, 'text-anchor': 'end', class: 'tick' }, String(t))),
    trendTicks(labels).map((t) => s('text', { x: trendX(t.i, labels.length), y: H - 14, 'text-anchor': t.anchor, class: 'tick' }, t.label)),
    s('text', { x: (m.l + W - m.r) / 2, y: H - 2, 'text-anchor': 'middle', class: 'tick' }, 'runs, oldest first (commit)'),
  ]
}

/** A trend over runs: one line per series, reference lines (threshold, baseline), the current run ringed. */
function trendChart(title: string, labels: string[], series: TrendSeries[], refs: TrendRef[], current: number): HTMLElement {
  const { W, H, m } = TREND
  const titleId = nextId('t')
  const descId = nextId('d')
  const caption = trendCaption(title, labels.length, series, refs, current)
  const svg = s(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': `${titleId} ${descId}`, class: 'chart trend', 'data-title': title },
    s('title', { id: titleId }, `Trend of ${title}`),
    s('desc', { id: descId }, caption),
    trendAxes(labels),
    refs.map((r) => [
      s('line', { x1: m.l, y1: trendY(r.value), x2: W - m.r, y2: trendY(r.value), class: r.kind }),
      s('text', { x: W - m.r - 2, y: trendY(r.value) - 3, 'text-anchor': 'end', class: `label ${r.kind}-label` }, r.label),
    ]),
    series.map((se, k) => trendSeries(se, k, labels, series.length > 1, current)),
  )
  const legend =
    series.length > 1
      ? h(
          'ul',
          { class: 'legend' },
          series.map((se, k) => h('li', { class: SERIES_CLASSES[k % SERIES_CLASSES.length] }, se.name)),
        )
      : null
  return h(
    'figure',
    { class: 'chart-figure' },
    svg,
    legend,
    h('figcaption', {}, caption),
    dataTable(
      `${title} per run`,
      ['run', ...series.map((se) => se.name)],
      labels.map((label, i) => [`${i + 1}. ${label}${i === current ? ' (shown)' : ''}`, ...series.map((se) => fmtScore(se.values[i]))]),
    ),
  )
}

/** Paired differences with their confidence intervals, against zero. */
function intervalChart(title: string, rows: Array<{ label: string; diff: number; low: number; high: number }>): HTMLElement {
  const W = 420
  const rowH = 26
  const m = { l: 110, r: 16, t: 10, b: 26 }
  const H = m.t + m.b + rowH * rows.length
  const iw = W - m.l - m.r
  const extent = Math.max(0.05, ...rows.flatMap((r) => [Math.abs(r.low), Math.abs(r.high)])) * 1.1
  const x = (v: number) => m.l + ((v + extent) / (2 * extent)) * iw
  const titleId = nextId('t')
  const descId = nextId('d')
  const caption = rows
    .map((r) => `${r.label}: ${signed(r.diff)} [${signed(r.low)}, ${signed(r.high)}]${r.low > 0 ? ', above 0' : r.high < 0 ? ', below 0' : ', includes 0'}`)
    .join('; ')
  const svg = s(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': `${titleId} ${descId}`, class: 'chart intervals' },
    s('title', { id: titleId }, title),
    s('desc', { id: descId }, caption),
    s('line', { x1: x(0), y1: m.t - 4, x2: x(0), y2: H - m.b, class: 'zero' }),
    [-extent, 0, extent].map((t) => s('text', { x: x(t), y: H - 8, 'text-anchor': 'middle', class: 'tick' }, t === 0 ? '0' : signed(t).slice(0, 5))),
    rows.map((r, i) => {
      const cy = m.t + rowH * i + rowH / 2
      const cls = r.low > 0 ? 'up' : r.high < 0 ? 'down' : 'flat'
      return s(
        'g',
        { class: `interval ${cls}` },
        s('text', { x: m.l - 6, y: cy + 4, 'text-anchor': 'end', class: 'tick' }, r.label),
        s('line', { x1: x(r.low), y1: cy, x2: x(r.high), y2: cy, class: 'ci' }),
        s('line', { x1: x(r.low), y1: cy - 5, x2: x(r.low), y2: cy + 5, class: 'ci' }),
        s('line', { x1: x(r.high), y1: cy - 5, x2: x(r.high), y2: cy + 5, class: 'ci' }),
        s('circle', { cx: x(r.diff), cy, r: 4, class: 'point' }, s('title', {}, `${r.label}: ${signed(r.diff)} [${signed(r.low)}, ${signed(r.high)}]`)),
      )
    }),
  )
  return h(
    'figure',
    { class: 'chart-figure wide' },
    svg,
    h('figcaption', {}, caption),
    dataTable(
      title,
      ['check', 'difference', 'low', 'high'],
      rows.map((r) => [r.label, signed(r.diff), signed(r.low), signed(r.high)]),
    ),
  )
}

// ---------------------------------------------------------------- table with sort, filter, pages

interface Column<R> {
  key: string
  label: string
  /** Sort value; no sort button when absent. */
  sort?: (row: R) => number | string
  cell: (row: R) => Child
  className?: string
}

interface TableOptions<R> {
  caption: string
  columns: Column<R>[]
  rows: R[]
  rowId: (row: R) => string
  /** The expanded row's content, when rows expand. */
  detail?: (row: R) => HTMLElement
  filters: (onChange: () => void) => { controls: HTMLElement[]; match: (row: R) => boolean }
  /** The table's name in ids and test hooks. */
  name: string
}

type SortState = 'ascending' | 'descending' | 'none'

/** A column's header cell: a sort button and its `aria-sort` state when the column sorts. */
function sortHeader<R>(c: Column<R>, state: SortState, onSort: () => void): HTMLElement {
  const th = h('th', { scope: 'col', class: c.className, 'aria-sort': c.sort ? state : null })
  if (c.sort) {
    th.append(
      h(
        'button',
        { type: 'button', class: 'sort', 'data-sort': c.key, onclick: onSort },
        c.label,
        h('span', { 'aria-hidden': 'true', class: 'arrow' }, state === 'ascending' ? ' ▲' : state === 'descending' ? ' ▼' : ' ↕'),
      ),
    )
  } else th.append(c.label)
  return th
}

/** The cell with the button that shows or hides a row's details. */
function expandCell(id: string, open: boolean, onToggle: () => void): HTMLElement {
  return h(
    'td',
    { class: 'expand-col' },
    h(
      'button',
      {
        type: 'button',
        class: 'expand',
        'data-expand': id,
        'aria-expanded': open ? 'true' : 'false',
        'aria-label': `${open ? 'Hide' : 'Show'} details of ${id}`,
        onclick: onToggle,
      },
      open ? '−' : '+',
    ),
  )
}

/** The table rows of one page: each row, its details under it when expanded, or a line saying none matches. */
function gridRows<R>(opts: TableOptions<R>, visible: readonly R[], expanded: ReadonlySet<string>, toggle: (id: string) => void): HTMLElement[] {
  const width = opts.columns.length + (opts.detail ? 1 : 0)
  const rows: HTMLElement[] = []
  for (const row of visible) {
    const id = opts.rowId(row)
    const open = expanded.has(id)
    const tr = h('tr', { 'data-row': id })
    if (opts.detail) tr.append(expandCell(id, open, () => toggle(id)))
    for (const c of opts.columns) tr.append(h('td', { class: c.className }, c.cell(row)))
    rows.push(tr)
    if (open && opts.detail) rows.push(h('tr', { class: 'detail-row', 'data-detail': id }, h('td', { colspan: width }, opts.detail(row))))
  }
  if (rows.length === 0) rows.push(h('tr', {}, h('td', { colspan: width, class: 'empty' }, 'No case matches these filters.')))
  return rows
}

/** The control inside `root` that has focus, as a selector that finds it again after a redraw (a sort or page button). */
function focusedControl(root: HTMLElement): string | null {
  const active = document.activeElement
  if (!(active instanceof HTMLElement) || !root.contains(active)) return null
  return active.getAttribute('data-sort')
    ? `button[data-sort="${CSS.escape(active.getAttribute('data-sort')!)}"]`
    : active.getAttribute('data-page')
      ? `button[data-page="${active.getAttribute('data-page')}"]`
      : null
}

/** The grid's status line: which rows of how many are shown. */
function gridStatus(matching: number, start: number, shown: number, all: number): string {
  return matching === 0 ? `No rows of ${fmtInt(all)}` : `Showing ${fmtInt(start + 1)}–${fmtInt(start + shown)} of ${fmtInt(matching)} (${fmtInt(all)} in all)`
}

/** The select of a table's page size. */
function pageSizeSelect(pageSize: number, onChange: (size: number) => void): HTMLSelectElement {
  return h(
    'select',
    { 'aria-label': 'Rows per page', onchange: (e) => onChange(Number((e.target as HTMLSelectElement).value)) },
    [25, 50, 100, 250].map((n) => h('option', { value: n, selected: n === pageSize }, `${n} per page`)),
  )
}

/** The pager of a table: previous, "Page i of n", next (each disabled at its end), and the page size select. */
function pagerControls(page: number, pages: number, turn: (by: number) => void, sizeSelect: HTMLElement): HTMLElement[] {
  return [
    h('button', { type: 'button', disabled: page === 0, onclick: () => turn(-1), 'data-page': 'prev' }, '← Previous'),
    h('span', { class: 'page-of' }, `Page ${page + 1} of ${pages}`),
    h('button', { type: 'button', disabled: page >= pages - 1, onclick: () => turn(1), 'data-page': 'next' }, 'Next →'),
    sizeSelect,
  ]
}

/** Gives focus back to the control found by `selector` after a redraw; a page button that became disabled (the last page) hands it to the other one. */
function refocus(root: HTMLElement, selector: string | null): void {
  if (!selector) return
  const target = root.querySelector<HTMLButtonElement>(selector)
  ;(target && !target.disabled ? target : root.querySelector<HTMLButtonElement>('button[data-page]:not([disabled])'))?.focus()
}

/**
 * A table over many rows: sorted by any column (header buttons, `aria-sort`), filtered, shown a page
 * at a time (only the visible page is in the DOM, so 5,000 rows cost what 50 do).
 */
function dataGrid<R>(opts: TableOptions<R>): HTMLElement {
  let sort: { key: string; dir: 1 | -1 } = { key: '', dir: 1 }
  let page = 0
  let pageSize = 50
  const expanded = new Set<string>()
  const status = h('p', { class: 'grid-status', role: 'status', 'aria-live': 'polite', 'data-grid-status': opts.name })
  const tbody = h('tbody')
  const headRow = h('tr')
  const nav = h('div', { class: 'pager' })
  const refresh = () => {
    page = 0
    apply()
  }
  const { controls, match } = opts.filters(refresh)
  const sizeSelect = pageSizeSelect(pageSize, (size) => ((pageSize = size), refresh()))
  const toggle = (id: string) => {
    if (expanded.has(id)) expanded.delete(id)
    else expanded.add(id)
    apply()
    ;(tbody.querySelector(`button[data-expand="${CSS.escape(id)}"]`) as HTMLElement | null)?.focus()
  }
  const apply = () => {
    // The header and the pager are drawn anew: a keyboard user who sorted or turned the page keeps focus
    // on the same control rather than being thrown back to the top of the page.
    const focused = focusedControl(root)
    let filtered = opts.rows.filter(match)
    const col = opts.columns.find((c) => c.key === sort.key)
    if (col?.sort) filtered = sortedRows(filtered, col.sort, sort.dir)
    const view = pageWindow(filtered.length, page, pageSize)
    page = view.page
    const visible = filtered.slice(view.start, view.end)
    tbody.replaceChildren(...gridRows(opts, visible, expanded, toggle))
    status.textContent = gridStatus(filtered.length, view.start, visible.length, opts.rows.length)
    nav.replaceChildren(...pagerControls(page, view.pages, (by) => ((page += by), apply()), sizeSelect))
    headRow.replaceChildren(
      ...(opts.detail ? [h('th', { scope: 'col', class: 'expand-col' }, h('span', { class: 'sr-only' }, 'Details'))] : []),
      ...opts.columns.map((c) => sortHeader(c, ariaSort(sort, c.key), () => ((sort = nextSort(sort, c.key)), apply()))),
    )
    refocus(root, focused)
  }
  const root = h(
    'div',
    { class: 'grid', 'data-grid': opts.name },
    h('div', { class: 'filters' }, controls),
    status,
    h('div', { class: 'table-wrap' }, h('table', { class: 'cases' }, h('caption', { class: 'sr-only' }, opts.caption), h('thead', {}, headRow), tbody)),
    nav,
  )
  apply()
  return root
}

function selectControl(
  label: string,
  name: string,
  options: Array<[string, string]>,
  onChange: () => void,
): [HTMLElement, () => string, (value: string) => void] {
  const id = nextId(name)
  const select = h(
    'select',
    { id, 'data-filter': name, onchange: onChange },
    options.map(([value, text]) => h('option', { value }, text)),
  )
  return [h('label', { for: id }, `${label} `, select), () => select.value, (value) => ((select.value = value), onChange())]
}

function searchControl(name: string, onChange: () => void): [HTMLElement, () => string, (value: string) => void] {
  const id = nextId(name)
  let timer = 0
  const input = h('input', {
    id,
    type: 'search',
    'data-filter': name,
    placeholder: 'id, input or output',
    oninput: () => {
      clearTimeout(timer)
      timer = window.setTimeout(onChange, 120)
    },
  })
  return [h('label', { for: id }, 'Search ', input), () => input.value.trim().toLowerCase(), (value) => ((input.value = value), onChange())]
}

// ---------------------------------------------------------------- golden suite

function statusBadge(c: PageCase): HTMLElement[] {
  const out = [c.status === 'error' ? badge('error', 'error') : c.status === 'pass' ? badge('pass', 'pass') : badge('fail', 'fail')]
  if (c.flaky) out.push(badge('flaky', `flaky ${c.passes}/${c.runs}`))
  else if (c.runs > 1) out.push(h('span', { class: 'runs' }, `${c.passes}/${c.runs}`))
  if (c.regressed) out.push(badge('regressed', 'regressed'))
  return out
}

function textBlock(label: string, text: string | null | undefined, cls = ''): HTMLElement[] {
  if (text === undefined) return []
  return [h('dt', {}, label), h('dd', {}, text === null ? h('em', {}, '(no output)') : h('pre', { class: `text ${cls}` }, text))]
}

function caseDetail(c: PageCase, checks: string[]): HTMLElement {
  return h(
    'div',
    { class: 'case-detail' },
    h(
      'dl',
      {},
      textBlock('Input', c.input),
      textBlock('Expected', c.expected),
      textBlock('Output', c.output, 'output'),
      h('dt', {}, 'Scores'),
      h(
        'dd',
        {},
        h(
          'ul',
          { class: 'scores' },
          checks
            .filter((n) => c.scores[n])
            .map((n) => {
              const sc = c.scores[n]!
              return h(
                'li',
                {},
                h('strong', {}, n),
                ` ${fmtScore(sc.s)} `,
                sc.t === null ? '(recorded)' : sc.p ? `≥ ${fmtScore(sc.t)} ✓` : `< ${fmtScore(sc.t)} ✗`,
                sc.d ? h('p', { class: 'reason' }, sc.d) : null,
              )
            }),
        ),
      ),
      c.diagnosis ? [h('dt', {}, 'Diagnosis'), h('dd', {}, c.diagnosis)] : null,
      c.errors
        ? [
            h('dt', {}, 'Errors'),
            h(
              'dd',
              {},
              c.errors.map((e) => h('pre', { class: 'text error' }, e)),
            ),
          ]
        : null,
      c.assertError ? [h('dt', {}, 'assert'), h('dd', {}, h('pre', { class: 'text error' }, c.assertError))] : null,
      h('dt', {}, 'Latency'),
      h('dd', {}, `${fmtMs(c.latencyMs)} (mean over ${plural(c.runs, 'run')})`),
    ),
  )
}

const VERDICT_ORDER = { error: 0, fail: 1, pass: 2 }

/** The column of one check in the cases table: the score, marked when below its threshold. */
function checkColumn(n: string): Column<PageCase> {
  return {
    key: `check:${n}`,
    label: n,
    className: 'num',
    sort: (c) => c.scores[n]?.s ?? -1,
    cell: (c) => {
      const sc = c.scores[n]
      if (!sc) return h('span', { class: 'na', title: 'not scored' }, '–')
      return h(
        'span',
        { class: sc.p ? 'score ok' : 'score bad', 'data-check': n },
        fmtScore(sc.s),
        sc.p ? '' : h('span', { class: 'sr-only' }, ' (below threshold)'),
      )
    },
  }
}

function casesTable(suite: PageGolden, focus: { search?: (id: string) => void }): HTMLElement {
  const checks = suite.scorers.map((sc) => sc.name)
  return dataGrid<PageCase>({
    name: 'cases',
    caption: `Cases of ${suite.name}`,
    rows: suite.cases,
    rowId: (c) => c.id,
    columns: [
      { key: 'id', label: 'Case', sort: (c) => c.id, cell: (c) => h('code', {}, c.id), className: 'id' },
      { key: 'verdict', label: 'Verdict', sort: (c) => VERDICT_ORDER[c.status], cell: statusBadge },
      { key: 'input', label: 'Input', cell: (c) => h('span', { class: 'preview' }, preview(c.input)), className: 'input' },
      ...checks.map(checkColumn),
      { key: 'latency', label: 'Latency', className: 'num', sort: (c) => c.latencyMs, cell: (c) => fmtMs(c.latencyMs) },
    ],
    detail: (c) => caseDetail(c, checks),
    filters: (onChange) => {
      const [showEl, show] = selectControl('Show', 'show', caseShowOptions(suite), onChange)
      const [tagEl, tag] = selectControl('Tag', 'tag', [['', 'any tag'], ...suite.tags.map((t): [string, string] => [t, t])], onChange)
      const [searchEl, search, setSearch] = searchControl('search', onChange)
      focus.search = setSearch
      return {
        controls: [showEl, ...(suite.tags.length > 0 ? [tagEl] : []), searchEl],
        match: (c) => caseMatches(c, { show: show(), tag: tag(), query: search() }),
      }
    },
  })
}

function summaryCards(suite: PageGolden): HTMLElement {
  const s0 = suite.summary
  const b = suite.budget
  const limit = (value: string, max: string | null) => (max === null ? value : `${value} of ${max}`)
  const card = (label: string, value: string, kind = '', key = '') =>
    h('div', { class: `card ${kind}`, 'data-card': key || label }, h('dt', {}, label), h('dd', {}, value))
  return h(
    'dl',
    { class: 'cards' },
    card('Pass rate', s0.passRate === null ? 'n/a' : `${pct(s0.passRate)} (${fmtInt(s0.passed)}/${fmtInt(s0.ran)})`, suite.ok ? 'good' : 'bad', 'passRate'),
    card('Failed', fmtInt(s0.failed), s0.failed > 0 ? 'bad' : '', 'failed'),
    card('Errored', fmtInt(s0.errored), s0.errored > 0 ? 'bad' : '', 'errored'),
    card('Flaky', fmtInt(s0.flaky), s0.flaky > 0 ? 'warn' : '', 'flaky'),
    card('Regressed', fmtInt(s0.regressed), s0.regressed > 0 ? 'bad' : '', 'regressed'),
    card('P95 latency', limit(fmtMs(b.p95LatencyMs), b.p95LatencyLimit === null ? null : fmtMs(b.p95LatencyLimit)), '', 'p95'),
    card('Tokens', limit(fmtInt(b.totalTokens), b.tokenLimit === null ? null : fmtInt(b.tokenLimit)), '', 'tokens'),
    card(
      'Cost',
      `${limit(fmtUsd(b.costUsd), b.costLimit === null ? null : fmtUsd(b.costLimit))}` +
        `${b.costUsd !== null ? ` (app ${fmtUsd(b.appCostUsd)}, evaluator ${fmtUsd(b.evaluatorCostUsd)})` : ''}`,
      '',
      'cost',
    ),
  )
}

function checksList(checks: PageGolden['checks']): HTMLElement | null {
  if (checks.length === 0) return null
  return h(
    'ul',
    { class: 'checks' },
    checks.map((c) =>
      h(
        'li',
        { class: c.ok ? 'ok' : 'bad', 'data-gate': c.name },
        h('span', { 'aria-hidden': 'true' }, c.ok ? '✓ ' : '✗ '),
        h('span', { class: 'sr-only' }, c.ok ? 'passed: ' : 'failed: '),
        c.message,
      ),
    ),
  )
}

function checksTable(suite: PageGolden): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'checks-table' },
      h('caption', {}, 'Mean per check over the cases, with its 95% bootstrap interval'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Check', 'Mean', '95% CI', 'Min', 'Max', 'Threshold', 'Gate on mean', 'Passing', 'Baseline'].map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        {},
        suite.scorers.map((sc) =>
          h(
            'tr',
            { 'data-check-row': sc.name },
            h('th', { scope: 'row' }, sc.name),
            h('td', { class: 'num', 'data-field': 'mean' }, fmtScore(sc.mean)),
            h('td', { class: 'num' }, `[${fmtScore(sc.ci[0])}, ${fmtScore(sc.ci[1])}]`),
            h('td', { class: 'num' }, fmtScore(sc.min)),
            h('td', { class: 'num' }, fmtScore(sc.max)),
            h('td', { class: 'num', 'data-field': 'threshold' }, sc.threshold === null ? 'recorded' : fmtScore(sc.threshold)),
            h('td', { class: 'num' }, sc.meanThreshold === null ? '–' : `${fmtScore(sc.meanThreshold)} ${sc.mean >= sc.meanThreshold ? '✓' : '✗'}`),
            h('td', { class: 'num', 'data-field': 'passing' }, `${Math.round(sc.passRate * sc.count)}/${sc.count}`),
            h('td', { class: 'num' }, sc.baseline === null ? '–' : `${fmtScore(sc.baseline)} (${signed(sc.mean - sc.baseline)})`),
          ),
        ),
      ),
    ),
  )
}

/** The table of a mutation run's checks: score, mutants let pass, what each is blind to, and the gate. */
function mutationChecksTable(m: NonNullable<PageGolden['mutation']>): HTMLElement {
  const gate = (ok: boolean | null) => (ok === null ? '–' : ok ? badge('pass', `≥ ${fmtScore(m.minScore)}`) : badge('fail', `< ${fmtScore(m.minScore)}`))
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'checks-table', 'data-mutation-checks': '' },
      h(
        'caption',
        {},
        `Mutation score per check: the share of ${fmtInt(m.mutants)} wrong answers (mutants of ${fmtInt(m.cases)} references) it rejects, worst first`,
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Check', 'Score', 'Let pass', 'Blind to', 'Gate'].map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        {},
        m.checks.map((c) =>
          h(
            'tr',
            { 'data-mutation-row': c.name },
            h('th', { scope: 'row' }, c.name),
            h('td', { class: 'num', 'data-field': 'score' }, fmtScore(c.score)),
            h('td', { class: 'num', 'data-field': 'passed' }, mutantsPassedText(c)),
            h('td', { 'data-field': 'blind' }, c.blindTo.length > 0 ? c.blindTo.join(', ') : '–'),
            h('td', {}, gate(c.gate)),
          ),
        ),
      ),
    ),
  )
}

/** A surviving mutant: its case, operator, change, text and the checks that passed it. */
function survivorItem(s: NonNullable<PageGolden['mutation']>['survivors'][number]): HTMLElement {
  return h(
    'li',
    { 'data-survivor': s.case },
    s.survivedSuite ? badge('fail', 'passed every check') : null,
    ' ',
    h('code', {}, s.case),
    ` ${s.operator} (${s.change}): `,
    h('span', { class: 'mutant' }, `“${s.text}”`),
    ` passed by ${s.passedBy.join(', ')}`,
  )
}

/** Mutation testing of the checks: each check's score (worst first), what it is blind to, the surviving mutants. */
function mutationSection(m: NonNullable<PageGolden['mutation']>): HTMLElement {
  const skipped = mutationSkippedText(m.skipped)
  return h(
    'section',
    { 'aria-labelledby': 'mutation-h', 'data-section': 'mutation' },
    h('h3', { id: 'mutation-h' }, 'How strong is this eval?'),
    h('p', { class: 'meta' }, mutationMeta(m)),
    mutationChecksTable(m),
    skipped !== null ? h('p', { class: 'note' }, skipped) : null,
    h('h4', {}, `Surviving mutants (${fmtInt(m.survivors.length)}; ${fmtInt(m.survivedSuite)} passed every check of their case)`),
    m.survivors.length > 0 ? h('ul', { class: 'survivors' }, m.survivors.map(survivorItem)) : h('p', {}, 'None: every mutant was rejected by every check.'),
  )
}

function verdictName(v: string): string {
  return v === 'p' ? 'pass' : v === 'f' ? 'fail' : v === 'e' ? 'error' : 'absent'
}

function runLabel(run: PageHistory['runs'][number], i: number): string {
  return `#${i + 1} ${shortCommit(run.commit)} · ${fmtDate(run.at)}${run.current ? ' (shown)' : ''}`
}

/** The table of cases whose verdict changed (the first 500); ids link to the case when one run is the page's. */
function changesTable(changed: readonly VerdictChange[], linkable: boolean, goToCase: (id: string) => void): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h('caption', { class: 'sr-only' }, 'Cases whose verdict changed'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Case', 'Before', 'After'].map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        {},
        changed
          .slice(0, 500)
          .map((c) =>
            h(
              'tr',
              { 'data-changed': c.id },
              h('td', {}, linkable ? h('button', { type: 'button', class: 'link', onclick: () => goToCase(c.id) }, c.id) : h('code', {}, c.id)),
              h('td', {}, verdictName(c.before)),
              h('td', {}, verdictName(c.after)),
            ),
          ),
      ),
    ),
  )
}

/** The cases whose verdict differs between two runs of the history. */
function verdictChanges(history: PageHistory, goToCase: (id: string) => void): HTMLElement {
  const runs = history.runs
  const current = Math.max(
    0,
    runs.findIndex((r) => r.current),
  )
  const result = h('div', { class: 'changes', 'data-changes': '' })
  const pick = (label: string, name: string, initial: number) => {
    const id = nextId(name)
    const select = h(
      'select',
      { id, 'data-run': name, onchange: () => draw() },
      runs.map((r, i) => h('option', { value: i, selected: i === initial }, runLabel(r, i))),
    )
    return [h('label', { for: id }, `${label} `, select), select] as const
  }
  const [aLabel, a] = pick('From', 'from', Math.max(0, current - 1))
  const [bLabel, b] = pick('to', 'to', current)
  const draw = () => {
    const from = runs[Number(a.value)]!
    const to = runs[Number(b.value)]!
    const { changed, nowFailing, nowPassing } = verdictChangesBetween(history.ids, from.verdicts, to.verdicts)
    result.replaceChildren()
    append(result, [
      h(
        'p',
        { role: 'status', 'data-changes-summary': '' },
        changed.length === 0
          ? 'No case changed its verdict between these runs.'
          : `${plural(changed.length, 'case')} changed: ${nowFailing} now failing, ${nowPassing} now passing, ` +
              `${changed.length - nowFailing - nowPassing} added, removed or errored.`,
      ),
      changed.length === 0 ? null : changesTable(changed, to.current || from.current, goToCase),
      changed.length > 500 ? h('p', {}, `… and ${fmtInt(changed.length - 500)} more.`) : null,
    ])
  }
  draw()
  return h('div', {}, h('div', { class: 'filters' }, aLabel, bLabel), result)
}

function goldenHistory(suite: PageGolden, goToCase: (id: string) => void): HTMLElement | null {
  const history = suite.history
  if (!history || history.runs.length === 0) return null
  if (history.runs.length < 2) {
    return h(
      'section',
      { 'aria-labelledby': 'history-h', 'data-section': 'history' },
      h('h3', { id: 'history-h' }, 'History (1 run)'),
      h('p', {}, 'One run so far: the trend per check and the cases whose verdict changed show from the next run on.'),
    )
  }
  const labels = history.runs.map((r) => shortCommit(r.commit))
  const current = Math.max(
    0,
    history.runs.findIndex((r) => r.current),
  )
  const charts = [
    trendChart('pass rate', labels, [{ name: 'pass rate', values: history.runs.map((r) => r.passRate) }], [], current),
    ...suite.scorers.map((sc) => {
      const refs: Array<{ label: string; value: number; kind: 'threshold' | 'baseline' }> = []
      const gate = sc.meanThreshold ?? sc.threshold
      if (gate !== null) refs.push({ label: `${sc.meanThreshold !== null ? 'gate on mean' : 'threshold'} ${fmtScore(gate)}`, value: gate, kind: 'threshold' })
      const base = history.baseline?.[sc.name]
      if (base !== undefined) refs.push({ label: `baseline ${fmtScore(base)}`, value: base, kind: 'baseline' })
      return trendChart(`mean ${sc.name}`, labels, [{ name: sc.name, values: history.runs.map((r) => r.means[sc.name] ?? null) }], refs, current)
    }),
  ]
  return h(
    'section',
    { 'aria-labelledby': 'history-h', 'data-section': 'history' },
    h('h3', { id: 'history-h' }, `History (${plural(history.runs.length, 'run')})`),
    h('div', { class: 'chart-grid' }, charts),
    h('h4', {}, 'Cases whose verdict changed between two runs'),
    verdictChanges(history, goToCase),
  )
}

function metaLine(suite: PageSuite): HTMLElement {
  const parts = [
    suite.file ?? 'unknown file',
    `commit ${shortCommit(suite.commit)}`,
    suite.branch ? `branch ${suite.branch}` : null,
    fmtDate(suite.createdAt),
    suite.runner,
    suite.shards ? `merged from ${suite.shards} shards` : null,
    suite.shard ? `shard ${suite.shard} only` : null,
  ]
  return h('p', { class: 'meta' }, parts.filter((p): p is string => p !== null).join(' · '))
}

function goldenView(suite: PageGolden): HTMLElement {
  const focus: { search?: (id: string) => void } = {}
  const cases = casesTable(suite, focus)
  const goToCase = (id: string) => {
    focus.search?.(id)
    cases.scrollIntoView()
    ;(cases.querySelector('input[type=search]') as HTMLElement | null)?.focus()
  }
  return h(
    'article',
    { class: 'suite', 'data-suite': suite.key },
    h('h2', { tabindex: '-1' }, suite.name, ' ', suite.ok ? badge('pass', 'passed') : badge('fail', 'failed')),
    metaLine(suite),
    suite.shard ? h('p', { class: 'note' }, `This is one shard's report; its aggregate checks are decided by expect-llm report --merge.`) : null,
    summaryCards(suite),
    checksList(suite.checks),
    suite.scorers.length > 0
      ? h(
          'section',
          { 'aria-labelledby': 'checks-h', 'data-section': 'checks' },
          h('h3', { id: 'checks-h' }, 'Checks'),
          checksTable(suite),
          h('div', { class: 'chart-grid' }, suite.scorers.map(histogramChart)),
        )
      : null,
    suite.mutation ? mutationSection(suite.mutation) : null,
    h('section', { 'aria-labelledby': 'cases-h', 'data-section': 'cases' }, h('h3', { id: 'cases-h' }, `Cases (${fmtInt(suite.cases.length)})`), cases),
    goldenHistory(suite, goToCase),
  )
}

// ---------------------------------------------------------------- comparison

/** The table of a comparison's means per variant and paired differences against the first. */
function compareStatsTable(suite: PageCompare): HTMLElement {
  const [first, ...others] = suite.variants as [string, ...string[]]
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'checks-table', 'data-compare-stats': '' },
      h(
        'caption',
        {},
        `Means per variant; paired differences against ${first} with their ` +
          `${Math.round((suite.scorers[0]?.pairs[0]?.confidence ?? 0.95) * 100)}% bootstrap intervals`,
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Check'),
          suite.variants.map((v) => h('th', { scope: 'col' }, v)),
          others.map((b) => [h('th', { scope: 'col' }, `Δ ${b} − ${first}`), h('th', { scope: 'col' }, 'CI'), h('th', { scope: 'col' }, 'W/T/L')]),
        ),
      ),
      h(
        'tbody',
        {},
        suite.scorers.map((sc) =>
          h(
            'tr',
            { 'data-check-row': sc.name },
            h('th', { scope: 'row' }, sc.name),
            suite.variants.map((v) => h('td', { class: 'num', 'data-variant': v }, fmtScore(sc.means[v]))),
            others.map((b) => {
              const p = sc.pairs.find((x) => x.b === b)
              return p
                ? [
                    h('td', { class: `num ${p.low > 0 ? 'up' : p.high < 0 ? 'down' : ''}`, 'data-field': 'diff' }, signed(p.meanDiff)),
                    h('td', { class: 'num' }, `[${signed(p.low)}, ${signed(p.high)}]`),
                    h('td', { class: 'num' }, `${p.wins}/${p.ties}/${p.losses}`),
                  ]
                : [h('td', {}, '–'), h('td', {}, '–'), h('td', {}, '–')]
            }),
          ),
        ),
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, 'pass rate'),
          suite.variants.map((v) => h('td', { class: 'num' }, pct(suite.passRates[v]))),
          others.map(() => [h('td', {}), h('td', {}), h('td', {})]),
        ),
      ),
    ),
  )
}

/** The cases of a comparison, variants side by side, with the differing-only and search filters. */
function compareGrid(suite: PageCompare, checkNames: string[]): HTMLElement {
  const [first, ...others] = suite.variants as [string, ...string[]]
  let onlyDiffering: () => boolean = () => false
  let search: () => string = () => ''
  return dataGrid<PageCompare['rows'][number]>({
    name: 'compare',
    caption: `Cases of ${suite.name}, variants side by side`,
    rows: suite.rows,
    rowId: (r) => r.id,
    columns: [
      { key: 'id', label: 'Case', sort: (r) => r.id, cell: (r) => [h('code', {}, r.id), h('p', { class: 'preview' }, preview(r.input, 200))], className: 'id' },
      ...suite.variants.map<Column<PageCompare['rows'][number]>>((v) => ({
        key: `variant:${v}`,
        label: v,
        sort: (r) => (r.pass[v] ? 1 : 0),
        className: 'variant',
        cell: (r) =>
          h(
            'div',
            { 'data-variant': v },
            r.outputs[v] === null ? badge('error', 'error') : r.pass[v] ? badge('pass', 'pass') : badge('fail', 'fail'),
            ' ',
            checkNames
              .filter((n) => r.scores[v]?.[n] !== undefined)
              .map((n) => h('span', { class: 'score-chip', title: r.details[v]?.[n] ?? null }, `${n} ${fmtScore(r.scores[v]![n])}`)),
            h('pre', { class: 'text clamp', tabindex: '0', 'aria-label': `${v} output for ${r.id}` }, r.outputs[v] ?? '(no output)'),
          ),
      })),
      ...others.flatMap((b) =>
        [suite.expectation?.scorer ?? checkNames[0]]
          .filter((n): n is string => n !== undefined)
          .map<Column<PageCompare['rows'][number]>>((n) => ({
            key: `diff:${b}:${n}`,
            label: `Δ ${n}`,
            className: 'num',
            sort: (r) => (r.scores[b]?.[n] ?? 0) - (r.scores[first]?.[n] ?? 0),
            cell: (r) => {
              const d = scoreDelta(r, first, b, n)
              return d === null ? '–' : h('span', { class: d > 1e-9 ? 'up' : d < -1e-9 ? 'down' : '' }, signed(d))
            },
          })),
      ),
    ],
    filters: (onChange) => {
      const id = nextId('differ')
      const box = h('input', { type: 'checkbox', id, 'data-filter': 'differing', onchange: onChange, checked: suite.differingOnly })
      const [searchEl, getSearch] = searchControl('search', onChange)
      onlyDiffering = () => box.checked
      search = getSearch
      return {
        controls: [h('label', { for: id, class: 'check' }, box, ` Only cases that differ (${fmtInt(suite.rows.filter((r) => r.differs).length)})`), searchEl],
        match: (r) => compareRowMatches(r, search(), onlyDiffering()),
      }
    },
  })
}

/** The means of every check per variant over the suite's recorded runs. */
function compareHistory(suite: PageCompare, history: NonNullable<PageCompare['history']>, checkNames: string[]): HTMLElement {
  return h(
    'section',
    { 'aria-labelledby': 'cmp-history-h', 'data-section': 'history' },
    h('h3', { id: 'cmp-history-h' }, `History (${plural(history.runs.length, 'run')})`),
    h(
      'div',
      { class: 'chart-grid' },
      checkNames.map((n) =>
        trendChart(
          `mean ${n}`,
          history.runs.map((r) => shortCommit(r.commit)),
          suite.variants.map((v) => ({ name: v, values: history.runs.map((r) => r.means[n]?.[v] ?? null) })),
          [],
          Math.max(
            0,
            history.runs.findIndex((r) => r.current),
          ),
        ),
      ),
    ),
  )
}

function compareView(suite: PageCompare): HTMLElement {
  const [first, ...others] = suite.variants as [string, ...string[]]
  const statsTable = compareStatsTable(suite)
  const intervals = others.map((b) => intervalChart(`Paired difference ${b} − ${first} per check`, pairIntervalRows(suite.scorers, b)))
  const checkNames = suite.scorers.map((sc) => sc.name)
  const grid = compareGrid(suite, checkNames)
  const history = suite.history && suite.history.runs.length > 1 ? suite.history : null
  return h(
    'article',
    { class: 'suite', 'data-suite': suite.key },
    h('h2', { tabindex: '-1' }, suite.name, ' ', suite.ok ? badge('pass', 'passed') : badge('fail', 'failed')),
    metaLine(suite),
    h('p', {}, `${plural(suite.cases, 'case')}, variants ${suite.variants.join(', ')}.`),
    suite.expectation
      ? h(
          'ul',
          { class: 'checks' },
          h('li', { class: suite.expectation.ok ? 'ok' : 'bad', 'data-gate': 'expectation' }, suite.expectation.ok ? '✓ ' : '✗ ', suite.expectation.message),
        )
      : null,
    h(
      'section',
      { 'aria-labelledby': 'variants-h', 'data-section': 'variants' },
      h('h3', { id: 'variants-h' }, 'Variants'),
      statsTable,
      intervals,
      h(
        'ul',
        { class: 'mcnemar' },
        suite.mcnemar.map((m) => h('li', {}, mcnemarLine(m))),
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'cmp-cases-h', 'data-section': 'cases' },
      h('h3', { id: 'cmp-cases-h' }, 'Cases side by side'),
      suite.differingOnly ? h('p', { class: 'note' }, 'This report lists only the cases that differ.') : null,
      grid,
    ),
    history ? compareHistory(suite, history, checkNames) : null,
  )
}

// ---------------------------------------------------------------- page

/** A suite's link in the navigation: its verdict, name, and case count (or "comparison"). */
function suiteLink(suite: PageSuite): HTMLAnchorElement {
  return h(
    'a',
    { href: `#suite=${encodeURIComponent(suite.key)}`, 'data-suite-link': suite.key },
    suite.ok ? badge('pass', 'pass') : badge('fail', 'fail'),
    ' ',
    h('span', { class: 'suite-name' }, suite.name),
    h('small', {}, suite.kind === 'compare' ? 'comparison' : `${fmtInt(suite.summary.ran)} cases`),
  )
}

/** The page's header: title, when it was generated, the suites and how many fail, and the notes. */
function pageHeader(data: PageData): HTMLElement {
  const failing = data.suites.filter((x) => !x.ok).length
  return h(
    'header',
    {},
    h('h1', {}, data.title),
    h('p', {}, `Generated ${fmtDate(data.generatedAt)} · ${plural(data.suites.length, 'suite')}${failing > 0 ? ` · ${failing} failing` : ''}`),
    data.notes.length > 0
      ? h(
          'ul',
          { class: 'notes', role: 'note' },
          data.notes.map((n) => h('li', {}, n)),
        )
      : null,
  )
}

function render(data: PageData, root: HTMLElement): void {
  const main = h('main', { id: 'main', tabindex: '-1' })
  const anchors = data.suites.map(suiteLink)
  const links = new Map(data.suites.map((suite, i) => [suite.key, anchors[i]!]))
  const nav = h(
    'nav',
    { 'aria-label': 'Suites' },
    h('h2', { class: 'nav-title' }, `Suites (${data.suites.length})`),
    h(
      'ul',
      {},
      anchors.map((a) => h('li', {}, a)),
    ),
  )
  const show = (moveFocus: boolean) => {
    const wanted = suiteKeyOfHash(location.hash)
    const suite = data.suites.find((x) => x.key === wanted) ?? data.suites[0]
    for (const [key, a] of links) {
      if (suite && key === suite.key) a.setAttribute('aria-current', 'page')
      else a.removeAttribute('aria-current')
    }
    if (!suite) {
      main.replaceChildren(
        h('p', {}, 'No report to show: run a golden suite first (describeGolden or compareGolden writes its report under .expect-llm/reports/).'),
      )
      return
    }
    main.replaceChildren(suite.kind === 'golden' ? goldenView(suite) : compareView(suite))
    document.title = `${suite.name} · ${data.title}`
    if (moveFocus) (main.querySelector('h2') as HTMLElement | null)?.focus()
  }
  root.replaceChildren(
    h('a', { class: 'skip', href: '#main', onclick: (e) => (e.preventDefault(), main.focus()) }, 'Skip to the report'),
    pageHeader(data),
    h('div', { class: 'layout' }, nav, main),
  )
  window.addEventListener('hashchange', () => show(true))
  show(false)
}

/** The page data: JSON, gzipped and base64-encoded by the renderer (see html.ts), inflated here by the browser. */
async function readData(source: HTMLElement): Promise<PageData> {
  const text = source.textContent ?? ''
  if (source.getAttribute('data-encoding') !== 'gzip+base64') return JSON.parse(text) as PageData
  const binary = atob(text.trim())
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))
  return JSON.parse(await new Response(stream).text()) as PageData
}

async function start(): Promise<void> {
  const source = document.getElementById('report-data')
  const root = document.getElementById('app')
  if (!source || !root) return
  let data: PageData
  try {
    data = await readData(source)
  } catch (error) {
    root.replaceChildren(
      h(
        'p',
        { role: 'alert' },
        `This report could not be read (${(error as Error).message}). This browser may lack ` +
          `DecompressionStream (Chrome 80, Firefox 113, Safari 16.4 and later have it); or write the report ` +
          `again with expect-llm report.`,
      ),
    )
    return
  }
  render(data, root)
  document.documentElement.setAttribute('data-ready', 'true')
}

void start()
