/**
 * The one rule that decides whether an attempt is done, may be retried blindly, or must be
 * reconciled first. A wrong "notApplied" doubles a gift at HQ; a wrong "applied" loses one.
 */
import { describe, expect, it } from 'vitest';
import { classifyOutcome, type AttemptFacts, type Outcome } from '../../electron/sync/net/outcome.ts';

const table: [string, AttemptFacts, Outcome][] = [
  ['201 Created', { sent: true, status: 201 }, 'applied'],
  ['200 OK', { sent: true, status: 200 }, 'applied'],
  ['204 No Content', { sent: true, status: 204 }, 'applied'],
  ['400 validation', { sent: true, status: 400 }, 'notApplied'],
  ['401 bad key', { sent: true, status: 401 }, 'notApplied'],
  ['403 other account', { sent: true, status: 403 }, 'notApplied'],
  ['404 unknown contact', { sent: true, status: 404 }, 'notApplied'],
  ['409 conflict', { sent: true, status: 409 }, 'notApplied'],
  ['413 too large', { sent: true, status: 413 }, 'notApplied'],
  ['429 rate limited', { sent: true, status: 429 }, 'notApplied'],
  ['301 redirect (never followed with a write)', { sent: true, status: 301 }, 'notApplied'],
  ['500 after the remote may have committed', { sent: true, status: 500 }, 'unknown'],
  ['502 from a gateway', { sent: true, status: 502 }, 'unknown'],
  ['503', { sent: true, status: 503 }, 'unknown'],
  ['504 gateway timeout', { sent: true, status: 504 }, 'unknown'],
  ['599', { sent: true, status: 599 }, 'unknown'],
  ['a status outside HTTP', { sent: true, status: 600 }, 'unknown'],
  ['201 whose body was cut off (remote id lost)', { sent: true, status: 201, error: 'reset' }, 'unknown'],
  ['400 whose body was cut off', { sent: true, status: 400, error: 'reset' }, 'notApplied'],
  ['connection refused', { sent: false, error: 'refused' }, 'notApplied'],
  ['DNS failure', { sent: false, error: 'dns' }, 'notApplied'],
  ['refused, even if the caller claims it was sent', { sent: true, error: 'refused' }, 'notApplied'],
  ['connect timed out before sending', { sent: false, error: 'timeout' }, 'notApplied'],
  ['timeout after sending', { sent: true, error: 'timeout' }, 'unknown'],
  ['reset after sending', { sent: true, error: 'reset' }, 'unknown'],
  ['other failure after sending', { sent: true, error: 'other' }, 'unknown'],
  ['TLS failure before sending', { sent: false, error: 'other' }, 'notApplied'],
  ['cancelled before it left', { sent: false, error: 'aborted' }, 'notApplied'],
  ['cancelled while waiting for the answer', { sent: true, error: 'aborted' }, 'unknown'],
  ['sent, nothing known', { sent: true }, 'unknown'],
  ['not sent, nothing known', { sent: false }, 'notApplied'],
];

describe('classifyOutcome', () => {
  it.each(table)('%s → %s', (_name, facts, expected) => {
    expect(classifyOutcome(facts)).toBe(expected);
  });

  it('every 2xx is applied, every 4xx not applied, every 5xx unknown', () => {
    for (let s = 200; s < 600; s++) {
      const want: Outcome = s < 300 ? 'applied' : s < 500 ? 'notApplied' : 'unknown';
      expect(classifyOutcome({ sent: true, status: s }), String(s)).toBe(want);
    }
  });
});
