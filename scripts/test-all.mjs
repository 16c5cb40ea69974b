/**
 * `npm test`: every step of the test command — typecheck, lint, format check, the SQLite and
 * browser tests (vitest), the PostgreSQL tests (test/run-postgres.mjs) — each run even when
 * an earlier one failed, its output streamed as it comes. Then one line per step
 * (`typecheck: ok`, `PostgreSQL tests: 732 passed, 0 failed`), a closing
 * `N passed, N failed` over both halves, test-results/summary.json for CI (.ci/run), and a
 * non-zero exit when anything failed.
 *
 * The test halves' counts come from vitest's JSON report (vitest.config.ts writes
 * test-results/<engine>.json when GIFTDESK_TEST_REPORT is set, as here, or in CI). A failed
 * check counts as one failure; so does a half that ended without a report (it crashed) or
 * that exited non-zero with no failed test in its report (an error outside any test): the
 * closing line never says `0 failed` when something failed. Ctrl-C stops after the step
 * running; the steps not run count as failed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @typedef {{ name: string, command: string, args: string[], report?: string }} Step
 *   `report`: the vitest JSON report this step writes (a test half), else it is a check.
 * @typedef {{ fullName?: string, title?: string, status: string, failureMessages?: string[] }} VitestAssertion
 * @typedef {{ name: string, status?: string, message?: string, assertionResults?: VitestAssertion[] }} VitestFile
 * @typedef {{ numPassedTests: number, numFailedTests: number, numPendingTests: number,
 *   numTodoTests: number, numFailedTestSuites: number, testResults?: VitestFile[] }} VitestReport
 * @typedef {{ step: Step, status: number | string | null, report: VitestReport | null }} StepRun
 *   `status`: the exit code, a signal's name, or null when the step was not run.
 * @typedef {{ line: string, passed: number, failed: number, skipped: number }} StepResult
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @type {Step[]} */
export const STEPS = [
  { name: 'typecheck', command: 'npm', args: ['run', 'typecheck'] },
  { name: 'lint', command: 'npm', args: ['run', 'lint'] },
  { name: 'format check', command: 'npm', args: ['run', 'format:check'] },
  {
    name: 'SQLite and browser tests',
    command: 'npx',
    args: ['vitest', 'run'],
    report: 'test-results/sqlite.json',
  },
  {
    name: 'PostgreSQL tests',
    command: process.execPath,
    args: ['test/run-postgres.mjs'],
    report: 'test-results/postgres.json',
  },
];

/** @param {number | string} status */
const exited = (status) => (typeof status === 'string' ? `killed by ${status}` : `exited ${status}`);

/**
 * What one step did, as its summary line and counts.
 * @param {StepRun} run
 * @returns {StepResult}
 */
export function stepResult({ step, status, report }) {
  if (status === null)
    return { line: `${step.name}: NOT RUN (interrupted)`, passed: 0, failed: 1, skipped: 0 };
  const ok = status === 0;
  if (!step.report) {
    return ok
      ? { line: `${step.name}: ok`, passed: 0, failed: 0, skipped: 0 }
      : { line: `${step.name}: FAILED (${exited(status)})`, passed: 0, failed: 1, skipped: 0 };
  }
  if (!report) {
    // A half that exits 0 without a report did not run its tests, and said so (the PostgreSQL
    // half without a server, outside CI); anything else without a report crashed.
    return ok
      ? { line: `${step.name}: NOT RUN (see its message above)`, passed: 0, failed: 0, skipped: 0 }
      : { line: `${step.name}: FAILED, no report (${exited(status)})`, passed: 0, failed: 1, skipped: 0 };
  }
  const passed = report.numPassedTests;
  const skipped = report.numPendingTests + report.numTodoTests;
  // A file that failed to load counts once; an error outside any test (vitest exits non-zero
  // with no failed test) counts once too.
  let failed = report.numFailedTests || report.numFailedTestSuites;
  const note = !ok && failed === 0 ? ` (${exited(status)} with no failed test: see the output above)` : '';
  if (!ok) failed = Math.max(failed, 1);
  const counts = `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
  return { line: `${step.name}: ${counts}${note}`, passed, failed, skipped };
}

const MAX_FAILURES_SHOWN = 30;

/** @param {string | undefined} text */
const firstLine = (text) => {
  const line = (text ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
  // Colour codes are taken out.
  const plain = line.replace(/\u001b\[[0-9;]*m/g, '').trim();
  return plain.length > 200 ? `${plain.slice(0, 199)}…` : plain;
};

/**
 * The tests (and test files that failed to load) a half's report names as failed, one line
 * each: `file › test name: the first line of its message`, so a run's last lines say what
 * failed even when only its end is kept.
 * @param {VitestReport | null} report
 * @param {string} cwd
 * @returns {string[]}
 */
export function failedTests(report, cwd = ROOT) {
  if (!report?.testResults) return [];
  /** @type {string[]} */
  const out = [];
  for (const file of report.testResults) {
    const rel = path.isAbsolute(file.name) ? path.relative(cwd, file.name) : file.name;
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) {
      out.push(`${rel} › ${a.fullName ?? a.title ?? '?'}: ${firstLine(a.failureMessages?.[0])}`);
    }
    if (failed.length === 0 && file.status === 'failed') out.push(`${rel}: ${firstLine(file.message)}`);
  }
  return out;
}

/**
 * The first failures' messages, a few lines each (colour codes out), printed just above the
 * closing lines: a run whose output is kept only at its end still says why a test failed,
 * not only which (a randomised check's report names the seed and what differed).
 * @param {VitestReport | null} report
 * @param {number} maxFailures
 * @param {number} maxLines
 * @param {string} cwd
 * @returns {string[]}
 */
export function failureDetails(report, maxFailures = 3, maxLines = 14, cwd = ROOT) {
  if (!report?.testResults) return [];
  /** @type {string[]} */
  const out = [];
  for (const file of report.testResults) {
    const rel = path.isAbsolute(file.name) ? path.relative(cwd, file.name) : file.name;
    for (const a of (file.assertionResults ?? []).filter((x) => x.status === 'failed')) {
      if (out.length >= maxFailures) return out;
      const lines = (a.failureMessages?.[0] ?? '')
        .replace(/\u001b\[[0-9;]*m/g, '')
        .split('\n')
        .filter((l) => l.trim() !== '' && !/^\s+at /.test(l))
        .map((l) => (l.length > 240 ? `${l.slice(0, 239)}…` : l));
      const shown = lines.slice(0, maxLines);
      if (lines.length > maxLines) shown.push(`… ${lines.length - maxLines} more lines in the report`);
      out.push([`✗ ${rel} › ${a.fullName ?? a.title ?? '?'}`, ...shown.map((l) => `    ${l}`)].join('\n'));
    }
  }
  return out;
}

/**
 * Every step's line, the totals over all of them, and the exit code of the whole run.
 * @param {StepRun[]} runs
 */
export function summarize(runs) {
  const results = runs.map(stepResult);
  const all = runs.flatMap((r) => failedTests(r.report));
  const failures =
    all.length > MAX_FAILURES_SHOWN
      ? [...all.slice(0, MAX_FAILURES_SHOWN), `… and ${all.length - MAX_FAILURES_SHOWN} more`]
      : all;
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  const skipped = results.reduce((n, r) => n + r.skipped, 0);
  return {
    lines: results.map((r) => r.line),
    failures,
    passed,
    failed,
    skipped,
    exitCode: failed > 0 ? 1 : 0,
  };
}

/** @param {string} file @returns {VitestReport | null} */
function readReport(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Runs each step in turn, output inherited, whatever the one before did; a step's old report
 * is removed first, so a report read afterwards is this run's. Stops after the step running
 * when the run is interrupted (the steps left have status null).
 * @param {Step[]} steps
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv }} [opts]
 * @returns {Promise<StepRun[]>}
 */
export async function runSteps(steps, opts = {}) {
  const cwd = opts.cwd ?? ROOT;
  const env = { ...(opts.env ?? process.env), GIFTDESK_TEST_REPORT: '1' };
  /** @type {StepRun[]} */
  const runs = [];
  let interrupted = false;
  /** @type {import('node:child_process').ChildProcess | null} */
  let child = null;
  /** @param {NodeJS.Signals} sig */
  const onSignal = (sig) => {
    interrupted = true;
    // Ctrl-C reaches the child too (same process group); a signal sent to this process alone is passed on.
    child?.kill(sig);
  };
  const signals = /** @type {NodeJS.Signals[]} */ (['SIGINT', 'SIGTERM', 'SIGHUP']);
  for (const sig of signals) process.on(sig, onSignal);
  try {
    for (const step of steps) {
      if (interrupted) {
        runs.push({ step, status: null, report: null });
        continue;
      }
      const report = step.report ? path.resolve(cwd, step.report) : null;
      if (report) fs.rmSync(report, { force: true });
      const shown = step.command === process.execPath ? 'node' : step.command;
      process.stderr.write(`\n== ${step.name}: ${[shown, ...step.args].join(' ')}\n`);
      const status = await new Promise((resolve) => {
        const c = spawn(step.command, step.args, {
          cwd,
          env,
          stdio: 'inherit',
          shell: process.platform === 'win32',
        });
        child = c;
        c.on('error', (err) => {
          process.stderr.write(`could not run ${step.command}: ${err.message}\n`);
          resolve(127);
        });
        c.on('close', (code, signal) => resolve(code ?? signal ?? 1));
      });
      child = null;
      runs.push({ step, status, report: report ? readReport(report) : null });
    }
  } finally {
    for (const sig of signals) process.off(sig, onSignal);
  }
  return runs;
}

async function main() {
  const runs = await runSteps(STEPS);
  const s = summarize(runs);
  fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, 'test-results', 'summary.json'),
    `${JSON.stringify({ passed: s.passed, failed: s.failed, skipped: s.skipped, steps: s.lines, failures: s.failures }, null, 2)}\n`,
  );
  const details = runs.flatMap((r) => failureDetails(r.report)).slice(0, 3);
  if (details.length > 0) console.log(`\n== what the first failures said\n${details.join('\n')}`);
  const failures = s.failures.length > 0 ? `\n== failed\n${s.failures.map((f) => `✗ ${f}`).join('\n')}` : '';
  console.log(
    `\n== npm test: each step\n${s.lines.join('\n')}${failures}\n${s.passed} passed, ${s.failed} failed`,
  );
  process.exit(s.exitCode);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
