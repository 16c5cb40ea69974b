// Types of scripts/test-all.mjs (`npm test`'s runner), for the test of its decisions.
export interface Step {
  name: string;
  command: string;
  args: string[];
  /** The vitest JSON report this step writes (a test half); without it the step is a check. */
  report?: string;
}
export interface VitestAssertion {
  fullName?: string;
  title?: string;
  status: string;
  failureMessages?: string[];
}
export interface VitestFile {
  name: string;
  status?: string;
  message?: string;
  assertionResults?: VitestAssertion[];
}
export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numFailedTestSuites: number;
  testResults?: VitestFile[];
}
export interface StepRun {
  step: Step;
  /** The exit code, a signal's name, or null when the step was not run. */
  status: number | string | null;
  report: VitestReport | null;
}
export interface StepResult {
  line: string;
  passed: number;
  failed: number;
  skipped: number;
}
export const STEPS: Step[];
export function stepResult(run: StepRun): StepResult;
/** `file › test name: first line of its message` for each failed test or file that failed to load. */
export function failedTests(report: VitestReport | null, cwd?: string): string[];
export function failureDetails(
  report: Partial<VitestReport> | null,
  maxFailures?: number,
  maxLines?: number,
  cwd?: string,
): string[];
export function summarize(runs: StepRun[]): {
  lines: string[];
  /** What failed, a line each (at most 30, then how many more). */
  failures: string[];
  passed: number;
  failed: number;
  skipped: number;
  exitCode: number;
};
export function runSteps(steps: Step[], opts?: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<StepRun[]>;
