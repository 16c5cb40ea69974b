/**
 * What this GiftDesk is in an event, for one account (GET /api/v1/event): the hub of it (the
 * account hosts one), a station of it (its remote is a hub), or neither; as a station, the
 * hub's address and pinned fingerprint, its own id and name there, whether the hub answers,
 * what it has not confirmed yet, whether it was removed, and how many notices it has.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/store.ts';
import { connectionState } from '../net/reachability.ts';
import { PUSHED_TYPES } from '../outbox/outbox.ts';
import { getRemoteSettings } from '../remote/settings.ts';
import { countNotices } from './notices.ts';

export interface EventStatusView {
  role: 'none' | 'hub' | 'station';
  accountId: string | null;
  hubUrl: string | null;
  fingerprint: string | null;
  station: { id: string; name: string } | null;
  reachable: boolean | null;
  lastContactAt: string | null;
  waiting: number;
  revokedAt: string | null;
  notices: number;
}

async function waitingChanges(db: Db, accountId: string): Promise<number> {
  const r = await db
    .selectFrom('changeLog')
    .select(sql<number>`count(*)`.as('n'))
    .where('accountId', '=', accountId)
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .where('entityType', 'in', PUSHED_TYPES)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function eventStatus(db: Db, accountId: string, now = Date.now()): Promise<EventStatusView> {
  const [remote, hosting, waiting] = await Promise.all([
    getRemoteSettings(db, accountId),
    db
      .selectFrom('hubSettings')
      .select(['url', 'fingerprint'])
      .where('accountId', '=', accountId)
      .executeTakeFirst(),
    waitingChanges(db, accountId),
  ]);
  if (remote?.kind === 'hub') {
    const state = connectionState(
      {
        hqAnsweredAt: remote.hqAnsweredAt,
        hqFailedAt: remote.hqFailedAt,
        hqFailure: remote.hqFailure,
        hqRefusedAt: remote.hqRefusedAt,
        pausedUntil: remote.pausedUntil,
      },
      now,
    );
    return {
      role: 'station',
      accountId,
      hubUrl: remote.baseUrl,
      fingerprint: remote.pinnedFingerprint,
      station:
        remote.stationId !== null
          ? { id: remote.stationId, name: remote.stationName ?? remote.stationId }
          : null,
      reachable:
        remote.revokedAt !== null ? false : state === 'online' || state === 'quiet' || state === 'paused',
      lastContactAt: remote.hqAnsweredAt,
      waiting,
      revokedAt: remote.revokedAt,
      notices: await countNotices(db, accountId),
    };
  }
  return {
    role: hosting ? 'hub' : 'none',
    accountId,
    hubUrl: hosting?.url ?? null,
    fingerprint: hosting?.fingerprint ?? null,
    station: null,
    reachable: null,
    lastContactAt: null,
    waiting,
    revokedAt: null,
    notices: 0,
  };
}
