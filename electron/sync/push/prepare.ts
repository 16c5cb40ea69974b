/**
 * Prepare: what one record's next request is, decided from the record as it is now and its
 * pending changes (coalesce.ts), and — when there is one — the record marked in flight with
 * the request's attempt id and body, in the same transaction that renews the lease. Only
 * after that commit may the request leave (the engine sends it; answers.ts notes the answer).
 *
 * The other answers: `done` (nothing to send; changes with no effect at HQ are settled),
 * `blocked` (waiting for another record to reach HQ first: a donor, a namesake's create of
 * the same email), `parked` (needs a person: "needs attention" with the reason), and
 * `emailCheck` (before creating a contact, look for HQ's contact with its email first), and
 * `askExtensions` (whether the remote is a GiftDesk that retires a contact's reference is not
 * known yet: one read tells).
 *
 * This file runs the transaction (the lease, the record's push state, its pending changes) and
 * hands the record to prepare-contact.ts or prepare-donation.ts, which decide its step;
 * prepare-step.ts has the steps and how each is written.
 */
import type { SyncAttentionCode } from '#shared/enums.ts';
import type { Store } from '../../db/store.ts';
import type { DomainContext } from '../../domain/context.ts';
import { ensureItem } from '../outbox/items.ts';
import { renewLeaseIn } from '../outbox/lease.ts';
import { remoteIdFor } from '../outbox/links.ts';
import { pendingChanges, type PendingEntity } from '../outbox/outbox.ts';
import type { RemoteConfig } from '../remote/settings.ts';
import { laneIdFor } from './lanes.ts';
import { prepareContact } from './prepare-contact.ts';
import { prepareDonation } from './prepare-donation.ts';
import { clearAttention, preparing, type Step } from './prepare-step.ts';
import { LostLease } from './under-lease.ts';

/** Attention codes the engine re-checks by itself on every pass (nothing at HQ to wait for); looked up by the stored code. */
export const RECHECKED: ReadonlySet<string> = new Set<SyncAttentionCode>(['reference_not_linked']);

const NONE: ReadonlySet<string> = new Set();

export interface PrepareInput {
  store: Store;
  /** The domain context reads go through (a contact as the API shows it). */
  ctx: DomainContext;
  /** This engine's lease holder id and lease length (the transaction renews it). */
  holder: string;
  leaseMs: number;
  clock: () => number;
  /** `kind`: 'hub' at a station (a gift's create then says when it was entered here). */
  cfg: Pick<RemoteConfig, 'accountId' | 'remoteAccountId' | 'emailMatch' | 'marksNotTakenThisPass'> & {
    kind?: RemoteConfig['kind'] | undefined;
  };
  record: PendingEntity;
  /** True when a contact's create may first be matched by email (a matcher is there and has not looked for this record yet); the settings' `emailMatch` must allow it too. */
  emailMatch: boolean;
  /** Changes settled without a request (nothing to send for them). */
  progress: (n: number) => void;
  /** The GiftDesk extensions the remote named; null before any answer of it (under-lease.ts); absent: none. */
  extensions?: ReadonlySet<string> | null | undefined;
}

/**
 * Plans the record's next request and, if there is one, marks it in flight — all in one
 * transaction that first renews the lease (LostLease when another process has it: nothing is
 * marked). Changes with nothing to send are settled at once and counted through `progress`.
 */
export async function prepare(p: PrepareInput): Promise<Step> {
  const { store, cfg, record: e } = p;
  const at = new Date(p.clock()).toISOString();
  let settled = 0;
  const step = await store.write(async (trx): Promise<Step> => {
    if (!(await renewLeaseIn(trx, p.holder, p.clock(), p.leaseMs))) throw new LostLease();
    const item = await ensureItem(trx, {
      entityType: e.entityType,
      entityId: e.entityId,
      accountId: cfg.accountId,
      laneId: await laneIdFor(trx, e),
      at,
    });
    const changes = await pendingChanges(trx, e.entityType, e.entityId);
    if (changes.length === 0) {
      if (item.state === 'attention' && item.attentionCode && RECHECKED.has(item.attentionCode))
        await clearAttention(trx, e, at);
      return { kind: 'done' };
    }
    const remoteId = await remoteIdFor(trx, e.entityType, e.entityId);
    const x = preparing(
      {
        trx,
        cfg,
        record: e,
        item,
        changes,
        remoteId,
        at,
        extensions: p.extensions === undefined ? NONE : p.extensions,
      },
      (n) => {
        settled += n;
      },
    );
    return e.entityType === 'contact' ? prepareContact(x, p.ctx, p.emailMatch) : prepareDonation(x);
  });
  if (settled > 0) p.progress(settled);
  return step;
}
