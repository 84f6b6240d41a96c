// The Vitest configuration StrykerJS runs for each mutant (see test/mutation/stryker.config.mjs). It runs
// the same test files as the root configuration, except:
// - tests that run a child process (Vitest, Jest, tsx workers): Stryker activates a mutant inside its own
//   test worker and measures per-test coverage there, so a child process always runs the unmutated code
//   and would only add minutes to every run;
// - type tests (`test/types/**`), which check declarations, not behaviour.
// Two settings make each mutant's run several times cheaper (measured: the run of one metrics test file
// drops from about 3 s to 1 s); the suite passes either way:
// - test files share one module graph (`isolate: false`) instead of importing the library once per file;
// - only the test files that test the setup entry itself or record and replay through it load
//   test/setup.ts (which imports every matcher, msw and openai); every other test file imports what it
//   tests (matcher tests call expect.extend).
// `npm run test:unit` still runs everything, the root configuration's way.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const childProcessTests = [
  'test/golden/jest-runner.test.ts',
  'test/golden/vitest-runner.test.ts',
  'test/golden/replay-e2e.test.ts',
  'test/replay/runner.test.ts',
  'test/replay/concurrency.test.ts',
  // A child Vitest run of the setup file's session, and each SDK client run as a child process.
  'test/replay/session.test.ts',
  'test/replay/clients.test.ts',
  // The `expect-llm mutate` command, run as a child (tsx, Vitest, Jest against dist/).
  'test/mutation/cli.test.ts',
  // Golden agent and mutation suites run by child Vitest and Jest runs only (each mutant of src/golden
  // reached through them started a child run: about 8 s per mutant).
  'test/mutation/suite.test.ts',
  'test/golden/agent-runner.test.ts',
  'test/golden/agent-jest-runner.test.ts',
  // These run the built package (dist/), which a fresh clone does not have and no mutant reaches.
  'test/ai-sdk.test.ts',
  'test/unawaited/jest.test.ts',
  'test/vitest-entry.test.ts',
  // It checks the list of equivalent mutants (the sources as text, and run.mjs in a child): no mutant reaches it.
  'test/mutation/equivalent.test.ts',
  // It tests run.mjs's parts and summary (parts.mjs) on made-up reports: no mutant of src/ or matchers/ reaches it.
  'test/mutation/parts.test.ts',
  // It snapshots the names the built entries (dist/) export.
  'test/entries/exports.test.ts',
]
// The test files that rely on test/setup.ts: the setup entry itself, and the provider tests that record
// and replay through the replay session it starts (or use the matchers it registers).
const setupTests = [
  'test/embedders/replay-determinism.test.ts',
  'test/agents/agent-loops.replay.test.ts',
  'test/embedders/ai-sdk-embedder.test.ts',
  'test/embedders/local-servers.test.ts',
  'test/judges/ai-sdk-judge.test.ts',
  'test/judges/anthropic-judge.test.ts',
  'test/judges/local-servers.test.ts',
  'test/judges/panel.test.ts',
  'test/judges/providers.replay.test.ts',
  // Recorded through the setup file's session (its embedding requests batch as they did then): without it the
  // embedder's batches differ from the recording and the initial run fails with a replay miss.
  'test/matchers/model-matchers.replay.test.ts',
  // Replays the default client (https://api.openai.com) without a key through the setup file's session.
  'test/safety/moderation.replay.test.ts',
]

// EXPECT_LLM_MUTATION_TESTS (comma-separated globs, e.g. `test/metrics/**/*.test.ts`) runs only those test
// files: a quick loop while killing one folder's survivors. Fewer tests can only kill fewer mutants, so the
// score it gives is a lower bound of the full suite's.
const only = process.env.EXPECT_LLM_MUTATION_TESTS?.split(',').filter((g) => g.length > 0)

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    isolate: false,
    // Instrumented code runs several times slower (every mutant is a branch that counts its hits): the
    // compute-heavy property and bootstrap tests need more than the default 5 s. Under that instrumentation
    // the sacrebleu TER reference test of one long pair (extended.reference.test.ts, pub-long-01) took more
    // than 60 s in the initial run on the loaded machine, hence 300 s; EXPECT_LLM_MUTATION_TEST_TIMEOUT (ms) sets it.
    testTimeout: Number(process.env.EXPECT_LLM_MUTATION_TEST_TIMEOUT ?? 300_000),
    typecheck: { enabled: false },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: only ?? ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'test/jest/**', 'test/consumers/**', ...childProcessTests, ...setupTests],
        },
      },
      ...(only ? [] : [{ extends: true, test: { name: 'setup', include: setupTests, setupFiles: ['./test/setup.ts'] } }]),
    ],
  },
})
