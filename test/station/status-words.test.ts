/**
 * What the badge and Settings → Sync say at a station of an event hub: the same facts as for
 * HQ, said of the event hub, and a station the hub removed says so whatever else is true.
 */
import { describe, expect, it } from 'vitest';
import { connectionProblem } from '../../electron/sync/net/connection-problem.ts';
import { connectionWords } from '../../renderer/screens/settings/sync-keys.ts';

const base = {
  onlineWindowSeconds: 120,
  lastAnsweredAt: '2026-11-27T19:00:00.000Z',
  lastFailedAt: null,
  lastFailure: null,
  refusedAt: null,
};
const hub = { remoteKind: 'hub' as const, revokedAt: null };

describe('the words at a station', () => {
  it('say "Event hub" where HQ’s words say HQ', () => {
    expect(connectionWords({ ...base, state: 'online' }, null, hub).text).toBe('Event hub connected');
    expect(connectionWords({ ...base, state: 'offline' }, null, hub)).toEqual({
      text: 'Event hub not reachable',
      at: null,
    });
    expect(connectionWords({ ...base, state: 'never' }, null, hub).text).toBe('Event hub not reachable');
    expect(
      connectionWords({ ...base, state: 'offline' }, null, { remoteKind: 'hq', revokedAt: null }).text,
    ).toBe('Offline — HQ not reached since');
    expect(connectionWords({ ...base, state: 'offline' }, null).text).toBe('Offline — HQ not reached since');
  });

  it('say a removed station was removed', () => {
    expect(
      connectionWords({ ...base, state: 'refused' }, null, {
        remoteKind: 'hub',
        revokedAt: '2026-11-27T20:00:00.000Z',
      }).text,
    ).toBe('This station was removed from the event');
  });
});

describe('what is wrong with the connection, at a station', () => {
  const url = 'https://10.0.0.5:4871';
  it('is said of the event hub', () => {
    const refused = {
      networkError: { kind: 'refused' as const, code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
    };
    expect(connectionProblem(refused, url, 'hub')?.sentence).toBe(
      'GiftDesk cannot reach the event hub at https://10.0.0.5:4871: nothing answers at that address and port (the connection was refused). Check the event hub address in the sync settings. If it is right, the event hub may be down.',
    );
    expect(
      connectionProblem({ status: 503, error: { message: 'Service Unavailable' } }, url, 'hub')?.sentence,
    ).toMatch(/^The event hub at https:\/\/10\.0\.0\.5:4871 is failing: it answered 503/);
    expect(connectionProblem(refused, url)?.sentence).toMatch(/^GiftDesk cannot reach HQ at /);
  });
  it('a removed station is told the hub’s own sentence', () => {
    const said =
      'This station was removed from the event at 2026-11-27T20:00:00.000Z: the hub no longer takes its changes.';
    expect(
      connectionProblem({ status: 401, error: { code: 'station_revoked', message: said } }, url, 'hub'),
    ).toEqual({
      kind: 'key',
      field: null,
      sentence: said,
    });
  });
});
