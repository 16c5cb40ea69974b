/**
 * What one attempt at the remote did, as far as the client can know it, and the one rule
 * that turns it into an outcome. Only `unknown` sends an item to reconciliation; only
 * `notApplied` may be retried blindly; `applied` is done.
 */

/**
 * How a request failed without an HTTP status:
 * - `refused`: the connection was refused (ECONNREFUSED) or the host unreachable — nothing left.
 * - `dns`: the name did not resolve (ENOTFOUND, EAI_AGAIN) — nothing left.
 * - `timeout`: our deadline passed (connect, headers or body).
 * - `reset`: the connection was closed or reset under us.
 * - `aborted`: the caller cancelled (shutdown).
 * - `other`: anything else (TLS, a protocol error, an unreadable body).
 */
export type NetworkErrorKind = 'refused' | 'dns' | 'timeout' | 'reset' | 'aborted' | 'other';

export interface AttemptFacts {
  /** Whether any byte of the request may have reached the remote. When in doubt: true. */
  sent: boolean;
  /** The HTTP status, when a response head arrived. */
  status?: number;
  /** Set when the exchange failed: before a response head, or while reading the body. */
  error?: NetworkErrorKind;
}

export type Outcome = 'applied' | 'notApplied' | 'unknown';

/**
 * - applied: a 2xx whose body was read whole.
 * - notApplied: nothing was sent (refused, DNS, any error before a byte left), or the remote
 *   answered 4xx (429 included: a refusal, nothing changed), or 3xx (a redirect is an answer
 *   that the request was not processed here; we never follow one with a write).
 * - unknown: sent and then a timeout, reset or any other failure before the answer was read;
 *   any 5xx (the remote may have committed before failing); a 2xx whose body was lost (it
 *   was applied, but the remote id is unknown, so the item must be found again); any status
 *   outside 200–599.
 */
export function classifyOutcome(a: AttemptFacts): Outcome {
  if (a.status !== undefined) {
    const s = a.status;
    if (s >= 200 && s < 300) return a.error ? 'unknown' : 'applied';
    if (s >= 300 && s < 500) return 'notApplied';
    return 'unknown';
  }
  if (a.error === 'refused' || a.error === 'dns') return 'notApplied';
  return a.sent ? 'unknown' : 'notApplied';
}
