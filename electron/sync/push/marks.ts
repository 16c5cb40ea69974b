/**
 * Thank-you marks of a gift HQ already has. The donor API cannot change a gift, so a gift
 * marked thanked after it reached HQ (a letter run's "mark as sent", domain/donations/
 * thank-you.ts: an update of exactly `thankYouSent` and `thankYouSentDate`) goes to GiftDesk's
 * extension route `POST /donations/thank-you`, by HQ's id for the gift. A gift not sent yet
 * needs none of this: its marks go in its create (payloads.ts).
 *
 * - The route sets marks and keeps a first date, so sending it twice is harmless: a request of
 *   unknown outcome is sent again (reconcile.ts resends every non-create).
 * - An HQ that implements only the donor API has no such route (404 or 405): the marks are
 *   kept here only, the changes done without being counted as sent, the remote's note counted
 *   (`sync_remotes.marks_kept_here`, said once in the sync status), and the rest of the pass
 *   sends no more of them. Never a "needs attention" item per gift.
 * - A gift HQ's copy of which was never linked (history imported as already at HQ) cannot be
 *   named to HQ: its marks are kept here only too, counted in the same note.
 * - HQ answered that it has no such gift (it was deleted there): parked as `deleted_at_hq`.
 */
import type { DonationRow } from '../../db/schema.ts';
import type { Db, Store } from '../../db/store.ts';
import type { RemoteResult } from '../net/http-client.ts';
import type { RemoteReader } from '../net/read.ts';
import { type RemoteKind, saidOf } from '../net/remote-words.ts';
import { updateItem } from '../outbox/items.ts';
import { type PendingEntity, releaseAttempt, settleSeqs } from '../outbox/outbox.ts';
import type { RemoteConfig } from '../remote/settings.ts';
import type { Plan } from './coalesce.ts';
import type { Preparing, SendStep, Step } from './prepare-step.ts';

/** The route, under the remote's /api/v1. */
export const THANK_YOU_MARKS_PATH = '/donations/thank-you';

const MARK_FIELDS: ReadonlySet<string> = new Set(['thankYouSent', 'thankYouSentDate']);

/** True when an update touched the thank-you marks and nothing else. */
export function onlyThankYouFields(fields: readonly string[] | null): boolean {
  return fields !== null && fields.length > 0 && fields.every((f) => MARK_FIELDS.has(f));
}

export function isMarksStep(step: Pick<SendStep, 'path'>): boolean {
  return step.path === THANK_YOU_MARKS_PATH;
}

/** The gift's marks as HQ gets them: POST /donations/thank-you with HQ's id for it. */
export async function prepareMarks(
  x: Preparing,
  plan: Extract<Plan, { kind: 'update' }>,
  gift: DonationRow,
): Promise<Step> {
  if (gift.thankYouSent !== 1) return x.nothing(plan.seqs);
  if (x.cfg.marksNotTakenThisPass) return keepMarksHere(x, plan.seqs);
  const body = {
    accountId: x.cfg.remoteAccountId,
    donations: [{ id: x.remoteId!, thankYouSentDate: gift.thankYouSentDate ?? gift.updatedAt }],
  };
  return x.send(plan, 'update', 'POST', THANK_YOU_MARKS_PATH, body, body);
}

/** The marks stay here only: the changes are done (not sent), and the remote's note counts the gift. */
export async function keepMarksHere(x: Preparing, seqs: number[]): Promise<Step> {
  const step = await x.nothing(seqs);
  await countKeptHere(x.trx, x.cfg.accountId, null);
  return step;
}

async function countKeptHere(trx: Db, accountId: string, notTakenAt: string | null): Promise<void> {
  const current = await trx
    .selectFrom('syncRemotes')
    .select('marksKeptHere')
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  await trx
    .updateTable('syncRemotes')
    .set({
      marksKeptHere: Number(current?.marksKeptHere ?? 0) + 1,
      ...(notTakenAt ? { marksNotTakenAt: notTakenAt, marksCheckedAt: notTakenAt } : {}),
    })
    .where('accountId', '=', accountId)
    .execute();
}

/**
 * The answers that are the marks' own; null for the rest (answers.ts writes them down as for
 * any update). 404/405: HQ has no route for marks. 200 naming the gift unknown: HQ has no such
 * gift. An applied answer lifts the remote's "does not take marks" note.
 */
export async function recordMarksAnswer(
  d: { store: Store; clock: () => number },
  a: {
    cfg: Pick<RemoteConfig, 'accountId'> &
      Partial<Pick<RemoteConfig, 'marksNotTakenAt' | 'marksNotTakenThisPass'>> & {
        kind?: RemoteKind | undefined;
      };
    record: PendingEntity;
    step: SendStep;
    res: RemoteResult;
    progress: (n: number) => void;
  },
): Promise<'again' | 'parked' | null> {
  const { cfg, record: e, step, res } = a;
  const at = new Date(d.clock()).toISOString();
  if (res.outcome === 'notApplied' && (res.status === 404 || res.status === 405)) {
    const n = await d.store.write(async (trx) => {
      const seqs = await trx
        .selectFrom('changeLog')
        .select('seq')
        .where('attemptId', '=', step.attemptId)
        .where('syncedAt', 'is', null)
        .execute();
      const settled = await settleSeqs(
        trx,
        cfg.accountId,
        seqs.map((s) => s.seq),
        at,
      );
      await updateItem(trx, e.entityType, e.entityId, {
        state: 'idle',
        attemptId: null,
        attemptBody: null,
        failures: 0,
        nextTryAt: null,
        lastError: null,
        updatedAt: at,
      });
      await countKeptHere(trx, cfg.accountId, at);
      return settled;
    });
    cfg.marksNotTakenThisPass = true;
    a.progress(n);
    return 'again';
  }
  if (res.outcome !== 'applied') return null;
  const unknown = (res.body as { unknown?: unknown } | null)?.unknown;
  const sentId = (step.body as { donations?: Array<{ id: string }> } | undefined)?.donations?.[0]?.id;
  if (Array.isArray(unknown) && sentId !== undefined && unknown.includes(sentId)) {
    await d.store.write(async (trx) => {
      await releaseAttempt(trx, step.attemptId);
      await updateItem(trx, e.entityType, e.entityId, {
        state: 'attention',
        attemptId: null,
        attemptBody: null,
        attentionCode: 'deleted_at_hq',
        attentionReason: saidOf(
          cfg.kind,
          `HQ no longer has this gift (${sentId}): it was deleted at HQ, so its thank-you mark stays here. Discard this item.`,
        ),
        attentionStatus: res.status ?? null,
        attentionAt: at,
        failures: 0,
        nextTryAt: null,
        updatedAt: at,
      });
    });
    return 'parked';
  }
  // At a station the hub took the mark; whether the hub's HQ takes marks is the hub's to say
  // (its report's answer), so the station's note stays.
  if (cfg.marksNotTakenAt && cfg.kind !== 'hub') {
    await d.store.write((trx) =>
      trx
        .updateTable('syncRemotes')
        .set({ marksNotTakenAt: null, marksCheckedAt: at })
        .where('accountId', '=', cfg.accountId)
        .execute(),
    );
    cfg.marksNotTakenAt = null;
  }
  return null;
}

/**
 * Whether this account's HQ takes thank-you marks, as far as is known: false once HQ answered it
 * has no route for them (an HQ of the donor API alone), true once it answered otherwise, null
 * when the account has no HQ or HQ was never asked. At a station: what its hub said of the hub's HQ.
 */
export async function hqTakesMarks(db: Db, accountId: string): Promise<boolean | null> {
  const r = await db
    .selectFrom('syncRemotes')
    .select(['marksNotTakenAt', 'marksCheckedAt'])
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!r) return null;
  if (r.marksNotTakenAt !== null) return false;
  return r.marksCheckedAt !== null ? true : null;
}

/**
 * Writes down whether HQ takes thank-you marks (`takes` null: not known, nothing written). Only a
 * change is written: a first "not taken" keeps its time, and a "taken" lifts it.
 */
export async function noteMarksTaken(
  db: Db,
  accountId: string,
  takes: boolean | null,
  at: string,
): Promise<void> {
  if (takes === null) return;
  const r = await db
    .selectFrom('syncRemotes')
    .select(['marksNotTakenAt', 'marksCheckedAt'])
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!r) return;
  if (takes ? r.marksNotTakenAt === null && r.marksCheckedAt !== null : r.marksNotTakenAt !== null) return;
  await db
    .updateTable('syncRemotes')
    .set({ marksNotTakenAt: takes ? null : at, marksCheckedAt: at })
    .where('accountId', '=', accountId)
    .execute();
}

/**
 * Asks HQ once whether it has the route for thank-you marks, with nothing in it: GiftDesk as HQ
 * refuses the empty list (400) and changes nothing; an HQ of the donor API alone has no such
 * route (404 or 405). Null when HQ gave no answer that tells (no answer, 401/403, 429, 5xx).
 */
export async function askWhetherHqTakesMarks(
  remote: RemoteReader,
  remoteAccountId: string,
  signal?: AbortSignal,
): Promise<boolean | null> {
  const r = await remote.request(
    'POST',
    THANK_YOU_MARKS_PATH,
    { accountId: remoteAccountId, donations: [] },
    signal ? { signal } : {},
  );
  const status = r.status;
  if (status === undefined || status >= 500 || status === 401 || status === 403 || status === 429)
    return null;
  return !(status === 404 || status === 405);
}
