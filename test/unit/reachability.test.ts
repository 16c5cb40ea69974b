/**
 * What an answer from HQ counts as, and what the recorded answers say of HQ now: the rules
 * behind the badge's words (electron/sync/net/reachability.ts). The states reached only with time
 * (quiet: HQ's last answer is over two minutes old; paused) are checked here at fixed times.
 */
import { describe, expect, it } from 'vitest';
import {
  classifyAnswer,
  connectionState,
  type ConnectionFacts,
} from '../../electron/sync/net/reachability.ts';
import type { RemoteResult } from '../../electron/sync/net/http-client.ts';

const HQ = 'https://hq.example.org/api/v1';
const at = (s: string) => `2026-03-07T19:${s}.000Z`;
const now = Date.parse(at('10:00'));
const none: ConnectionFacts = {
  hqAnsweredAt: null,
  hqFailedAt: null,
  hqFailure: null,
  hqRefusedAt: null,
  pausedUntil: null,
};
const answer = (r: Partial<RemoteResult>): RemoteResult => ({
  outcome: 'applied',
  sent: true,
  sentAt: now,
  ...r,
});

describe('classifyAnswer', () => {
  it.each([
    [{ status: 201 }, 'answered'],
    [{ status: 400, outcome: 'notApplied' as const }, 'answered'],
    [{ status: 404, outcome: 'notApplied' as const }, 'answered'],
    [{ status: 429, outcome: 'notApplied' as const }, 'answered'],
    [{ status: 401, outcome: 'notApplied' as const }, 'refused'],
    [{ status: 403, outcome: 'notApplied' as const }, 'refused'],
    [{ status: 302, outcome: 'notApplied' as const }, 'failed'],
    [{ status: 503, outcome: 'unknown' as const }, 'failed'],
    [
      {
        status: undefined,
        sent: false,
        outcome: 'notApplied' as const,
        networkError: {
          kind: 'refused' as const,
          code: 'ECONNREFUSED',
          message: 'connect ECONNREFUSED 127.0.0.1:9',
        },
      },
      'failed',
    ],
    [
      {
        status: undefined,
        outcome: 'unknown' as const,
        networkError: { kind: 'timeout' as const, message: 'No answer within 15000 ms' },
      },
      'failed',
    ],
    [
      {
        status: 200,
        outcome: 'unknown' as const,
        networkError: { kind: 'reset' as const, message: 'other side closed' },
      },
      'failed',
    ],
  ])('%j is %s', (r, kind) => {
    expect(classifyAnswer(answer(r), HQ)?.kind).toBe(kind);
  });

  it('a request we cancelled ourselves (shutdown) says nothing of HQ', () => {
    expect(
      classifyAnswer(
        answer({
          status: undefined,
          outcome: 'notApplied',
          sent: false,
          networkError: { kind: 'aborted', message: 'Cancelled before the request was sent' },
        }),
        HQ,
      ),
    ).toBeNull();
  });

  it('a failure says what happened, in words a coordinator can act on', () => {
    expect(
      classifyAnswer(
        answer({
          status: undefined,
          sent: false,
          outcome: 'notApplied',
          networkError: { kind: 'refused', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
        }),
        HQ,
      )?.note,
    ).toBe(
      'GiftDesk cannot reach HQ at https://hq.example.org: nothing answers at that address and port (the connection was refused). Check the HQ address in the sync settings. If it is right, HQ may be down.',
    );
  });
});

describe('connectionState', () => {
  it('never: no answer yet, tried or not', () => {
    expect(connectionState(none, now)).toBe('never');
    expect(connectionState({ ...none, hqFailedAt: at('09:50') }, now)).toBe('never');
  });
  it('online within two minutes of an answer, quiet after (nothing asked HQ since), offline once a later request failed', () => {
    expect(connectionState({ ...none, hqAnsweredAt: at('08:01') }, now)).toBe('online');
    expect(connectionState({ ...none, hqAnsweredAt: at('07:59') }, now)).toBe('quiet');
    expect(connectionState({ ...none, hqAnsweredAt: at('09:00'), hqFailedAt: at('08:30') }, now)).toBe(
      'online',
    );
    expect(connectionState({ ...none, hqAnsweredAt: at('09:00'), hqFailedAt: at('09:30') }, now)).toBe(
      'offline',
    );
  });
  it('paused while HQ’s pause lasts; refused when HQ’s last answer refused the key, whatever came later', () => {
    expect(connectionState({ ...none, hqAnsweredAt: at('09:59'), pausedUntil: at('10:30') }, now)).toBe(
      'paused',
    );
    expect(connectionState({ ...none, hqAnsweredAt: at('09:59'), pausedUntil: at('09:30') }, now)).toBe(
      'online',
    );
    expect(
      connectionState(
        {
          ...none,
          hqAnsweredAt: at('09:00'),
          hqRefusedAt: at('09:30'),
          hqFailedAt: at('09:50'),
          pausedUntil: at('10:30'),
        },
        now,
      ),
    ).toBe('refused');
    expect(connectionState({ ...none, hqRefusedAt: at('09:30'), hqAnsweredAt: at('09:40') }, now)).toBe(
      'online',
    );
  });
});
