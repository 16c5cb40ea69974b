/**
 * Reconciliation, batched: after unknown outcomes (timeout, reset, 5xx), the engine looks for
 * ALL of an account's unknown creates at HQ at once — one sweep per entity type — instead of
 * one search per record.
 *
 * - PUT and DELETE of unknown outcome are simply sent again (they set values / 404 is done):
 *   released as soon as their backoff is spent, without a read.
 * - A create can still land at HQ until its request's deadline has passed: it is looked for
 *   only once `attemptAt + deadline` (and its nextTryAt: its backoff, the request's own
 *   deadline from when it left, or the lease takeover's wait for a dead holder's requests)
 *   is behind it — "due". So that one sweep finds many records, a sweep waits until every
 *   unknown create is due, or at most `graceMs` after the first one was.
 * - Donations: HQ's gifts of the union of the due gifts' date windows (date ± 1 day, merged),
 *   paged; each gift matched by identity.ts matchDonation with its `taken` set (HQ gifts linked
 *   to other local gifts, or found for another gift in this sweep: twins).
 * - Contacts: HQ's contacts newest first back to the earliest attempt, on HQ's clock (the skew
 *   from the first page's `Date` header, minus SKEW_MARGIN_MS), skipping HQ ids that pushes or
 *   reconciliations linked to other local contacts; the fresh unlinked ones are read one by one
 *   (GET /contacts/:id, the list has no tags) to find the `gd:` tag — first those whose name
 *   is the name an attempt sent, the others only while a due record is still not found.
 *
 * Found → linked (source `found`) and its changes done; a gift lookalike without any GiftDesk
 * reference → parked for a person; absent (and due) → pending again, posted once. A read that
 * fails (after its retries) leaves every due record of that sweep unknown, backed off — never
 * "found" under a made-up id. A create found before it is due is linked at once (it landed).
 *
 * This file decides what is due and resends PUTs and DELETEs; sweeps.ts has the sweeps,
 * types.ts the shapes both use.
 */
import { type RemoteKind, saidOf } from '../net/remote-words.ts';
import type { Db } from '../../db/store.ts';
import { backoffDelay } from '../net/backoff.ts';
import { connectionProblem } from '../net/connection-problem.ts';
import type { RemoteResult } from '../net/http-client.ts';
import { releaseAttempt } from '../outbox/outbox.ts';
import { remoteIdFor } from '../outbox/links.ts';
import type { ResentDonationAttempt } from '../outbox/resend.ts';
import type { RemoteConfig } from '../remote/settings.ts';
import { sweepContacts, sweepDonations } from './sweeps.ts';
import { type ItemRow, type PushEntity, updateItem } from '../outbox/items.ts';
import type { Create, Read, ReconcileDeps, ReconcileResult } from './types.ts';

export interface ReadForReconcileDeps {
  /** One GET through the engine's client (its pacer, under the lease). */
  get: (path: string, query: Record<string, string | number>) => Promise<RemoteResult>;
  /** The remote: reads are in its HQ account; `lastError` is set when HQ refuses the key. */
  cfg: Pick<RemoteConfig, 'baseUrl' | 'remoteAccountId' | 'lastError'> & { kind?: RemoteKind | undefined };
  clock: () => number;
  /** The retry's jitter. */
  random: () => number;
  /** True once the engine is stopping: no retry then. */
  stopped: () => boolean;
  /** Called for every request sent (the pass counts them). */
  counted: () => void;
}

/**
 * One GET for reconciliation, in the remote's HQ account. A passing failure (no answer, 429,
 * 5xx) is tried again twice after a short backoff (HQ's Retry-After when it gives one): reads
 * change nothing at HQ, and one failed page would otherwise cost the whole sweep. 401/403
 * end it as `auth`; any other answer as `failed`.
 */
export async function readForReconcile(
  d: ReadForReconcileDeps,
  path: string,
  query: Record<string, string | number>,
): Promise<Read> {
  for (let attempt = 0; ; attempt++) {
    d.counted();
    const r = await d.get(path, { accountId: d.cfg.remoteAccountId, ...query });
    if (r.outcome === 'applied')
      return { ok: true, body: r.body, ...(r.headers ? { headers: r.headers } : {}), receivedAt: d.clock() };
    const message = r.error?.message ?? r.networkError?.message ?? `HTTP ${r.status ?? 'no answer'}`;
    if (r.status === 401 || r.status === 403) {
      d.cfg.lastError = saidOf(
        d.cfg.kind,
        connectionProblem(r, d.cfg.baseUrl, d.cfg.kind)?.sentence ?? `HQ refused the API key (${r.status})`,
      );
      return { ok: false, result: 'auth', message, status: r.status };
    }
    const passing = r.status === undefined || r.status === 429 || r.status >= 500;
    if (!passing || attempt >= 2 || d.stopped())
      return {
        ok: false,
        result: 'failed',
        message,
        ...(r.status !== undefined ? { status: r.status } : {}),
      };
    const wait = r.retryAfterMs ?? backoffDelay(attempt, { baseMs: 200, capMs: 2000, random: d.random });
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A gift marked "may be there" after its upstream was lost (outbox/resend.ts) names its donor
 * and campaign by local id: looked for only once its donor is linked upstream (found or posted
 * in this pass's lane), with their links as they are now. Until then it waits, and holds no
 * sweep back.
 */
async function resolveResent(db: Db, items: ItemRow[]): Promise<ItemRow[]> {
  const out: ItemRow[] = [];
  for (const item of items) {
    const a = JSON.parse(item.attemptBody!) as Partial<ResentDonationAttempt>;
    if (item.entityType !== 'donation' || !a.resent || !a.body) {
      out.push(item);
      continue;
    }
    const contactId = await remoteIdFor(db, 'contact', a.resent.contactId);
    if (contactId === null) continue;
    const campaignId = a.resent.campaignId ? await remoteIdFor(db, 'campaign', a.resent.campaignId) : null;
    const body = { ...a.body, contactId, ...(campaignId ? { campaignId } : {}) };
    out.push({ ...item, attemptBody: JSON.stringify({ localId: a.localId, body }) });
  }
  return out;
}

export async function reconcileUnknown(d: ReconcileDeps): Promise<ReconcileResult> {
  const { store } = d;
  const now = d.now();
  const at = iso(now);
  const out: ReconcileResult = { result: 'ok', resolved: 0, parked: 0 };
  const rows = (await store.db
    .selectFrom('syncItems')
    .selectAll()
    .where('accountId', '=', d.accountId)
    .where('state', 'in', ['unknown', 'in_flight'])
    .execute()) as ItemRow[];
  const backoffSpent = (r: ItemRow) => !r.nextTryAt || Date.parse(r.nextTryAt) <= now;

  const release = async (trx: Db, item: ItemRow) => {
    if (item.attemptId) await releaseAttempt(trx, item.attemptId);
    // Its backoff is spent: a stale nextTryAt must not mask the next item's (nextRetryAt).
    await updateItem(trx, item.entityType as PushEntity, item.entityId, {
      state: 'idle',
      attemptId: null,
      attemptBody: null,
      nextTryAt: null,
      updatedAt: at,
    });
    out.resolved++;
  };

  // PUT / DELETE (and an attempt without a body): sent again once their backoff is spent.
  const resend = rows.filter((r) => (r.op !== 'create' || !r.attemptId || !r.attemptBody) && backoffSpent(r));
  if (resend.length > 0)
    await store.write(async (trx) => {
      for (const r of resend) await release(trx, r);
    });

  const creates: Create[] = (
    await resolveResent(
      store.db,
      rows.filter((r) => r.op === 'create' && r.attemptId && r.attemptBody),
    )
  ).map((item) => ({
    item,
    due: backoffSpent(item) && Date.parse(item.attemptAt ?? at) + d.deadlineMs <= now,
  }));
  const due = creates.filter((c) => c.due);
  if (due.length === 0) return creates.length > 0 ? { ...out, result: 'waiting' } : out;
  if (creates.length > due.length) {
    // Wait for the others (one sweep for all), but not for ever: at most graceMs after the first was due.
    const firstDue = Math.min(
      ...due.map((c) =>
        Math.max(Date.parse(c.item.nextTryAt ?? at), Date.parse(c.item.attemptAt ?? at) + d.deadlineMs),
      ),
    );
    if (now < firstDue + d.graceMs) return { ...out, result: 'waiting' };
  }

  for (const type of ['contact', 'donation'] as const) {
    const all = creates.filter((c) => c.item.entityType === type);
    if (!all.some((c) => c.due)) continue;
    const r =
      type === 'donation' ? await sweepDonations(d, all, at, out) : await sweepContacts(d, all, at, out);
    if (r.kind === 'auth') return { ...out, result: 'auth' };
    if (r.kind === 'failed') {
      for (const c of all)
        if (c.due)
          await d.fail({ entityType: type, entityId: c.item.entityId }, `looking for it at HQ: ${r.message}`);
      out.result = 'failed';
    }
  }
  return out;
}
