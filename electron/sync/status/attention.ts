/**
 * What the app and the CLI show and do about sync, per record: its sync state in words, the
 * "needs attention" list with reasons, and the two actions on a parked record — retry (after
 * an edit, or to confirm what the reason asks) and discard (HQ will not get these changes).
 */
import { saidOf } from '../net/remote-words.ts';
import type { SyncListedAttentionCode, SyncRecordCode } from '#shared/schemas/sync.ts';
import { reusable } from '../../db/bulk.ts';
import type { Store, Db } from '../../db/store.ts';
import { DomainError } from '../../domain/errors.ts';
import { pendingChanges, settleSeqs } from '../outbox/outbox.ts';
import { remoteIdFor } from '../outbox/links.ts';
import {
  codeOf,
  getItem,
  isAttentionCode,
  type ItemRow,
  type PushEntity,
  updateItem,
} from '../outbox/items.ts';

/**
 * A parked record's code as the needs-attention list shows it: `unknown` when it has none, or
 * one this version does not know (the answer still fits the API's closed set).
 */
function listedCode(item: ItemRow): SyncListedAttentionCode {
  const code = codeOf(item);
  return code !== null && isAttentionCode(code) ? code : 'unknown';
}

/** What a record's sync state means to a person. */
export type SyncPhase =
  'not_synced' | 'not_sent' | 'sending' | 'checking' | 'sent' | 'needs_attention' | 'retrying';

export interface RecordSyncState {
  entityType: PushEntity;
  entityId: string;
  phase: SyncPhase;
  /** The HQ id, once HQ has the record. */
  remoteId: string | null;
  /** Changes not yet at HQ. */
  pendingChanges: number;
  /** A donation cannot be changed here any more (it was sent, or may have been). */
  readOnly: boolean;
  /** Why: the needs-attention reason, the last failure, what it waits for. */
  reason: string | null;
  /** Why it is parked, or a person's confirmation the engine acts on next. */
  attentionCode: SyncRecordCode | null;
  failures: number;
  nextTryAt: string | null;
  firstAttemptAt: string | null;
}

export async function recordSyncState(
  db: Db,
  entityType: PushEntity,
  entityId: string,
): Promise<RecordSyncState> {
  const [item, remoteId, pending] = await Promise.all([
    getItem(db, entityType, entityId),
    remoteIdFor(db, entityType, entityId),
    pendingChanges(db, entityType, entityId),
  ]);
  const configured = await db
    .selectFrom('syncRemotes')
    .select(['accountId', 'kind'])
    .limit(1)
    .executeTakeFirst();
  let phase: SyncPhase;
  let reason: string | null = null;
  if (item?.state === 'attention') {
    phase = 'needs_attention';
    reason = item.attentionReason;
  } else if (item?.state === 'in_flight') {
    phase = 'sending';
  } else if (item?.state === 'unknown') {
    phase = 'checking';
    reason = saidOf(
      configured?.kind === 'hub' ? 'hub' : 'hq',
      `The last attempt's outcome is unknown (${item.lastError ?? 'no answer'}): GiftDesk will look for it at HQ before sending again.`,
    );
  } else if (item && item.failures > 0 && pending.length > 0) {
    phase = 'retrying';
    reason = item.lastError;
  } else if (pending.length > 0) {
    phase = configured ? 'not_sent' : 'not_synced';
    reason = item?.lastError ?? null; // e.g. waiting for its donor to reach HQ
  } else {
    phase = remoteId ? 'sent' : configured ? 'not_sent' : 'not_synced';
  }
  const readOnly =
    entityType === 'donation' &&
    (remoteId !== null || item?.state === 'in_flight' || item?.state === 'unknown');
  return {
    entityType,
    entityId,
    phase,
    remoteId,
    pendingChanges: pending.length,
    readOnly,
    reason,
    attentionCode: codeOf(item),
    failures: item?.failures ?? 0,
    nextTryAt: item?.nextTryAt ?? null,
    firstAttemptAt: item?.firstAttemptAt ?? null,
  };
}

export interface AttentionItem {
  entityType: PushEntity;
  entityId: string;
  /** A name a person recognises: the contact's name, the gift's donor, amount and date. */
  label: string;
  code: SyncListedAttentionCode;
  reason: string;
  /** HQ's status code when HQ refused it. */
  remoteStatus: number | null;
  since: string | null;
}

// Both lists are read by every sync status (after every save in gift entry): named on PostgreSQL.
const parkedOf = reusable(
  (db, p) =>
    db
      .selectFrom('syncItems')
      .selectAll()
      .where('accountId', '=', p<string>(0))
      .where('state', '=', 'attention')
      .orderBy('attentionAt')
      .orderBy('entityId'),
  { named: true },
);
const failingOf = reusable(
  (db, p) =>
    db
      .selectFrom('syncItems')
      .selectAll()
      .where('accountId', '=', p<string>(0))
      .where('failures', '>=', p<number>(1))
      .where('state', '!=', 'attention')
      .orderBy('failures', 'desc')
      .limit(100),
  { named: true },
);

/** The needs-attention list: every record of the account parked for a person (state `attention`). */
export async function listAttention(db: Db, accountId: string): Promise<AttentionItem[]> {
  const rows = (await parkedOf(db, [accountId])).rows as ItemRow[];
  const labels = await labelsOf(db, rows);
  return rows.map((r) => ({
    entityType: r.entityType as PushEntity,
    entityId: r.entityId,
    label: labels.get(`${r.entityType}:${r.entityId}`)!,
    code: listedCode(r),
    reason: r.attentionReason ?? '',
    remoteStatus: r.attentionStatus,
    since: r.attentionAt,
  }));
}

/** Records that keep failing (5xx, network): shown to the user after three failures in a row. */
export async function listFailing(
  db: Db,
  accountId: string,
  atLeast = 3,
): Promise<
  Array<{
    entityType: PushEntity;
    entityId: string;
    label: string;
    failures: number;
    lastError: string | null;
    nextTryAt: string | null;
  }>
> {
  const rows = (await failingOf(db, [accountId, atLeast])).rows as ItemRow[];
  const labels = await labelsOf(db, rows);
  return rows.map((r) => ({
    entityType: r.entityType as PushEntity,
    entityId: r.entityId,
    label: labels.get(`${r.entityType}:${r.entityId}`)!,
    failures: r.failures,
    lastError: r.lastError,
    nextTryAt: r.nextTryAt,
  }));
}

/** A name a person recognises for each row (two queries per 500 rows, whatever their number). */
async function labelsOf(db: Db, rows: readonly ItemRow[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const contactIds = rows.filter((r) => r.entityType === 'contact').map((r) => r.entityId);
  const donationIds = rows.filter((r) => r.entityType === 'donation').map((r) => r.entityId);
  for (let i = 0; i < contactIds.length; i += 500) {
    const found = await db
      .selectFrom('contacts')
      .select(['id', 'firstName', 'lastName'])
      .where('id', 'in', contactIds.slice(i, i + 500))
      .execute();
    for (const c of found) out.set(`contact:${c.id}`, `${c.firstName} ${c.lastName}`);
  }
  for (let i = 0; i < donationIds.length; i += 500) {
    const found = await db
      .selectFrom('donations as d')
      .innerJoin('contacts as c', 'c.id', 'd.contactId')
      .select(['d.id', 'c.firstName', 'c.lastName', 'd.amountCents', 'd.donationDate'])
      .where('d.id', 'in', donationIds.slice(i, i + 500))
      .execute();
    for (const d of found)
      out.set(
        `donation:${d.id}`,
        `$${(Number(d.amountCents) / 100).toFixed(2)} from ${d.firstName} ${d.lastName} on ${d.donationDate.slice(0, 10)}`,
      );
  }
  for (const r of rows)
    if (!out.has(`${r.entityType}:${r.entityId}`))
      out.set(
        `${r.entityType}:${r.entityId}`,
        `deleted ${r.entityType === 'contact' ? 'contact' : 'gift'} ${r.entityId}`,
      );
  return out;
}

async function parkedItem(
  trx: Db,
  accountId: string,
  entityType: PushEntity,
  entityId: string,
  allowFailing: boolean,
): Promise<ItemRow> {
  const item = await getItem(trx, entityType, entityId);
  if (
    !item ||
    item.accountId !== accountId ||
    (item.state !== 'attention' && !(allowFailing && item.failures > 0))
  ) {
    throw new DomainError(
      'not_found',
      'sync_item_not_found',
      `No ${entityType} ${entityId} needs attention`,
      [{ field: 'id', issue: 'is not in the needs-attention list' }],
    );
  }
  return item;
}

/**
 * Retry: the record goes again on the next pass. For a delete that would remove gifts at HQ,
 * retry confirms the delete; for a record not linked to HQ, it creates it; for a possible
 * duplicate, it posts the gift again. A record backing off after failures is retried at once.
 */
export async function retryItem(
  store: Store,
  accountId: string,
  entityType: PushEntity,
  entityId: string,
  at: string,
): Promise<void> {
  await store.write(async (trx) => {
    const item = await parkedItem(trx, accountId, entityType, entityId, true);
    const confirm =
      codeOf(item) === 'confirm_delete'
        ? 'delete_confirmed'
        : codeOf(item) === 'not_linked'
          ? 'create_confirmed'
          : null;
    await updateItem(trx, entityType, entityId, {
      state: item.state === 'attention' ? 'idle' : item.state,
      attentionCode: confirm,
      attentionReason: null,
      attentionStatus: null,
      attentionAt: null,
      failures: 0,
      nextTryAt: null,
      updatedAt: at,
    });
  });
}

/** Discard: the record's pending changes are dropped from the queue (HQ keeps what it has). */
export async function discardItem(
  store: Store,
  accountId: string,
  entityType: PushEntity,
  entityId: string,
  at: string,
): Promise<{ discardedChanges: number }> {
  return store.write(async (trx) => {
    await parkedItem(trx, accountId, entityType, entityId, false);
    const changes = await pendingChanges(trx, entityType, entityId);
    const n = await settleSeqs(
      trx,
      accountId,
      changes.map((c) => c.seq),
      at,
    );
    await updateItem(trx, entityType, entityId, {
      state: 'idle',
      attentionCode: null,
      attentionReason: null,
      attentionStatus: null,
      attentionAt: null,
      failures: 0,
      nextTryAt: null,
      lastError: null,
      updatedAt: at,
    });
    return { discardedChanges: n };
  });
}
