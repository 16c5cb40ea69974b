/**
 * `npm test`'s runner (scripts/test-all.mjs): what it concludes from each step's exit and
 * report — a failed check counts, a half that crashed without a report counts, an error
 * outside any test counts, so the closing line never says "0 failed" when something failed —
 * and that it runs every step when an earlier one failed (real child processes writing fake
 * vitest reports).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Step, failedTests, failureDetails, runSteps, summarize } from '../../scripts/test-all.mjs';
import { tempDir } from '../helpers/server.ts';

const check = (name: string): Step => ({ name, command: 'x', args: [] });
const sqlite: Step = { name: 'SQLite and browser tests', command: 'x', args: [], report: 'sqlite.json' };
const postgres: Step = { name: 'PostgreSQL tests', command: 'x', args: [], report: 'postgres.json' };
const report = (passed: number, failed: number, skipped = 0, failedFiles = failed > 0 ? 1 : 0) => ({
  numPassedTests: passed,
  numFailedTests: failed,
  numPendingTests: skipped,
  numTodoTests: 0,
  numFailedTestSuites: failedFiles,
});
const checksOk = ['typecheck', 'lint', 'format check'].map((n) => ({
  step: check(n),
  status: 0,
  report: null,
}));

describe('the summary of a run', () => {
  it('all green: a line per step, both halves counted, exit 0', () => {
    const s = summarize([
      ...checksOk,
      { step: sqlite, status: 0, report: report(1361, 0, 1) },
      { step: postgres, status: 0, report: report(732, 0) },
    ]);
    expect(s.lines).toEqual([
      'typecheck: ok',
      'lint: ok',
      'format check: ok',
      'SQLite and browser tests: 1361 passed, 0 failed, 1 skipped',
      'PostgreSQL tests: 732 passed, 0 failed',
    ]);
    expect([s.passed, s.failed, s.exitCode]).toEqual([2093, 0, 0]);
  });

  it('a failing browser test does not hide the PostgreSQL results', () => {
    const s = summarize([
      ...checksOk,
      { step: sqlite, status: 1, report: report(1360, 1, 1) },
      { step: postgres, status: 0, report: report(732, 0) },
    ]);
    expect(s.lines.slice(3)).toEqual([
      'SQLite and browser tests: 1360 passed, 1 failed, 1 skipped',
      'PostgreSQL tests: 732 passed, 0 failed',
    ]);
    expect([s.passed, s.failed, s.exitCode]).toEqual([2092, 1, 1]);
  });

  it('a failed check counts as a failure even when every test passed', () => {
    const s = summarize([
      { step: check('typecheck'), status: 0, report: null },
      { step: check('lint'), status: 1, report: null },
      { step: check('format check'), status: 2, report: null },
      { step: sqlite, status: 0, report: report(10, 0) },
      { step: postgres, status: 0, report: report(5, 0) },
    ]);
    expect(s.lines.slice(0, 3)).toEqual([
      'typecheck: ok',
      'lint: FAILED (exited 1)',
      'format check: FAILED (exited 2)',
    ]);
    expect([s.passed, s.failed, s.exitCode]).toEqual([15, 2, 1]);
  });

  it('a half that crashed without a report counts as failed', () => {
    const s = summarize([
      ...checksOk,
      { step: sqlite, status: 0, report: report(10, 0) },
      { step: postgres, status: 'SIGKILL', report: null },
    ]);
    expect(s.lines[4]).toBe('PostgreSQL tests: FAILED, no report (killed by SIGKILL)');
    expect([s.failed, s.exitCode]).toEqual([1, 1]);
    const exited = summarize([{ step: sqlite, status: 1, report: null }]);
    expect([exited.lines[0], exited.failed]).toEqual([
      'SQLite and browser tests: FAILED, no report (exited 1)',
      1,
    ]);
  });

  it('a non-zero exit with no failed test in the report (an error outside any test) counts as failed', () => {
    const s = summarize([{ step: sqlite, status: 1, report: report(10, 0) }]);
    expect(s.lines[0]).toBe(
      'SQLite and browser tests: 10 passed, 1 failed (exited 1 with no failed test: see the output above)',
    );
    expect([s.failed, s.exitCode]).toEqual([1, 1]);
  });

  it('a test file that failed to load counts, though no test in it ran', () => {
    const s = summarize([{ step: sqlite, status: 1, report: report(10, 0, 0, 2) }]);
    expect(s.lines[0]).toBe('SQLite and browser tests: 10 passed, 2 failed');
    expect(s.failed).toBe(2);
  });

  it('a half that said it did not run (exit 0, no report) is shown as NOT RUN; an interrupted run counts what it left', () => {
    expect(summarize([{ step: postgres, status: 0, report: null }])).toMatchObject({
      lines: ['PostgreSQL tests: NOT RUN (see its message above)'],
      failed: 0,
    });
    expect(summarize([{ step: postgres, status: null, report: null }])).toMatchObject({
      lines: ['PostgreSQL tests: NOT RUN (interrupted)'],
      failed: 1,
      exitCode: 1,
    });
  });
});

describe('naming what failed', () => {
  it('lists each failed test with its file and the first line of its message, and a file that failed to load', () => {
    const r = {
      ...report(2, 1, 0, 2),
      testResults: [
        {
          name: '/repo/test/browser/a.test.ts',
          status: 'failed',
          assertionResults: [
            { fullName: 'entry keeps the focus', status: 'passed' },
            {
              fullName: 'entry › types after Void',
              status: 'failed',
              failureMessages: [
                '\n\u001b[31mAssertionError: expected kaf to be okaf\u001b[39m\n    at x.ts:1',
              ],
            },
          ],
        },
        {
          name: '/repo/test/api/b.test.ts',
          status: 'failed',
          message: 'Cannot find module x',
          assertionResults: [],
        },
        {
          name: '/repo/test/api/c.test.ts',
          status: 'passed',
          assertionResults: [{ fullName: 'ok', status: 'passed' }],
        },
      ],
    };
    expect(failedTests(r, '/repo')).toEqual([
      'test/browser/a.test.ts › entry › types after Void: AssertionError: expected kaf to be okaf',
      'test/api/b.test.ts: Cannot find module x',
    ]);
    const s = summarize([{ step: sqlite, status: 1, report: r }]);
    expect(s.failures).toHaveLength(2);
    expect(summarize([{ step: sqlite, status: 0, report: report(3, 0) }]).failures).toEqual([]);
  });

  it('keeps a few lines of each first failure`s message (a seed`s report), without colours or stack', () => {
    const message = [
      '\u001b[31mAssertionError: seed 2 (replay: node … --seed 2)\u001b[39m',
      'operations: {"gift":7}',
      'fields that differ, by read:',
      '  Table B donor cnt_1: totals.count',
      '    at runSeed (convergence.test.ts:40:7)',
      ...Array.from({ length: 20 }, (_, i) => `  read ${i}`),
    ].join('\n');
    const r = {
      testResults: [
        {
          name: '/repo/test/hub/convergence.test.ts',
          status: 'failed',
          assertionResults: [{ fullName: 'seed 2', status: 'failed', failureMessages: [message] }],
        },
      ],
    };
    const [one, ...rest] = failureDetails(r, 3, 5, '/repo');
    expect(rest).toEqual([]);
    expect(one!.split('\n')).toEqual([
      '✗ test/hub/convergence.test.ts › seed 2',
      '    AssertionError: seed 2 (replay: node … --seed 2)',
      '    operations: {"gift":7}',
      '    fields that differ, by read:',
      '      Table B donor cnt_1: totals.count',
      '      read 0',
      '    … 19 more lines in the report',
    ]);
  });
});

describe('running the steps', () => {
  const dir = tempDir('giftdesk-test-all-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const node = process.execPath;
  const writeReport = (file: string, r: object, code: number) =>
    `require("node:fs").writeFileSync(${JSON.stringify(file)}, ${JSON.stringify(JSON.stringify(r))}); process.exit(${code})`;

  it('runs every step after a failing one, reads each half`s own fresh report, and ends non-zero', async () => {
    // A stale report from an earlier run must not be read as this run's.
    fs.writeFileSync(path.join(dir, 'postgres.json'), JSON.stringify(report(999, 0)));
    const steps: Step[] = [
      { name: 'typecheck', command: node, args: ['-e', 'process.exit(2)'] },
      {
        name: 'SQLite and browser tests',
        command: node,
        args: ['-e', writeReport(path.join(dir, 'sqlite.json'), report(7, 1, 1), 1)],
        report: 'sqlite.json',
      },
      { name: 'PostgreSQL tests', command: node, args: ['-e', 'process.exit(1)'], report: 'postgres.json' },
      {
        name: 'after the crash',
        command: node,
        args: ['-e', writeReport(path.join(dir, 'last.json'), report(3, 0), 0)],
        report: 'last.json',
      },
    ];
    const s = summarize(await runSteps(steps, { cwd: dir }));
    expect(s.lines).toEqual([
      'typecheck: FAILED (exited 2)',
      'SQLite and browser tests: 7 passed, 1 failed, 1 skipped',
      'PostgreSQL tests: FAILED, no report (exited 1)',
      'after the crash: 3 passed, 0 failed',
    ]);
    expect([s.passed, s.failed, s.exitCode]).toEqual([10, 3, 1]);
  });

  it('tells the steps to write their reports (GIFTDESK_TEST_REPORT)', async () => {
    const file = path.join(dir, 'env.json');
    const [run] = await runSteps(
      [
        {
          name: 'env',
          command: node,
          args: [
            '-e',
            `if (process.env.GIFTDESK_TEST_REPORT === "1") { ${writeReport(file, report(1, 0), 0)} }`,
          ],
          report: 'env.json',
        },
      ],
      { cwd: dir, env: { ...process.env, GIFTDESK_TEST_REPORT: '' } },
    );
    expect(run?.report).toEqual(report(1, 0));
  });
});
