/**
 * What the badge and Settings → Sync say at a station of an event hub: the same facts as for
 * HQ, said of the event hub, and a station the hub removed says so whatever else is true.
 */
import { describe, expect, it } from 'vitest';
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
