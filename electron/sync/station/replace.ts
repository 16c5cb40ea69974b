/**
 * Moving a station to a replacement hub (`giftdesk hub join … --replace`, Settings → Event's
 * join form with "This station belonged to a hub that is lost"): for when the event's hub was
 * lost for good after the stations handed it gifts, before all of them reached HQ.
 *
 * 1. The data folder must be a station already (of any hub, revoked or not); the pairing code
 *    is traded at the new hub exactly as a join does (join.ts: pinned from the first byte).
 * 2. In one transaction: the old hub is forgotten and everything typed here is unsent again
 *    (handover.ts), and the remote points at the new hub — its address, the station's new key
 *    there, the pinned fingerprint, the new hub's account id as the remote account.
 * 3. The new hub's feed is read to its end: its campaigns, committees and donation accounts are
 *    matched to this station's (reference-match.ts: by the new hub's id when it kept the old
 *    one's, else by name), and its donors come down.
 *
 * The station keeps its own account id (its records, keys and the app's session stay as they
 * are); only the remote account changes. The engine then sends everything typed here to the
 * new hub under this station's references: a gift the new hub already holds (restored from a
 * backup, or the new "hub" is HQ itself) is answered with its copy, nothing doubles.
 */
import type { DomainContext } from '../../domain/context.ts';
import { DomainError } from '../../domain/errors.ts';
import { recordingAnswers } from '../net/reachability.ts';
import { defaultClient } from '../push/default-client.ts';
import { currentStation, moveHubRemote } from '../remote/hub-remote.ts';
import { type KeySource, sealSecret } from '../remote/secret-box.ts';
import { loadRemoteConfig } from '../remote/settings.ts';
import { catchUp } from './feed.ts';
import { forgetHub } from './handover.ts';
import { type JoinInput, type JoinResult, noteHubHq, postJoin, readInput } from './join.ts';

export interface ReplaceResult extends JoinResult {
  /** The hub this station belonged to before. */
  previousHubUrl: string;
  /** Changes typed here that go to the new hub again. */
  resent: number;
  /** Donors typed at other stations that gifts typed here need, sent with them. */
  donors: number;
}

export async function replaceHub(
  ctx: DomainContext,
  keys: KeySource,
  input: JoinInput,
): Promise<ReplaceResult> {
  const { url, code, fingerprint, name } = readInput(input);
  const current = await currentStation(ctx.store.db);
  if (!current)
    throw new DomainError(
      'conflict',
      'not_a_station',
      'This data folder is not a station of an event: there is no hub to replace. Join without “replace”.',
      [{ field: 'replace', issue: 'this data folder belongs to no event' }],
    );
  const joined = await postJoin(url, fingerprint, code, name);
  const accountId = current.accountId;
  const secretSealed = await sealSecret(keys, joined.secret);
  const at = ctx.now();
  const handed = await ctx.store.write(async (trx) => {
    const h = await forgetHub(trx, accountId, at);
    await moveHubRemote(
      trx,
      {
        accountId,
        baseUrl: url,
        keyId: joined.keyId,
        secretSealed,
        fingerprint,
        stationId: joined.station.id,
        stationName: joined.station.name,
        remoteAccountId: joined.accountId,
      },
      at,
    );
    return h;
  });
  const cfg = await loadRemoteConfig(ctx.store.db, keys, accountId);
  const client = recordingAnswers(ctx.store, accountId, defaultClient(cfg!), Date.now, 'hub');
  // The key is kept here now: confirmed to the new hub as a join's is (join.ts).
  if (joined.confirmBy !== undefined)
    await client.request('POST', '/hub/join/confirm', { stationId: joined.station.id });
  const read = await catchUp(ctx.store, accountId, client);
  const account = await ctx.store.db
    .selectFrom('accounts')
    .select('name')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return {
    marksNote: await noteHubHq(ctx, accountId, joined.hqTakesThankYouMarks),
    accountId,
    accountName: account?.name ?? joined.accountName,
    station: joined.station,
    hubUrl: url,
    fingerprint,
    caughtUp: read.ok,
    previousHubUrl: current.baseUrl,
    resent: handed.resent,
    donors: handed.donors,
  };
}
