import { defineConfig } from 'vitest/config';

// In CI a JSON report is written too, so .ci/run can print the plain "N passed, N failed".
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: process.env.CI ? ['default', ['json', { outputFile: `test-results/${process.env.GIFTDESK_TEST_ENGINE ?? 'sqlite'}.json` }]] : ['default'],
  },
});
