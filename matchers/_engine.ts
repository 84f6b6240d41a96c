/**
 * The one module through which matchers reach the engine (`src/`): the check definitions they share with
 * the golden suites, and the metrics, judges and helpers their messages need. A matcher imports from
 * here, never from a deep path into `src/`.
 *
 * @module
 */
export { CHRF_OPTIONS, runChrF } from '../src/checks/chrF.js'
export { runTer, TER_OPTIONS } from '../src/checks/ter.js'
export { defineCheck, isCheck, runUserCheck, type Check, type CheckContext } from '../src/checks/define.js'
export { terTokenize, type TerOptions } from '../src/metrics/ter.js'
export type { ChrFOptions } from '../src/metrics/chrf.js'
