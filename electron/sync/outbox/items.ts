/**
 * The push state of each record in the database (`sync_items`; tables:
 * migrations/2026-11-24T1600-sync.ts): see `ItemState`. The outbox itself is `change_log`
 * (push = 1 and synced_at null = still to go; attempt_id = in a request), outbox.ts; the id
 * map is links.ts.
 */
import type { Selectable, Updateable } from 'kysely';
import {
  SYNC_ATTENTION_CODES,
  SYNC_CONFIRMATIONS,
  type SyncAttentionCode,
  type SyncConfirmation,
} from '#shared/enums.ts';
import type { SyncRecordCode } from '#shared/schemas/sync.ts';
import type { SyncItemsTable } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { type SentContact, sentContactOf } from '../push/identity.ts';

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
/** A change to an item row: what is written (an attention code only from the closed sets). */
export type ItemPatch = Updateable<SyncItemsTable>;

export const isAttentionCode = (s: string): s is SyncAttentionCode =>
  (SYNC_ATTENTION_CODES as readonly string[]).includes(s);
const isConfirmation = (s: string): s is SyncConfirmation =>
  (SYNC_CONFIRMATIONS as readonly string[]).includes(s);

/**
 * The item's stored code (why it is parked, or a person's confirmation): null when it has none,
 * `unknown` when it is none of this version's (a row written by another version of GiftDesk).
 */
export function codeOf(item: Pick<ItemRow, 'attentionCode'> | undefined): SyncRecordCode | null {
  const stored = item?.attentionCode ?? null;
  if (stored === null) return null;
  return isAttentionCode(stored) || isConfirmation(stored) ? stored : 'unknown';
}

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
  const row = {
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
    resentSince: null,
    updatedAt: p.at,
  } satisfies ItemRow;
  await trx.insertInto('syncItems').values(row).execute();
  return row;
}

export async function updateItem(
  trx: Db,
  entityType: PushEntity,
  entityId: string,
  patch: ItemPatch,
): Promise<void> {
  await trx
    .updateTable('syncItems')
    .set(patch)
    .where('entityType', '=', entityType)
    .where('entityId', '=', entityId)
    .execute();
}

/**
 * When the next retry of a backed-off record is due (ms since epoch), or null: the earliest
 * backoff still running at `now`; when none is, the earliest already due (a record no pass has
 * retried yet). A due time never hides a later one still to come. Parked records are not retried.
 */
export async function earliestRetryAt(db: Db, now: string): Promise<number | null> {
  const backedOff = () =>
    db
      .selectFrom('syncItems')
      .select((eb) => eb.fn.min('nextTryAt').as('t'))
      .where('nextTryAt', 'is not', null)
      .where('state', '!=', 'attention');
  const ahead = await backedOff().where('nextTryAt', '>', now).executeTakeFirst();
  if (ahead?.t) return Date.parse(ahead.t);
  const due = await backedOff().executeTakeFirst();
  return due?.t ? Date.parse(due.t) : null;
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
