// StrykerJS configuration for `npm run test:mutation`. Run it through test/mutation/run.mjs, which picks
// the files to mutate and names the scope (see README "Mutation testing"). Each scope (a folder such as
// src/golden, or "since" for the files changed since a git ref) keeps its own incremental file and
// reports under reports/mutation/<scope>/ (gitignored), so running one folder never discards the results
// of another, and a re-run after a change only tests the mutants that change could affect.
const scope = process.env.EXPECT_LLM_MUTATION_SCOPE ?? 'all'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'test/mutation/vitest.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: ['src/**/*.ts', 'matchers/**/*.ts'],
  // The machine running it is usually shared (and CI's has two cores): two test workers at most.
  concurrency: 2,
  // A static mutant (in code that runs when a module loads: constant tables, default options) can only be
  // tested by re-importing everything and running the whole suite, about 30 s per mutant here instead of
  // 1-3 s; they are skipped (reported as ignored, outside the score) unless run.mjs gets --static.
  ignoreStatic: process.env.EXPECT_LLM_MUTATION_STATIC !== '1',
  incremental: true,
  incrementalFile: `reports/mutation/${scope}/incremental.json`,
  reporters: ['progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${scope}/index.html` },
  jsonReporter: { fileName: `reports/mutation/${scope}/mutation.json` },
  // What the sandbox copy leaves out (Stryker does not read .gitignore): other scopes' reports and
  // sandboxes, the build, and the library's own output folders.
  ignorePatterns: ['/reports', '/.stryker-tmp*', '/dist', '/coverage', '/.expect-llm'],
  // Stryker's default prepends `// @ts-nocheck` to every .ts file of src/ and test/ in the sandbox, which
  // changes the committed src/report/client/bundle.generated.ts, so the test that checks it is the bundle of
  // app.ts failed the initial run. Nothing type-checks the sandbox (Vitest strips types; the configuration
  // disables its typecheck), so the directives are not needed.
  disableTypeChecks: false,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  timeoutMS: 10000,
  // The initial run is the whole suite under instrumentation: on two shared cores it took more than Stryker's
  // default 5 minutes, and the run then stops before testing any mutant.
  dryRunTimeoutMinutes: 30,
}
