/**
 * Sync state in the database (tables: migrations/2026-11-24T1600-sync.ts).
 *
 * The id map (`sync_links`): a local record ↔ its id at HQ. Push writes a link in the same
 * transaction as the answer that named the remote id; pull, the email match and the user
 * (reference data) write theirs the same way. Every lookup of "the HQ id of X" goes here.
 *
 * The push state of a record (`sync_items`): see `ItemState`. The outbox itself is
 * `change_log` (push = 1 and synced_at null = still to go; attempt_id = in a request).
 */
import type { Selectable } from 'kysely';
import type { SyncItemsTable } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import type { EntityType } from '../../domain/change-log.ts';
import { type SentContact, sentContactOf } from '../push/identity.ts';

/* ------------------------------------------------------------------ id map */

/** How a link came to be. */
export type LinkSource = 'pushed' | 'found' | 'email' | 'pulled' | 'manual';

export interface Link {
  entityType: EntityType;
  localId: string;
  remoteId: string;
  source: LinkSource;
  linkedAt: string;
}

/** The HQ id of a local record, or null when it has none (yet). */
export async function remoteIdFor(db: Db, entityType: EntityType, localId: string): Promise<string | null> {
  const r = await db
    .selectFrom('syncLinks')
    .select('remoteId')
    .where('entityType', '=', entityType)
    .where('localId', '=', localId)
    .executeTakeFirst();
  return r?.remoteId ?? null;
}

/** The HQ ids of many local records of one type (missing ones are absent from the map). */
export async function remoteIdsFor(
  db: Db,
  entityType: EntityType,
  localIds: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < localIds.length; i += 500) {
    const chunk = localIds.slice(i, i + 500);
    if (chunk.length === 0) continue;
    const rows = await db
      .selectFrom('syncLinks')
      .select(['localId', 'remoteId'])
      .where('entityType', '=', entityType)
      .where('localId', 'in', chunk)
      .execute();
    for (const r of rows) out.set(r.localId, r.remoteId);
  }
  return out;
}

/** The local record linked to an HQ id, or null. */
export async function localIdFor(
  db: Db,
  accountId: string,
  entityType: EntityType,
  remoteId: string,
): Promise<string | null> {
  const r = await db
    .selectFrom('syncLinks')
    .select('localId')
    .where('accountId', '=', accountId)
    .where('entityType', '=', entityType)
    .where('remoteId', '=', remoteId)
    .executeTakeFirst();
  return r?.localId ?? null;
}

/**
 * Links a local record to its HQ id, inside the caller's transaction. Re-linking a record
 * replaces its link. One HQ record is linked to at most one local record per account: linking
 * a second one throws (the unique constraint), so a caller must look with `localIdFor` first.
 */
export async function linkRemote(
  trx: Db,
  link: {
    accountId: string;
    entityType: EntityType;
    localId: string;
    remoteId: string;
    source: LinkSource;
    at: string;
  },
): Promise<void> {
  await trx
    .insertInto('syncLinks')
    .values({
      entityType: link.entityType,
      localId: link.localId,
      accountId: link.accountId,
      remoteId: link.remoteId,
      source: link.source,
      linkedAt: link.at,
    })
    .onConflict((oc) =>
      oc
        .columns(['entityType', 'localId'])
        .doUpdateSet({ remoteId: link.remoteId, source: link.source, linkedAt: link.at }),
    )
    .execute();
}

/** Removes a record's link (its HQ copy was deleted). */
export async function unlinkRemote(trx: Db, entityType: EntityType, localId: string): Promise<void> {
  await trx
    .deleteFrom('syncLinks')
    .where('entityType', '=', entityType)
    .where('localId', '=', localId)
    .execute();
}

/** Every link of one type in an account (reference-data screens). */
export async function listLinks(db: Db, accountId: string, entityType: EntityType): Promise<Link[]> {
  const rows = await db
    .selectFrom('syncLinks')
    .selectAll()
    .where('accountId', '=', accountId)
    .where('entityType', '=', entityType)
    .orderBy('localId')
    .execute();
  return rows.map((r) => ({
    entityType: r.entityType as EntityType,
    localId: r.localId,
    remoteId: r.remoteId,
    source: r.source as LinkSource,
    linkedAt: r.linkedAt,
  }));
}

/* ------------------------------------------------------------------ push state */

/**
 * The push state of one record:
 * - `idle`: nothing in flight; whatever its unsynced changes say is still to send.
 * - `in_flight`: an attempt was recorded and its request may have left. Found at start,
 *   it means the process died mid-request: treated exactly like `unknown`.
 * - `unknown`: the request may or may not have been applied at HQ (timeout, reset after
 *   sending, 5xx). The record is looked for at HQ before anything else is sent for it.
 * - `attention`: parked for a person (a 4xx retrying cannot fix, an unlinked campaign, a
 *   possible duplicate, a delete that would remove gifts at HQ); the reason says what.
 */
export type ItemState = 'idle' | 'in_flight' | 'unknown' | 'attention';
export type PushEntity = 'contact' | 'donation';
export type ItemRow = Selectable<SyncItemsTable>;

export async function getItem(
  db: Db,
  entityType: PushEntity,
  entityId: string,
): Promise<ItemRow | undefined> {
  return db
    .selectFrom('syncItems')
    .selectAll()
    .where('entityType', '=', entityType)
    .where('entityId', '=', entityId)
    .executeTakeFirst();
}

/** The item row, created idle when the record has none yet. */
export async function ensureItem(
  trx: Db,
  p: { entityType: PushEntity; entityId: string; accountId: string; laneId: string; at: string },
): Promise<ItemRow> {
  const found = await getItem(trx, p.entityType, p.entityId);
  if (found) return found;
  const row: ItemRow = {
    entityType: p.entityType,
    entityId: p.entityId,
    accountId: p.accountId,
    laneId: p.laneId,
    state: 'idle',
    op: null,
    attemptId: null,
    attemptAt: null,
    attemptBody: null,
    firstAttemptAt: null,
    failures: 0,
    nextTryAt: null,
    lastError: null,
    attentionCode: null,
    attentionReason: null,
    attentionStatus: null,
    attentionAt: null,
    pushedState: null,
    updatedAt: p.at,
  };
  await trx.insertInto('syncItems').values(row).execute();
  return row;
}

export async function updateItem(
  trx: Db,
  entityType: PushEntity,
  entityId: string,
  patch: Partial<ItemRow>,
): Promise<void> {
  await trx
    .updateTable('syncItems')
    .set(patch)
    .where('entityType', '=', entityType)
    .where('entityId', '=', entityId)
    .execute();
}

/**
 * Whether a donation may still be changed locally: it never reached HQ and no request for it
 * may be out (nothing in flight, nothing unknown). Read by the domain through the same tables.
 */
export function isDonationLocked(item: Pick<ItemRow, 'state'> | undefined, hasLink: boolean): boolean {
  if (hasLink) return true;
  return item !== undefined && (item.state === 'in_flight' || item.state === 'unknown');
}

/**
 * Contacts whose create was sent and whose outcome is not known (in flight, or unknown), with
 * what each attempt SENT — what HQ may hold, whatever the contact became here since (renamed,
 * given another email, deleted). The email match waits for one that sent the same email; a
 * pull leaves HQ's copy of one to the engine.
 */
export async function unconfirmedContactCreates(
  db: Db,
  accountId: string,
): Promise<Array<SentContact & { id: string }>> {
  const open = await db
    .selectFrom('syncItems')
    .select(['entityId', 'attemptBody'])
    .where('accountId', '=', accountId)
    .where('entityType', '=', 'contact')
    .where('op', '=', 'create')
    .where('state', 'in', ['unknown', 'in_flight'])
    .execute();
  return open.flatMap((o) => {
    const c = sentContactOf(o.attemptBody);
    return c ? [{ id: o.entityId, ...c }] : [];
  });
}
