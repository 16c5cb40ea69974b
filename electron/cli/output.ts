/**
 * CLI output: with --json exactly one JSON object on stdout; otherwise words for people.
 * Errors go to stderr with a non-zero exit, never a stack trace.
 */
import { isDomainError } from '../domain/index.ts';

export interface OutputOptions {
  json?: boolean;
}

export function print(opts: OutputOptions, value: object, human: () => string): void {
  process.stdout.write(opts.json ? `${JSON.stringify(value)}\n` : `${human()}\n`);
}

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly code = 'error',
  ) {
    super(message);
  }
}

export function reportError(err: unknown, json: boolean): number {
  let message: string;
  let exitCode = 1;
  let code = 'error';
  let details: unknown;
  if (isDomainError(err)) {
    message = err.message;
    code = err.code;
    details = err.details;
  } else if (err instanceof CliError) {
    message = err.message;
    exitCode = err.exitCode;
    code = err.code;
  } else if (err instanceof Error) {
    message = err.message;
  } else {
    message = String(err);
  }
  process.stderr.write(
    json ? `${JSON.stringify({ error: { code, message, details } })}\n` : `giftdesk: ${message}\n`,
  );
  return exitCode;
}
