/**
 * Prepare's answer for one record (a Step), and how each answer is written in prepare's
 * transaction (prepare.ts): the record parked for a person, its changes settled with nothing to
 * send, or the record marked in flight with the request's attempt id and body.
 * prepare-contact.ts and prepare-donation.ts decide which, each for its kind of record.
 */
import { type RemoteKind, saidOf } from '../net/remote-words.ts';
import type { SyncAttentionCode } from '#shared/enums.ts';
import { newId } from '#shared/ids.ts';
import type { Db } from '../../db/store.ts';
import { type ItemRow, type PushEntity, updateItem } from '../outbox/items.ts';
import { markAttempt, type PendingEntity, settleSeqs } from '../outbox/outbox.ts';
import type { RemoteConfig } from '../remote/settings.ts';
import type { PendingChange, Plan } from './coalesce.ts';

export type Query = Record<string, string | number>;

export type Step =
  | { kind: 'done' }
  | { kind: 'blocked'; reason: string }
  /** `again`: it was parked for the same reason already (a re-check that found nothing new). */
  | { kind: 'parked'; again: boolean }
  | { kind: 'emailCheck'; email: string }
  /** The remote's extensions are needed to decide, and not known yet: one spec read tells (engine.ts). */
  | { kind: 'askExtensions' }
  | {
      kind: 'send';
      attemptId: string;
      op: 'create' | 'update' | 'delete';
      method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      path: string;
      query?: Query;
      body?: unknown;
    };

export type SendStep = Extract<Step, { kind: 'send' }>;

/** A record being prepared, inside prepare's transaction: what is known of it, and the ways its step is written. */
/**
 * A create's body, plus `resentSince` when the record was sent before to an upstream that is
 * lost (outbox/resend.ts) and goes to an event hub now: the hub looks for it at HQ before it
 * sends it on, as this GiftDesk did at the hub. HQ itself is never sent the field.
 */
export function withResentSince<T extends object>(
  body: T,
  x: Pick<Preparing, 'cfg' | 'item'>,
): T | (T & { resentSince: string }) {
  return x.cfg.kind === 'hub' && x.item.resentSince ? { ...body, resentSince: x.item.resentSince } : body;
}

export interface Preparing {
  trx: Db;
  cfg: Pick<RemoteConfig, 'accountId' | 'remoteAccountId' | 'emailMatch' | 'marksNotTakenThisPass'> & {
    kind?: RemoteKind | undefined;
  };
  record: PendingEntity;
  /** Its push state (sync_items) as the transaction found it. */
  item: ItemRow;
  /** Its changes still to go and not in a request (at least one). */
  changes: PendingChange[];
  /** Its HQ id, or null when it has none yet. */
  remoteId: string | null;
  /** The GiftDesk extensions the remote named (under-lease.ts): none for an HQ of the donor API alone; null before it answered. */
  extensions: ReadonlySet<string> | null;
  at: string;
  /** Parks it for a person with this code and reason. */
  park(code: SyncAttentionCode, reason: string): Promise<Step>;
  /** Settles changes that have nothing to send (and lifts a parked state): done. */
  nothing(seqs: number[]): Promise<Step>;
  /** Marks the plan's changes and the record in flight under a new attempt id: send. */
  send(
    plan: Plan,
    op: 'create' | 'update' | 'delete',
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body: unknown,
    attemptBody: unknown,
    query?: Query,
  ): Promise<Step>;
}

/** The record's Preparing; `settled` is told how many changes `nothing` settled. */
export function preparing(
  known: Omit<Preparing, 'park' | 'nothing' | 'send'>,
  settled: (n: number) => void,
): Preparing {
  const { trx, cfg, record: e, item, at } = known;
  return {
    ...known,
    async park(code, reason) {
      const again = item.state === 'attention' && item.attentionCode === code;
      await updateItem(trx, e.entityType, e.entityId, {
        state: 'attention',
        attentionCode: code,
        attentionReason: saidOf(cfg.kind, reason),
        attentionStatus: null,
        attentionAt: again ? item.attentionAt : at,
        updatedAt: at,
      });
      return { kind: 'parked', again };
    },
    async nothing(seqs) {
      settled(await settleSeqs(trx, cfg.accountId, seqs, at));
      if (item.state === 'attention') await clearAttention(trx, e, at);
      return { kind: 'done' };
    },
    async send(plan, op, method, path, body, attemptBody, query) {
      const attemptId = newId('request').replace(/^req_/, 'att_');
      await markAttempt(trx, plan.seqs, attemptId);
      await updateItem(trx, e.entityType, e.entityId, {
        state: 'in_flight',
        op,
        attemptId,
        attemptAt: at,
        nextTryAt: null, // a backoff that led here is spent; a failure of this attempt sets a new one
        attemptBody: JSON.stringify(attemptBody),
        firstAttemptAt: item.firstAttemptAt ?? at,
        attentionCode: null,
        attentionReason: null,
        attentionStatus: null,
        attentionAt: null,
        updatedAt: at,
      });
      return {
        kind: 'send',
        attemptId,
        op,
        method,
        path,
        ...(query ? { query } : {}),
        ...(body !== undefined ? { body } : {}),
      };
    },
  };
}

/** The record is no longer parked: idle, its attention fields cleared. */
export async function clearAttention(
  trx: Db,
  e: { entityType: PushEntity; entityId: string },
  at: string,
): Promise<void> {
  await updateItem(trx, e.entityType, e.entityId, {
    state: 'idle',
    attentionCode: null,
    attentionReason: null,
    attentionStatus: null,
    attentionAt: null,
    updatedAt: at,
  });
}
