/**
 * The event's words in the app: a station's close-out line, where the hub's refusals of a join
 * go, a station named on the board, and the QR code's matrix (a total by payment method is
 * read in the browser test's close-out).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../renderer/api/errors.ts';
import {
  clockTime,
  completeness,
  joinFieldOf,
  shortId,
  stationLabel,
} from '../../renderer/screens/event/event-words.ts';
import { qrPath } from '../../renderer/screens/event/qr-matrix.ts';

const station = {
  id: 'sta_01',
  name: 'Table B',
  gifts: 40,
  total: 4000,
  byMethod: {},
  complete: false,
  state: 'waiting' as 'complete' | 'waiting' | 'not_reported' | 'revoked',
  reportedEntered: 41 as number | null,
  reportedLastSeq: 90,
  waiting: 1 as number | null,
  reportedAt: '2026-11-28T02:00:00.000Z' as string | null,
  revokedAt: null as string | null,
  lastSeenAt: null,
  batches: [],
};

describe('a station in the close-out', () => {
  it('says what it entered against what the hub holds', () => {
    expect(completeness(station)).toBe(
      'Table B says it entered 41 gifts; the hub holds 40 — 1 still waiting.',
    );
    expect(completeness({ ...station, gifts: 41, waiting: 0, complete: true, state: 'complete' })).toBe(
      'Table B says it entered 41 gifts; the hub holds 41. Complete.',
    );
    expect(completeness({ ...station, gifts: 41, waiting: 2 })).toBe(
      'Table B says it entered 41 gifts; the hub holds 41 — 2 changes still waiting.',
    );
    expect(completeness({ ...station, reportedEntered: null, reportedAt: null, state: 'not_reported' })).toBe(
      'Table B has not reported yet; the hub holds 40 gifts.',
    );
  });

  it('is never complete from a report before the hub started again, nor once removed', () => {
    expect(completeness({ ...station, gifts: 41, waiting: 0, state: 'not_reported' })).toBe(
      'Table B has not reported since the hub started serving again; the hub holds 41 gifts. Not complete until it does.',
    );
    const at = '2026-11-28T03:05:00.000Z';
    expect(completeness({ ...station, gifts: 41, waiting: 0, state: 'revoked', revokedAt: at })).toBe(
      `Table B: revoked — not known after ${clockTime(at)}; the hub holds 41 gifts. What it typed since stays on that laptop until it pairs again.`,
    );
    expect(clockTime(at)).toMatch(/^\d\d:\d\d$/);
  });
});

describe('a refused join', () => {
  it('goes to the field to check', () => {
    const err = (status: number, code: string) => new ApiError(status, code, 'x');
    expect(joinFieldOf(err(403, 'pairing_code_used'))).toBe('code');
    expect(joinFieldOf(err(403, 'pairing_code_expired'))).toBe('code');
    expect(joinFieldOf(err(429, 'too_many_requests'))).toBe('code');
    expect(joinFieldOf(err(400, 'hub_fingerprint_mismatch'))).toBe('fingerprint');
    expect(joinFieldOf(err(502, 'hub_unreachable'))).toBe('url');
    expect(joinFieldOf(err(409, 'already_a_station'))).toBeNull();
    expect(joinFieldOf(new Error('x'))).toBeNull();
  });
});

describe('the board', () => {
  it('names each station as seen from here', () => {
    const row = { count: 1, total: 1 };
    expect(stationLabel({ ...row, where: 'here', stationId: null, stationName: null }, 'hub')).toBe(
      'The hub (this laptop)',
    );
    expect(stationLabel({ ...row, where: 'here', stationId: null, stationName: 'Table D' }, 'station')).toBe(
      'Table D (this station)',
    );
    expect(stationLabel({ ...row, where: 'hub', stationId: null, stationName: null }, 'station')).toBe(
      'The hub',
    );
    expect(
      stationLabel({ ...row, where: 'station', stationId: 'sta_01JX4Q', stationName: null }, 'station'),
    ).toBe('Station 01JX4Q');
    expect(shortId('sta_01JX4Q9ZK8M2')).toBe('01JX4Q9Z');
  });
});

describe('the QR code', () => {
  it('is a square of modules with its quiet zone, the same for the same link', () => {
    const link = `https://192.168.1.20:4871/join#code=ABCD-EFGH&fingerprint=sha256%3A${'ab%3A'.repeat(31)}ab`;
    const a = qrPath(link);
    expect(a.size).toBeGreaterThanOrEqual(21 + 8);
    expect((a.size - 8 - 17) % 4).toBe(0); // 17 + 4 × version
    expect(a.d).toMatch(/^M4 4h1v1h-1z/); // the finder pattern's corner, inside the quiet zone
    expect(qrPath(link)).toEqual(a);
    expect(qrPath(`${link}x`).d).not.toBe(a.d);
  });
});
