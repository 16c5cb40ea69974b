/**
 * The one error type the domain throws for a request it refuses. The server turns it into
 * the API's error body; the CLI prints its message. Anything else thrown is a bug (500,
 * logged, never shown).
 */
import type { ErrorBody } from '#shared/schemas/common.ts';

export interface FieldIssue {
  field: string;
  issue: string;
}

/**
 * bad_gateway: HQ (the sync remote) could not be read or answered wrongly — not the caller's
 * fault, not a bug. too_many_requests: a remote asked to wait (an event hub after wrong
 * pairing codes), passed on. unavailable: a remote this request needs (a station's event hub)
 * does not answer; nothing was changed.
 */
export type ErrorKind =
  | 'bad_request'
  | 'not_found'
  | 'forbidden'
  | 'conflict'
  | 'unauthorized'
  | 'bad_gateway'
  | 'too_many_requests'
  | 'unavailable';

const STATUS: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  bad_gateway: 502,
  too_many_requests: 429,
  unavailable: 503,
};

/** What an error body carries beyond its code, message and details: one error's own facts. */
export type ErrorExtra = Pick<ErrorBody, 'importedBefore'>;

export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details?: FieldIssue[],
    readonly extra?: ErrorExtra,
  ) {
    super(message);
    this.name = 'DomainError';
    this.status = STATUS[kind];
  }
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}

/** 400 naming one field. */
export function invalidField(field: string, issue: string, code = 'validation_failed'): DomainError {
  return new DomainError('bad_request', code, `${field} ${issue}`, [{ field, issue }]);
}

/** 404 for a referenced record that does not exist in the account. */
export function notFound(what: string, field: string, id: string, code?: string): DomainError {
  return new DomainError(
    'not_found',
    code ?? `${what.replace(/ /g, '_')}_not_found`,
    `${what[0]?.toUpperCase()}${what.slice(1)} ${id} was not found`,
    [{ field, issue: 'does not exist in this account' }],
  );
}

/**
 * Thrown inside a create's write when the account already holds a record created with the
 * same sync reference: the write is rolled back (nothing of it stays), and the create answers
 * that record instead (createDonationOnce, createContactOnce).
 */
export class ReferenceHeld extends Error {
  constructor(readonly reference: string) {
    super(`a record with sync reference ${reference} exists already`);
  }
}
