/**
 * An error from the API (or from reaching it), carrying the server's `details` so a form
 * can show each message at the field it names.
 */
import { ErrorBody, type ImportedBefore } from '#shared/schemas/common.ts';

export interface FieldIssue {
  field: string;
  issue: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: FieldIssue[];
  readonly retryAfter: number | null;
  /** `imported_before`: the earlier import of the same file. */
  readonly importedBefore: ImportedBefore | null;

  constructor(
    status: number,
    code: string,
    message: string,
    details: FieldIssue[] = [],
    retryAfter: number | null = null,
    importedBefore: ImportedBefore | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.retryAfter = retryAfter;
    this.importedBefore = importedBefore;
  }

  /** The issue the server named for `field` (exact path, e.g. "donationAmount" or "addresses[0].city"). */
  issueFor(field: string): string | undefined {
    return this.details.find((d) => d.field === field)?.issue;
  }

  /** True when the server could not be reached at all (nothing was saved). */
  get isNetwork(): boolean {
    return this.status === 0 && this.code === 'network';
  }

  /** True when the server did not answer in time (a write may or may not have gone through). */
  get isTimeout(): boolean {
    return this.status === 0 && this.code === 'timeout';
  }

  static fromBody(status: number, body: unknown): ApiError {
    const parsed = ErrorBody.safeParse(body);
    if (parsed.success) {
      const b = parsed.data;
      return new ApiError(
        b.statusCode || status,
        b.code,
        b.message,
        b.details ?? [],
        b.retryAfter ?? null,
        b.importedBefore ?? null,
      );
    }
    return new ApiError(
      status,
      'unexpected_response',
      `The server answered ${status} without an explanation`,
    );
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** A sentence for people, whatever was thrown. */
export function errorMessage(e: unknown): string {
  if (isApiError(e)) return e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}

/**
 * A write that failed, in a sentence: "Not saved: <why>". When no answer came in time the
 * write may have gone through, so the error's own words are said instead.
 */
export function failedWrite(notDone: string, e: unknown): string {
  return isApiError(e) && e.isTimeout ? e.message : `${notDone}: ${errorMessage(e)}`;
}
