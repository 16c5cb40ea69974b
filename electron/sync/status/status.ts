/**
 * The sync status: the one answer the header badge, Settings → Sync, the CLI and the API show,
 * read from the database in one place so that no two figures can disagree.
 *
 * - waiting: changes still to go of records that go on their own (not parked for a person),
 *   in a request or not; inFlight: those of them in a request whose answer is not recorded.
 * - needsAttention: the number of records in `attention` — the list itself, same query.
 * - sent: changes HQ confirmed (an applied answer, or found at HQ after an unknown outcome);
 *   never a change merged into nothing or discarded (those count in `done` only).
 * - connection: what the requests found of HQ (reachability.ts), with the window "online" uses;
 *   `lastFailure` is the connection's problem in a coordinator's words (connection-problem.ts).
 * - nextTryAt: when the changes waiting go next on their own — the earliest backoff still
 *   running, not before HQ's pause ends; with none, while HQ does not answer, the next
 *   scheduled pass. Null when nothing waits, or when they go with the next pass in a few
 *   seconds (HQ answers).
 * - remoteKind: 'hub' at a station of an event hub (the app says "Event hub" for "HQ");
 *   revokedAt: when that hub removed this station (nothing is sent any more).
 * - marksKeptHere, marksNote: gifts marked thanked after they reached HQ whose marks HQ did not
 *   take (a spec-only HQ), and the sentence that says so.
 */
import { sql } from 'kysely';
import { reusable } from '../../db/bulk.ts';
import type { Db } from '../../db/store.ts';
import { listAttention, listFailing } from './attention.ts';
import { connectionState, ONLINE_WINDOW_MS } from '../net/reachability.ts';
import { PUSHED_TYPES } from '../outbox/outbox.ts';
import { getRemoteSettings } from '../remote/settings.ts';
import { saidOf } from '../net/remote-words.ts';

/**
 * The outbox of an account, in changes: all still to go, in a request, of parked records. Every
 * status reads it (after every save in gift entry), so named on PostgreSQL, as is the backoff's.
 */
const outboxCountsOf = reusable(
  (db, p) =>
    db
      .selectFrom('changeLog as c')
      .leftJoin('syncItems as i', (j) =>
        j.onRef('i.entityType', '=', 'c.entityType').onRef('i.entityId', '=', 'c.entityId'),
      )
      .select([
        sql<number>`count(*)`.as('all'),
        sql<number>`count(c.attempt_id)`.as('inAttempt'),
        sql<number>`coalesce(sum(case when i.state = 'attention' then 1 else 0 end), 0)`.as('parked'),
        sql<number>`coalesce(sum(case when i.state = 'attention' and c.attempt_id is not null then 1 else 0 end), 0)`.as(
          'parkedInAttempt',
        ),
      ])
      .where('c.accountId', '=', p<string>(0))
      .where('c.push', '=', 1)
      .where('c.syncedAt', 'is', null)
      .where('c.entityType', 'in', PUSHED_TYPES),
  { named: true },
);

async function outboxCounts(
  db: Db,
  accountId: string,
): Promise<{ all: number; inAttempt: number; parked: number; parkedInAttempt: number }> {
  const r = (await outboxCountsOf(db, [accountId])).rows[0] as Record<
    'all' | 'inAttempt' | 'parked' | 'parkedInAttempt',
    number | string
  >;
  return {
    all: Number(r.all),
    inAttempt: Number(r.inAttempt),
    parked: Number(r.parked),
    parkedInAttempt: Number(r.parkedInAttempt),
  };
}

const backoffOf = reusable(
  (db, p) =>
    db
      .selectFrom('syncItems')
      .select((eb) => eb.fn.min('nextTryAt').as('t'))
      .where('accountId', '=', p<string>(0))
      .where('state', '!=', 'attention')
      .where('nextTryAt', '>', p<string>(1)),
  { named: true },
);

/** The earliest backoff of the account's records that go on their own, still running at `now`. */
async function earliestBackoff(db: Db, accountId: string, now: number): Promise<number | null> {
  const r = (await backoffOf(db, [accountId, new Date(now).toISOString()])).rows[0] as
    { t: string | null } | undefined;
  return r?.t ? Date.parse(r.t) : null;
}

/** The whole status, at `now` (ms). */
export async function syncStatus(db: Db, accountId: string, running = false, now = Date.now()) {
  const [settings, counts, attention, failing, backoff] = await Promise.all([
    getRemoteSettings(db, accountId),
    outboxCounts(db, accountId),
    listAttention(db, accountId),
    listFailing(db, accountId),
    earliestBackoff(db, accountId, now),
  ]);
  const pausedUntil =
    settings?.pausedUntil && Date.parse(settings.pausedUntil) > now ? settings.pausedUntil : null;
  const waiting = counts.all - counts.parked;
  const facts = {
    hqAnsweredAt: settings?.hqAnsweredAt ?? null,
    hqFailedAt: settings?.hqFailedAt ?? null,
    hqFailure: settings?.hqFailure ?? null,
    hqRefusedAt: settings?.hqRefusedAt ?? null,
    pausedUntil,
  };
  const state = settings ? connectionState(facts, now) : ('never' as const);
  // While HQ answers, a change with no backoff goes with the pass a few seconds after it was
  // saved (scheduler.ts): no time to name. Otherwise the next scheduled pass takes it.
  const answering = state === 'online' || state === 'quiet';
  const scheduled =
    settings?.lastAttemptAt && Date.parse(settings.lastAttemptAt) + settings.scheduleSeconds * 1000 > now
      ? Date.parse(settings.lastAttemptAt) + settings.scheduleSeconds * 1000
      : null;
  const next = backoff ?? (answering ? null : scheduled);
  const nextTryAt =
    waiting === 0 || !settings
      ? null
      : pausedUntil && (next === null || Date.parse(pausedUntil) > next)
        ? pausedUntil
        : next === null
          ? null
          : new Date(next).toISOString();
  return {
    configured: settings !== null,
    checkedAt: new Date(now).toISOString(),
    waiting,
    inFlight: counts.inAttempt - counts.parkedInAttempt,
    pending: counts.all - counts.inAttempt,
    needsAttention: attention.length,
    attention,
    sent: settings?.sentCount ?? 0,
    done: settings?.doneCount ?? 0,
    connection: {
      state,
      onlineWindowSeconds: ONLINE_WINDOW_MS / 1000,
      lastAnsweredAt: facts.hqAnsweredAt,
      lastFailedAt: facts.hqFailedAt,
      lastFailure: facts.hqFailure,
      refusedAt: facts.hqRefusedAt,
    },
    lastSuccessAt: settings?.lastSuccessAt ?? null,
    lastAttemptAt: settings?.lastAttemptAt ?? null,
    lastError: settings?.lastError ?? null,
    pausedUntil,
    nextTryAt,
    ratePerSecond: settings?.ratePerSecond ?? null,
    currentRate: settings?.currentRate ?? null,
    running,
    failing,
    remoteKind: settings?.kind ?? ('hq' as const),
    revokedAt: settings?.revokedAt ?? null,
    marksKeptHere: settings?.marksKeptHere ?? 0,
    marksNote: settings ? marksNote(settings.marksKeptHere, settings.marksNotTakenAt, settings.kind) : null,
  };
}

/**
 * The one sentence about thank-you marks HQ does not get (push/marks.ts), or null: said once
 * for the account, never as a record needing attention. Said as soon as it is known that HQ
 * takes none (a pull asked, or a mark was refused), before any gift is marked; at a station,
 * once the event hub said its HQ takes none (the marks still go to the hub, which keeps them).
 */
export function marksNote(keptHere: number, notTakenAt: string | null, kind: 'hq' | 'hub'): string | null {
  if (kind === 'hub' && notTakenAt)
    return "The event hub's HQ does not take thank-you marks (it speaks only the donor API): gifts marked thanked here are marked at the event hub too, but not at HQ. Mark them thanked at HQ if HQ needs them.";
  if (keptHere <= 0) {
    if (!notTakenAt || kind !== 'hq') return null;
    return 'HQ does not take thank-you marks (it speaks only the donor API, which cannot change a gift once it has it): a gift marked thanked after it reached HQ stays marked here only. Mark such gifts thanked at HQ if HQ needs them.';
  }
  const gifts = keptHere === 1 ? '1 gift' : `${keptHere} gifts`;
  const why = notTakenAt
    ? 'HQ does not take thank-you marks (its API cannot change a gift once it has it; GiftDesk as HQ can)'
    : 'HQ could not be told (the gift was not linked to its copy at HQ, or HQ did not take marks then)';
  return saidOf(
    kind,
    `Thank-you marks of ${gifts} already at HQ are kept here only: ${why}. Mark them thanked at HQ if HQ needs them.`,
  );
}

/** The account's sentence about thank-you marks HQ does not get (marksNote), or null: for a run that marked gifts. */
export async function marksNoteFor(db: Db, accountId: string): Promise<string | null> {
  const s = await getRemoteSettings(db, accountId);
  return s ? marksNote(s.marksKeptHere, s.marksNotTakenAt, s.kind) : null;
}
