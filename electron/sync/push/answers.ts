/**
 * Record: a request's answer written down, in one transaction per outcome (outcome.ts
 * classifies it):
 * - applied → the remote id linked (a create), the links dropped (a delete: HQ deleted the
 *   contact's gifts with it), the attempt's changes done, the item idle with what HQ now
 *   holds; a DELETE answered 404 is done too; a create answered 200 (GiftDesk HQ already held
 *   a record with its reference, from an earlier attempt that landed late) is linked, and its
 *   changes go again: coalesce.ts turns them into an update of what HQ's copy may lack;
 * - not applied → the attempt's changes pending again; then 429 → again after the pacer's
 *   pause; no answer, 408 or a redirect (the address is not HQ's API) → backoff; 401/403 →
 *   the pass stops (but a contact reference's retirement refused for the key's role is done:
 *   nothing more can be asked of HQ for it); any other 4xx → parked with HQ's message (an update answered 404:
 *   deleted at HQ). A failure of the connection is written in connection-problem.ts's words,
 *   never as this record's fault;
 * - unknown (timeout, reset after sending, 5xx, a create answered without an id) → `unknown`
 *   + backoff, a create at least until its request's deadline has passed: it is looked for at
 *   HQ (reconcile.ts) before anything else is sent for it.
 * Thank-you marks' own answers (HQ has no route for them, or no such gift) are marks.ts's.
 */
import type { Store } from '../../db/store.ts';
import { backoffDelay } from '../net/backoff.ts';
import { connectionProblem } from '../net/connection-problem.ts';
import { type RemoteKind, saidOf } from '../net/remote-words.ts';
import type { RemoteResult } from '../net/http-client.ts';
import { type PendingEntity, releaseAttempt, settleAttempt } from '../outbox/outbox.ts';
import type { SendStep } from './prepare-step.ts';
import type { RemoteConfig } from '../remote/settings.ts';
import {
  heldByAnother,
  linkRemote,
  localIdFor,
  noteSentToHq,
  remoteIdFor,
  unlinkRemote,
} from '../outbox/links.ts';
import { getItem, type PushEntity, updateItem } from '../outbox/items.ts';
import { bringDonorBack } from '../station/donor-back.ts';
import { deletedDonorsNamed, landedUnderDeletedDonor } from './donor-gone.ts';
import { takeHubDonor } from '../station/feed-contacts.ts';
import { applyHeldGifts } from '../station/feed-gifts.ts';
import { foldNewDonor } from './fold-donor.ts';
import { isMarksStep, recordMarksAnswer } from './marks.ts';
import { isRetirement } from './prepare-contact.ts';

export interface RecordDeps {
  store: Store;
  clock: () => number;
  /** The backoff's jitter. */
  random: () => number;
  /** Whose words the sentences are in: HQ's, or the event hub's at a station (remote-words.ts). */
  kind?: RemoteKind | undefined;
}

export interface AnswerInput {
  /** The remote's settings; `lastError` is set when HQ refused the key. */
  cfg: Pick<RemoteConfig, 'accountId' | 'baseUrl' | 'lastError'> &
    Partial<Pick<RemoteConfig, 'marksNotTakenAt' | 'marksNotTakenThisPass'>> & {
      kind?: RemoteKind | undefined;
    };
  record: PendingEntity;
  /** The request as prepare.ts marked it in flight. */
  step: SendStep;
  res: RemoteResult;
  /** The request's deadline: a create of unknown outcome is not looked for before it has passed. */
  deadlineMs: number;
  /** Changes done. */
  progress: (n: number) => void;
}

/** `folded`: a station's new donor was the one it holds already, and went into it (fold-donor.ts). */
export type RecordResult = 'again' | 'failed' | 'parked' | 'auth' | 'folded';

/**
 * Whether HQ holds what the request asked for: applied, a DELETE of what HQ no longer has, or
 * (at a station) a void of a gift the event hub holds voided already (prepare-donation.ts).
 */
export function isApplied(
  step: Pick<SendStep, 'op' | 'path'>,
  res: Pick<RemoteResult, 'outcome' | 'status' | 'error'>,
): boolean {
  return (
    res.outcome === 'applied' ||
    (step.op === 'delete' && res.status === 404) ||
    (step.path.endsWith('/void') && res.status === 409 && res.error?.code === 'donation_voided')
  );
}

/**
 * Records a request's answer, each outcome in one transaction. `again`: applied (or a 429),
 * look at the record once more; `failed`: backed off; `parked`: needs a person; `auth`: HQ
 * refused the key (`cfg.lastError` says so; the pass stops).
 */
export async function recordAnswer(d: RecordDeps, a: AnswerInput): Promise<RecordResult> {
  const { store } = d;
  const { cfg, record: e, step, res } = a;
  const at = new Date(d.clock()).toISOString();
  if (isMarksStep(step)) {
    const marks = await recordMarksAnswer(d, a);
    if (marks) return marks;
  }
  if (isApplied(step, res)) {
    const remoteId = step.op === 'create' ? remoteIdOf(res.body) : null;
    if (step.op === 'create' && !remoteId) {
      await backOff(d, e, 'HQ answered the create without an id', { unknown: true });
      return 'failed';
    }
    // A create answered 200, not 201: HQ already held a record with this one's reference (an
    // earlier attempt that landed late) and answered with it, writing nothing. HQ holds what
    // that attempt carried, not necessarily this one's body (an edit made since may be in it):
    // linked, and the changes go again, so whatever HQ's copy lacks follows as an update.
    const existing = step.op === 'create' && res.status === 200;
    const n = await store.write(async (trx) => {
      const link = {
        accountId: cfg.accountId,
        entityType: e.entityType,
        localId: e.entityId,
        remoteId: remoteId!,
      };
      if (step.op === 'create' && (await heldByAnother(trx, link))) {
        // HQ answered with a record linked to another local record: never this one's. Nothing
        // is linked; a person looks (retrying posts it again).
        const other = await localIdFor(trx, cfg.accountId, e.entityType, remoteId!);
        // At a station: the event hub holds one donor, and so does this station (fold-donor.ts).
        if (e.entityType === 'contact' && cfg.kind === 'hub' && other !== null) {
          const done = await foldNewDonor(trx, {
            accountId: cfg.accountId,
            newId: e.entityId,
            heldId: other,
            attemptId: step.attemptId,
            at,
          });
          if (done !== null) return { folded: done };
        }
        await releaseAttempt(trx, step.attemptId);
        await updateItem(trx, e.entityType, e.entityId, {
          state: 'attention',
          attemptId: null,
          attemptBody: null,
          attentionCode: 'remote_refused',
          attentionReason: saidOf(
            cfg.kind,
            `HQ answered this create with its record ${remoteId!}, which is another record's here (${other ?? '?'}): nothing was linked. Check both at HQ, then retry or discard this item.`,
          ),
          attentionStatus: res.status ?? null,
          attentionAt: at,
          failures: 0,
          nextTryAt: null,
          updatedAt: at,
        });
        return null;
      }
      if (
        step.op === 'create' &&
        e.entityType === 'donation' &&
        cfg.kind === 'hub' &&
        (await landedUnderDeletedDonor(trx, e.entityId, step.body))
      ) {
        // At a station: the gift reached the hub just before the hub deleted its donor, and went
        // with it there; the donor is on its way back (donor-back.ts), and the gift goes again
        // after it, under its new hub id. Nothing is linked.
        await releaseAttempt(trx, step.attemptId);
        await updateItem(trx, e.entityType, e.entityId, {
          state: 'idle',
          attemptId: null,
          attemptBody: null,
          failures: 0,
          nextTryAt: null,
          updatedAt: at,
        });
        return 0;
      }
      if (step.op === 'create')
        await linkRemote(trx, {
          accountId: cfg.accountId,
          entityType: e.entityType,
          localId: e.entityId,
          remoteId: remoteId!,
          source: existing ? 'found' : 'pushed',
          at,
        });
      // At a station: the record here is the hub's donor, its values and times (feed-contacts.ts).
      if (step.op === 'create' && e.entityType === 'contact' && cfg.kind === 'hub')
        await takeHubDonor(trx, cfg.accountId, e.entityId, res.body, at);
      // At an event hub: the stations learn that HQ has this gift now (the hub's feed).
      if (step.op === 'create' && e.entityType === 'donation' && cfg.kind !== 'hub')
        await noteSentToHq(trx, cfg.accountId, e.entityId, at);
      // At a station: gifts of the hub's feed that waited for this donor are written now.
      if (step.op === 'create' && e.entityType === 'contact') await applyHeldGifts(trx, cfg.accountId, at);
      if (step.op === 'delete') {
        // Gone from HQ: never an email match again (email-match.ts's directory).
        const gone = await remoteIdFor(trx, e.entityType, e.entityId);
        if (gone && e.entityType === 'contact')
          await trx
            .deleteFrom('syncHqContacts')
            .where('accountId', '=', cfg.accountId)
            .where('remoteId', '=', gone)
            .execute();
        await unlinkRemote(trx, e.entityType, e.entityId);
        // HQ deleted the contact's gifts with it.
        const gifts = await trx
          .selectFrom('syncItems')
          .select('entityId')
          .where('entityType', '=', 'donation')
          .where('laneId', '=', e.entityId)
          .execute();
        for (const g of gifts) await unlinkRemote(trx, 'donation', g.entityId);
      }
      let settled = 0;
      if (existing) await releaseAttempt(trx, step.attemptId);
      else settled = await settleAttempt(trx, cfg.accountId, step.attemptId, at);
      // At a station: its own gift, which the feed brought before this answer, takes the hub's values.
      if (step.op === 'create' && e.entityType === 'donation') await applyHeldGifts(trx, cfg.accountId, at);
      await updateItem(trx, e.entityType, e.entityId, {
        state: 'idle',
        attemptId: null,
        attemptBody: null,
        failures: 0,
        nextTryAt: null,
        lastError: null,
        ...(step.op === 'delete' || isMarksStep(step)
          ? {}
          : { pushedState: JSON.stringify((existing ? res.body : step.body) ?? null) }),
        updatedAt: at,
      });
      return settled;
    });
    if (n === null) return 'parked';
    if (typeof n === 'object') {
      a.progress(n.folded);
      return 'folded';
    }
    a.progress(n);
    return 'again';
  }
  if (
    res.outcome === 'notApplied' &&
    res.status === 403 &&
    res.error?.code === 'role_forbidden' &&
    isRetirement(step)
  ) {
    // HQ's key may not delete contacts, so the reference cannot be retired there: the delete is
    // done, as with an HQ of the donor API alone (a create landing late stays at HQ).
    const n = await store.write(async (trx) => {
      const settled = await settleAttempt(trx, cfg.accountId, step.attemptId, at);
      await updateItem(trx, e.entityType, e.entityId, {
        state: 'idle',
        attemptId: null,
        attemptBody: null,
        updatedAt: at,
      });
      return settled;
    });
    a.progress(n);
    return 'again';
  }
  if (res.outcome === 'notApplied') {
    const status = res.status;
    await store.write(async (trx) => {
      await releaseAttempt(trx, step.attemptId);
      await updateItem(trx, e.entityType, e.entityId, {
        state: 'idle',
        attemptId: null,
        attemptBody: null,
        updatedAt: at,
      });
    });
    if (status === 429) return 'again';
    // The connection's problem, not this record's: said in connection-problem.ts's words.
    const problem = connectionProblem(res, cfg.baseUrl, cfg.kind);
    if (status === undefined || status === 408) {
      await backOff(
        d,
        e,
        problem?.sentence ?? res.error?.message ?? res.networkError?.message ?? 'HQ could not be reached',
      );
      return 'failed';
    }
    if (status === 401 || status === 403) {
      cfg.lastError = saidOf(cfg.kind, problem?.sentence ?? `HQ refused the API key (${status})`);
      return 'auth';
    }
    if (problem) {
      // A redirect: the address is not HQ's API. Nothing was applied; tried again later.
      await backOff(d, e, problem.sentence);
      return 'failed';
    }
    // At a station: the hub no longer has a donor this request names (deleted there meanwhile).
    // The gift wins: the donor goes back to the hub, and this record after it (donor-back.ts).
    if (cfg.kind === 'hub' && status === 404) {
      const back = await store.write(async (trx) => {
        let brought = false;
        for (const donor of await deletedDonorsNamed(trx, e, step, res))
          if (await bringDonorBack(trx, cfg.accountId, donor, at)) brought = true;
          // Brought back already (the feed's page came first): this record goes after its create.
          else if ((await remoteIdFor(trx, 'contact', donor)) === null) brought = true;
        return brought;
      });
      if (back) return 'again';
    }
    const message = remoteMessage(res);
    // At a station: the hub keeps a donor deleted here (it has gifts typed elsewhere); the
    // station gets it back from the hub (station/kept-donors.ts), with nothing for a person to do.
    const kept = cfg.kind === 'hub' && step.op === 'delete' && res.error?.code === 'donor_has_other_gifts';
    await store.write((trx) =>
      updateItem(trx, e.entityType, e.entityId, {
        state: 'attention',
        attentionCode: kept
          ? 'kept_at_hub'
          : step.op === 'update' && status === 404
            ? 'deleted_at_hq'
            : 'remote_refused',
        attentionReason: saidOf(
          cfg.kind,
          kept
            ? `HQ keeps this donor: ${message} It comes back here from HQ.`
            : step.op === 'update' && status === 404
              ? `HQ no longer has this contact (404): it was deleted at HQ. Discard this item, or delete the contact here too. HQ said: ${message}`
              : `HQ refused the ${step.op} (${status}): ${message}`,
        ),
        attentionStatus: status,
        attentionAt: at,
        failures: 0,
        nextTryAt: null,
        updatedAt: at,
      }),
    );
    return 'parked';
  }
  // A create may still land until its request's deadline has passed: not looked for before.
  await backOff(
    d,
    e,
    connectionProblem(res, cfg.baseUrl, cfg.kind)?.sentence ??
      res.error?.message ??
      res.networkError?.message ??
      `HQ answered ${res.status ?? 'nothing'}`,
    { unknown: true, notBefore: step.op === 'create' ? res.sentAt + a.deadlineMs : 0 },
  );
  return 'failed';
}

/**
 * A transport failure: the record backs off (full jitter, capped; shown after three in a row),
 * not before `notBefore`; `unknown` when the request may have been applied (it is then looked
 * for at HQ before anything else is sent for it).
 */
export async function backOff(
  d: RecordDeps,
  e: { entityType: PushEntity; entityId: string },
  why: string,
  o: { unknown?: boolean; notBefore?: number } = {},
): Promise<void> {
  const at = new Date(d.clock()).toISOString();
  const unknown = o.unknown ?? false;
  const notBefore = o.notBefore ?? 0;
  await d.store.write(async (trx) => {
    const item = await getItem(trx, e.entityType, e.entityId);
    const failures = (item?.failures ?? 0) + 1;
    await updateItem(trx, e.entityType, e.entityId, {
      ...(unknown ? { state: 'unknown' } : {}),
      failures,
      nextTryAt: new Date(
        Math.max(notBefore, d.clock() + backoffDelay(failures - 1, { random: d.random })),
      ).toISOString(),
      lastError: saidOf(d.kind, why),
      updatedAt: at,
    });
  });
}

export function remoteIdOf(body: unknown): string | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

/** HQ's message in either error shape: `{statusCode, error, message, details}` or `{error: {…}}`. */
export function remoteMessage(res: RemoteResult): string {
  const base = res.error?.message ?? `HTTP ${res.status ?? '?'}`;
  const details = res.error?.details;
  if (Array.isArray(details) && details.length > 0) {
    const parts = details.map((d) =>
      d && typeof d === 'object' && 'field' in d
        ? `${String((d as { field: unknown }).field)} ${String((d as { issue?: unknown }).issue ?? '')}`.trim()
        : JSON.stringify(d),
    );
    return `${base} (${parts.join('; ')})`;
  }
  return base;
}
