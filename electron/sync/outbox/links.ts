/**
 * The id map in the database (`sync_links`; tables: migrations/2026-11-24T1600-sync.ts): a
 * local record ↔ its id at HQ. Push writes a link in the same transaction as the answer that
 * named the remote id; pull, the email match and the user (reference data) write theirs the
 * same way. Every lookup of "the HQ id of X" goes here.
 */
import type { Db } from '../../db/store.ts';
import { type EntityType, logChange } from '../../domain/change-log.ts';
import { mergePulledContact } from '../../domain/pulled/index.ts';

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
  if (link.entityType === 'contact') await mergeTwinCopy(trx, link);
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

/**
 * At an event hub, a gift its engine has linked to HQ's (its create applied, or found at HQ):
 * logged for the hub's feed with push = 0 (fields `sentToHq`), so every station learns that the
 * gift can only be changed at HQ now. A GiftDesk that hosts no event logs nothing.
 */
export async function noteSentToHq(
  trx: Db,
  accountId: string,
  donationId: string,
  at: string,
): Promise<void> {
  const hosting = await trx
    .selectFrom('hubSettings')
    .select('accountId')
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!hosting) return;
  await logChange(trx, {
    accountId,
    entityType: 'donation',
    entityId: donationId,
    op: 'update',
    fields: ['sentToHq'],
    push: false,
    at,
  });
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

/**
 * At a station of an event hub, the hub may answer this station's new donor with one it has
 * already (another station made it) — and the feed may have brought that one here first, as a
 * pulled copy linked to it. A remote id has one local record: the copy is merged into this
 * station's own (its gifts and totals move, the copy goes, push = 0), in the answer's own
 * transaction. Only a copy the feed brought (source 'pulled', under the hub's id, nothing of it
 * waiting to be pushed) is merged; anything else keeps the one-link rule's refusal.
 */
async function mergeTwinCopy(
  trx: Db,
  link: { accountId: string; localId: string; remoteId: string; at: string },
): Promise<void> {
  const copy = await twinCopyOf(trx, link);
  if (copy === null) return;
  await unlinkRemote(trx, 'contact', copy);
  await mergePulledContact(trx, link.accountId, copy, link.localId, link.at);
}

/** The pulled copy `mergeTwinCopy` would merge into `link.localId`, or null. */
async function twinCopyOf(
  trx: Db,
  link: { accountId: string; localId: string; remoteId: string },
): Promise<string | null> {
  const holder = await trx
    .selectFrom('syncLinks')
    .select(['localId', 'source'])
    .where('accountId', '=', link.accountId)
    .where('entityType', '=', 'contact')
    .where('remoteId', '=', link.remoteId)
    .executeTakeFirst();
  if (!holder || holder.localId === link.localId || holder.source !== 'pulled') return null;
  if (holder.localId !== link.remoteId) return null;
  const waiting = await trx
    .selectFrom('changeLog')
    .select('seq')
    .where('accountId', '=', link.accountId)
    .where('entityType', '=', 'contact')
    .where('entityId', '=', holder.localId)
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return waiting ? null : holder.localId;
}

/**
 * Whether linking `localId` to `remoteId` would break the one-link rule: the HQ record is
 * linked to ANOTHER local record already (and is not a pulled copy `linkRemote` merges). Such
 * a record was created or matched for that one: it is never this record's. A caller that
 * found a record by looking (reconcile, an email match) asks this first, in the same
 * transaction as the link, and treats a held record as not found.
 */
export async function heldByAnother(
  trx: Db,
  link: { accountId: string; entityType: EntityType; localId: string; remoteId: string },
): Promise<boolean> {
  const holder = await localIdFor(trx, link.accountId, link.entityType, link.remoteId);
  if (holder === null || holder === link.localId) return false;
  return link.entityType !== 'contact' || (await twinCopyOf(trx, link)) === null;
}
