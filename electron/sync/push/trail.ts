/**
 * Who did what, carried on to a GiftDesk HQ: after a pass sent the records, the history made here
 * goes after them (`POST /history`, GiftDesk HQ's extension; domain/limits/trail.ts takes it).
 *
 * - What goes: who entered each gift (the person and the station it was typed at; a gift with
 *   neither, a script's or an import's, has nothing to say), and each entry of a gift's or
 *   donor's history made by someone (corrections, voids, marks, reviews, donor edits; a flag
 *   GiftDesk raised itself does not: HQ raises its own). Only once the record is at HQ (linked).
 * - Who: the person's name and the station's, as recorded here — never the key that carries it,
 *   which HQ keeps beside. An entry a bare key made (a script's, a window with no one signed in)
 *   is not sent: it would name a key HQ does not know; it is written down as done.
 * - Exactly once: an entry is sent under a stable id (a history row's own id; `entered:` and the
 *   gift's sync identity, so a replacement hub names it alike) and HQ takes each id once. It is
 *   written down as sent (`sync_trail_sent`) only after HQ answered; a lost answer, a 5xx or a
 *   kill -9 before that sends it again, which HQ absorbs. Nothing is lost: the entries are
 *   written with their change, and stay until HQ confirmed them.
 * - Only to a GiftDesk HQ: an HQ of the donor API alone is never sent any of it, not even a
 *   question. A GiftDesk HQ names its extensions in a header of every answer
 *   (`X-GiftDesk-Extensions: history`, under-lease.ts reads it); the pass's own requests tell.
 *   When this process has had no answer from HQ yet (the records all went before a restart),
 *   one spec read asks (GET /contacts, one record). Never at a station: its hub records who did
 *   what itself, and carries it on.
 * - A failure stops the rest for this pass; the next pass sends what is left.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Db, Store } from '../../db/store.ts';
import type { TrailEntry } from '#shared/schemas/history.ts';
import type { RemoteResult } from '../net/http-client.ts';
import type { RemoteConfig } from '../remote/settings.ts';
import { stationNames } from '../../domain/who.ts';
import { identityOf } from './sync-identity.ts';
import { type LeasedRemote, LostLease } from './under-lease.ts';
import type { RemoteClient } from '../net/http-client.ts';

export const TRAIL_PATH = '/history';
const BATCH = 100;
const BATCHES_PER_PASS = 20;

/** An entry to send, with the key it is written down under here once HQ has it. */
interface Pending {
  key: string;
  entry: TrailEntry | null;
}

/** What the trail needs of the remote: a POST, a spec read, and whether HQ named the extension. */
export interface TrailRemote {
  post(path: string, body: unknown): Promise<RemoteResult>;
  read(path: string, query: Record<string, string | number>): Promise<RemoteResult>;
  takesHistory(): boolean | null;
}

/** The engine's leased remote as the trail uses it. */
export function trailRemote(remote: LeasedRemote, client: RemoteClient): TrailRemote {
  return {
    post: (path, body) => remote.request(client, 'POST', path, body),
    read: (path, query) => remote.request(client, 'GET', path, undefined, query),
    takesHistory: () => {
      const named = remote.extensions(client);
      return named === null ? null : named.has('history');
    },
  };
}

const notSent = (accountId: string, key: RawBuilder<string>) =>
  sql<boolean>`not exists (select 1 from sync_trail_sent s where s.account_id = ${accountId} and s.entry_id = ${key})`;

function parse(detail: string | null): Record<string, unknown> | null {
  try {
    const d: unknown = detail ? JSON.parse(detail) : null;
    return typeof d === 'object' && d !== null ? (d as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Who made the entry, as HQ keeps it: the person's name and the station's. */
function byOf(
  b: { name: string | null; stationId: string | null; stationName: string | null },
  names: ReadonlyMap<string, string>,
): TrailEntry['by'] {
  const stationName =
    b.stationName ?? (b.stationId !== null ? (names.get(b.stationId) ?? b.stationId) : null);
  return { name: b.name, stationName, keyId: null };
}

/** A stored history row as an entry for HQ; null when no one made it (GiftDesk's own flag). */
function entryOfRow(
  r: {
    id: string;
    action: string;
    note: string | null;
    detail: string | null;
    createdAt: string;
    remoteId: string;
  },
  record: TrailEntry['record'],
  names: ReadonlyMap<string, string>,
): TrailEntry | null {
  const d = parse(r.detail);
  const b = d && typeof d.by === 'object' && d.by !== null ? (d.by as Record<string, unknown>) : null;
  const stationId = text(b?.stationId) ?? text(d?.station);
  // Made by a person or at a station: a bare key's (a script's, a window with no one signed in)
  // says nothing at HQ, nor does GiftDesk's own (a flag).
  if (!text(b?.name) && !stationId && !text(b?.stationName)) return null;
  const by = byOf({ name: text(b?.name), stationId, stationName: text(b?.stationName) }, names);
  const changes = (Array.isArray(d?.changes) ? (d.changes as unknown[]) : []).flatMap((c) => {
    const o = typeof c === 'object' && c !== null ? (c as Record<string, unknown>) : null;
    const v = (x: unknown) =>
      typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean' ? x : null;
    return o && typeof o.field === 'string'
      ? [{ field: o.field, before: v(o.before), after: v(o.after) }]
      : [];
  });
  const fields = Array.isArray(d?.fields) ? (d.fields as unknown[]).filter((f) => typeof f === 'string') : [];
  return {
    id: r.id,
    record,
    recordId: r.remoteId,
    action: r.action,
    at: r.createdAt,
    note: r.note === null ? null : r.note.slice(0, 2000),
    by,
    fields: fields.slice(0, 200),
    changes: changes.slice(0, 200),
  };
}

/** The next entries of this account still to go, oldest first per kind, up to `limit`. */
export async function pendingTrail(db: Db, accountId: string, limit = BATCH): Promise<Pending[]> {
  const names = await stationNames(db, accountId);
  const out: Pending[] = [];
  const gifts = await db
    .selectFrom('donations as d')
    .innerJoin('syncLinks as l', (j) =>
      j.onRef('l.localId', '=', 'd.id').on('l.entityType', '=', 'donation').on('l.accountId', '=', accountId),
    )
    .select(['d.id', 'd.createdAt', 'd.stationId', 'd.enteredByName', 'l.remoteId'])
    .where('d.accountId', '=', accountId)
    .where((eb) => eb.or([eb('d.enteredByName', 'is not', null), eb('d.stationId', 'is not', null)]))
    .where(notSent(accountId, sql<string>`'entered:' || d.id`))
    .orderBy('d.createdAt')
    .orderBy('d.id')
    .limit(limit)
    .execute();
  for (const g of gifts)
    out.push({
      key: `entered:${g.id}`,
      entry: {
        id: `entered:${await identityOf(db, 'donation', g.id)}`,
        record: 'donation',
        recordId: g.remoteId,
        action: 'entered',
        at: g.createdAt,
        note: null,
        by: byOf({ name: g.enteredByName, stationId: g.stationId, stationName: null }, names),
        fields: [],
        changes: [],
      },
    });
  const cols = ['h.id', 'h.action', 'h.note', 'h.detail', 'h.createdAt', 'l.remoteId'] as const;
  const giftRows = await db
    .selectFrom('donationHistory as h')
    .innerJoin('syncLinks as l', (j) =>
      j
        .onRef('l.localId', '=', 'h.donationId')
        .on('l.entityType', '=', 'donation')
        .on('l.accountId', '=', accountId),
    )
    .select(cols)
    .where('h.action', '!=', 'entered')
    .where(notSent(accountId, sql<string>`h.id`))
    .orderBy('h.createdAt')
    .orderBy('h.id')
    .limit(Math.max(0, limit - out.length))
    .execute();
  for (const r of giftRows) out.push({ key: r.id, entry: entryOfRow(r, 'donation', names) });
  const donorRows = await db
    .selectFrom('contactHistory as h')
    .innerJoin('syncLinks as l', (j) =>
      j
        .onRef('l.localId', '=', 'h.contactId')
        .on('l.entityType', '=', 'contact')
        .on('l.accountId', '=', accountId),
    )
    .select(cols)
    .where('h.accountId', '=', accountId)
    .where(notSent(accountId, sql<string>`h.id`))
    .orderBy('h.createdAt')
    .orderBy('h.id')
    .limit(Math.max(0, limit - out.length))
    .execute();
  for (const r of donorRows) out.push({ key: r.id, entry: entryOfRow(r, 'contact', names) });
  return out;
}

async function markSent(store: Store, accountId: string, keys: readonly string[], at: string): Promise<void> {
  if (keys.length === 0) return;
  await store.write((trx) =>
    trx
      .insertInto('syncTrailSent')
      .values(keys.map((entryId) => ({ accountId, entryId, sentAt: at })))
      .onConflict((oc) => oc.columns(['accountId', 'entryId']).doNothing())
      .execute(),
  );
}

/**
 * Sends this account's history still to go to its GiftDesk HQ; answers how many requests it made.
 * Sends nothing at a station, nor to an HQ that is not GiftDesk.
 */
export async function sendTrail(
  store: Store,
  cfg: Pick<RemoteConfig, 'accountId' | 'remoteAccountId' | 'kind'>,
  clock: () => number,
  remote: TrailRemote,
): Promise<number> {
  if (cfg.kind !== 'hq') return 0;
  let requests = 0;
  try {
    for (let n = 0; n < BATCHES_PER_PASS; n++) {
      const pending = await pendingTrail(store.db, cfg.accountId);
      if (pending.length === 0) return requests;
      const entries = pending.flatMap((p) => (p.entry ? [p.entry] : []));
      if (entries.length > 0) {
        if (remote.takesHistory() === null) {
          requests++;
          await remote.read('/contacts', { accountId: cfg.remoteAccountId, limit: 1 });
        }
        if (remote.takesHistory() !== true) return requests;
        requests++;
        const res = await remote.post(TRAIL_PATH, { accountId: cfg.remoteAccountId, entries });
        if (res.outcome !== 'applied') return requests; // again next pass; HQ takes each id once
      }
      await markSent(
        store,
        cfg.accountId,
        pending.map((p) => p.key),
        new Date(clock()).toISOString(),
      );
      if (pending.length < BATCH) return requests;
    }
  } catch (err) {
    if (!(err instanceof LostLease)) throw err;
  }
  return requests;
}
