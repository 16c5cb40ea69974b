import os from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer.ts';

// Under `npm test` (scripts/test-all.mjs sets GIFTDESK_TEST_REPORT) and in CI a JSON report is
// written too (test-results/<engine>.json, gitignored): the runner's counts per half come from it.
// Two projects: everything in Node, and the browser tests (test/browser, real Chromium),
// whose global setup builds the renderer once when dist/renderer is missing or stale.
// Node's test files spend most of their time waiting (on the disk's fsync, on timers, on child
// processes and sockets), not computing: vitest's default of one worker less than the CPUs
// (one on a 2-core machine) left the machine mostly idle. Two at a time at least, or as many as
// GIFTDESK_TEST_WORKERS says. The browser files keep vitest's default: each drives a Chromium.
const nodeWorkers = Number(process.env.GIFTDESK_TEST_WORKERS) || Math.max(2, os.availableParallelism() - 1);

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The longest files first, by their last durations (test/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // expect.poll waits for what a user would see; vitest's default gives up after 1 s, which a
    // loaded CI machine (the SQLite half alone took 16 min there) can need for one save and its
    // refetch. A wrong state still fails, after this long.
    expect: { poll: { timeout: 30_000, interval: 100 } },
    reporters:
      process.env.CI || process.env.GIFTDESK_TEST_REPORT
        ? [
            'default',
            ['json', { outputFile: `test-results/${process.env.GIFTDESK_TEST_ENGINE ?? 'sqlite'}.json` }],
          ]
        : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**'],
          maxWorkers: nodeWorkers,
          // Node's files first, then the browser's (a project with its own maxWorkers runs as a group of its own).
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/global-setup.ts'],
          testTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
