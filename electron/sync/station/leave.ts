/**
 * A station leaving its event (`giftdesk hub leave`): this data folder stops being a station
 * and becomes an ordinary GiftDesk. One upstream at a time: a station never pushes to HQ while
 * it belongs to an event, so leaving is the only way to HQ.
 *
 * - Without HQ (`hub leave`): only when the hub has confirmed every change typed here. Then the
 *   hub holds it all and takes it on to HQ; the station forgets the hub (its remote and every
 *   link to the hub's ids) and keeps its records. With anything unconfirmed it is refused,
 *   saying what to do: hand the changes to HQ, or move to a replacement hub (replace.ts).
 * - With HQ (`hub leave --to-hq URL …`, the `sync configure` settings): for a hub that is lost,
 *   or an event that ends before its hub reached HQ. HQ's address and key are tried first (as
 *   "Set up sync" does); then, in one transaction, the hub is forgotten and everything typed here
 *   is unsent again (handover.ts); HQ becomes the account's remote, and HQ's campaigns,
 *   committees, donation accounts and donors are pulled (linked by name and email). The engine
 *   sends every gift under this station's own reference — the one the hub sent it on under —
 *   so a gift the hub had already taken to HQ is answered with HQ's copy, and HQ takes once
 *   what never reached it.
 */
import type { DomainContext } from '../../domain/context.ts';
import { DomainError, invalidField } from '../../domain/errors.ts';
import { checkConnection } from '../net/connection-check.ts';
import { recordingAnswers } from '../net/reachability.ts';
import { pullFromHq } from '../pull/pull.ts';
import { defaultClient } from '../push/default-client.ts';
import { currentStation, deleteHubRemote } from '../remote/hub-remote.ts';
import type { KeySource } from '../remote/secret-box.ts';
import {
  loadRemoteConfig,
  normaliseBaseUrl,
  type RemoteSettingsInput,
  saveRemoteSettings,
} from '../remote/settings.ts';
import { forgetHub, unsentChanges } from './handover.ts';

export type HqTarget = Omit<RemoteSettingsInput, 'accountId' | 'secret'> & { secret: string };

export interface LeaveResult {
  accountId: string;
  /** The hub this data folder was a station of. */
  hubUrl: string;
  /** HQ, when the changes were handed to it. */
  hq: { baseUrl: string; remoteAccountId: string } | null;
  /** Changes typed here that go to HQ. */
  resent: number;
  /** HQ's directory and reference data came down (null without HQ); else why not. */
  pulled: { ok: true } | { ok: false; message: string } | null;
}

async function refuseUnsent(ctx: DomainContext, accountId: string, hubUrl: string): Promise<void> {
  const n = await unsentChanges(ctx.store.db, accountId);
  if (n === 0) return;
  throw new DomainError(
    'conflict',
    'unsent_changes',
    `${n} change${n === 1 ? '' : 's'} typed here ${n === 1 ? 'has' : 'have'} not reached the event hub at ${hubUrl}: leaving now would leave ${n === 1 ? 'it' : 'them'} with no way to HQ. Hand them to HQ (giftdesk hub leave --to-hq URL --key-id K --secret S --remote-account R), or move this station to a replacement hub (giftdesk hub join URL --code C --fingerprint F --replace).`,
    [
      {
        field: 'toHq',
        issue: `is required while ${n} change${n === 1 ? '' : 's'} wait${n === 1 ? 's' : ''}`,
      },
    ],
  );
}

/** HQ's settings checked, and HQ tried with them: nothing changes here when HQ says no. */
async function checkHq(hq: HqTarget): Promise<string> {
  if (!hq.keyId.trim()) throw invalidField('keyId', 'must not be empty');
  if (!hq.secret.trim()) throw invalidField('secret', 'must not be empty');
  if (!hq.remoteAccountId.trim()) throw invalidField('remoteAccountId', 'must not be empty');
  const baseUrl = normaliseBaseUrl(hq.baseUrl);
  const tried = await checkConnection({
    baseUrl,
    keyId: hq.keyId.trim(),
    secret: hq.secret.trim(),
    remoteAccountId: hq.remoteAccountId.trim(),
  });
  if (!tried.ok)
    throw new DomainError(
      tried.reachable ? 'bad_request' : 'bad_gateway',
      'hq_check_failed',
      `${tried.problem} Nothing was changed: this data folder is still a station of its event.`,
      [{ field: tried.field, issue: tried.problem }],
    );
  return baseUrl;
}

export async function leaveEvent(
  ctx: DomainContext,
  keys: KeySource,
  input: { toHq?: HqTarget | undefined },
): Promise<LeaveResult> {
  const station = await currentStation(ctx.store.db);
  if (!station)
    throw new DomainError('conflict', 'not_a_station', 'This data folder is not a station of an event.', [
      { field: 'url', issue: 'this data folder belongs to no event' },
    ]);
  const { accountId, baseUrl: hubUrl } = station;
  if (!input.toHq) {
    await refuseUnsent(ctx, accountId, hubUrl);
    await ctx.store.write(async (trx) => {
      await trx.deleteFrom('syncLinks').where('accountId', '=', accountId).execute();
      await trx.deleteFrom('syncItems').where('accountId', '=', accountId).execute();
      await trx.deleteFrom('hubHeldGifts').where('accountId', '=', accountId).execute();
      await trx.deleteFrom('hubSentGifts').where('accountId', '=', accountId).execute();
      await deleteHubRemote(trx, accountId);
    });
    return { accountId, hubUrl, hq: null, resent: 0, pulled: null };
  }
  const hq = input.toHq;
  const baseUrl = await checkHq(hq);
  const at = ctx.now();
  const handed = await ctx.store.write(async (trx) => {
    const h = await forgetHub(trx, accountId, at);
    await deleteHubRemote(trx, accountId);
    return h;
  });
  await saveRemoteSettings(ctx.store, keys, { ...hq, baseUrl, accountId }, at);
  const cfg = (await loadRemoteConfig(ctx.store.db, keys, accountId))!;
  const remote = recordingAnswers(ctx.store, accountId, defaultClient(cfg), Date.now, 'hq');
  const run = await pullFromHq({
    ctx,
    remote,
    accountId,
    remoteAccountId: cfg.remoteAccountId,
    emailMatch: cfg.emailMatch,
  });
  return {
    accountId,
    hubUrl,
    hq: { baseUrl, remoteAccountId: cfg.remoteAccountId },
    resent: handed.resent + handed.donors,
    pulled:
      run.status === 'done'
        ? { ok: true }
        : { ok: false, message: run.error ?? 'HQ stopped answering before the pull ended' },
  };
}
