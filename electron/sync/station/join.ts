/**
 * Joining an event as a station: this data folder becomes a station of the hub at `url`.
 *
 * 1. The address (or the hub's join link carrying the code and fingerprint) is read; the
 *    fingerprint is pinned from the first byte: the join itself goes only to the certificate
 *    with that fingerprint (net/pinned-fetch.ts), else nothing is sent.
 * 2. POST /hub/join with the code and the station's name: the hub answers its account (id and
 *    name), this station's id and its own API key.
 * 3. Locally, in one transaction: the account under the hub's id and name (a fresh folder has
 *    none; one that has it already must have no remote and nothing unsent), and the remote —
 *    kind 'hub', the key's secret sealed like an HQ's, the pinned fingerprint, the station.
 * 4. The pairing is confirmed to the hub with the new key (POST /hub/join/confirm): the hub
 *    counts a new station only once it says it kept its key, so a join that failed here after
 *    the hub answered (a refusal in step 3, a crash) leaves no station that never reports.
 * 5. The hub's feed is read to its end once, so the campaigns, committees, donation accounts,
 *    custom fields and the donor directory are here before this returns: pairing alone is
 *    enough to start entering gifts. (If the hub stops answering right then, the station is
 *    joined all the same and the scheduler's feed brings the rest; `caughtUp` says so.)
 *
 * A station its hub removed pairs again the same way, with a fresh code: it goes on as the same
 * station (rejoin.ts).
 *
 * Refused, each in words a person can act on: an address that is not https, a fingerprint
 * that is not one, a data folder that is a station already, a hub whose certificate is not the
 * pinned one, the hub's own refusals (a wrong, used or expired code: 403; too many wrong codes:
 * 429) passed on with its message.
 */
import { type HubRejoin, HubJoined } from '#shared/schemas/hub.ts';
import { parseHubAddress } from '#shared/hub-address.ts';
import { normaliseFingerprint } from '#shared/hub-link.ts';
import type { DomainContext } from '../../domain/context.ts';
import { DomainError, invalidField } from '../../domain/errors.ts';
import { apiRoot } from '../net/http-client.ts';
import { describeNetworkError } from '../net/network-error.ts';
import { PIN_MISMATCH_CODE, PIN_MISMATCH_MESSAGE, pinnedFetch } from '../net/pinned-fetch.ts';
import { recordingAnswers } from '../net/reachability.ts';
import { defaultClient } from '../push/default-client.ts';
import { insertHubRemote, reopenHubRemote } from '../remote/hub-remote.ts';
import { type KeySource, sealSecret } from '../remote/secret-box.ts';
import { getRemoteSettings, loadRemoteConfig } from '../remote/settings.ts';
import { noteMarksTaken } from '../push/marks.ts';
import { marksNote } from '../status/status.ts';
import { catchUp } from './feed.ts';
import { joinSteps } from './join-progress.ts';
import { parseRemoteError } from '../net/error-body.ts';
import { type RemovedStation, refuseAnotherHub, removedStation } from './rejoin.ts';

export interface JoinInput {
  /** The hub's address, or its join link. */
  url: string;
  code?: string | undefined;
  fingerprint?: string | undefined;
  name: string;
}

export interface JoinResult {
  accountId: string;
  accountName: string;
  station: { id: string; name: string };
  hubUrl: string;
  fingerprint: string;
  /** The feed was read to its end (reference data and directory are here). */
  caughtUp: boolean;
  /** A station the hub had removed, taken back as the same station (rejoin.ts). */
  again?: true;
  /** The one sentence saying the hub's HQ takes no thank-you marks (an HQ of the donor API alone), or null (a replacement hub: its status says it once known). */
  marksNote: string | null;
}

/** What the hub said of its HQ's thank-you marks, written down here; the sentence the status shows. */
export async function noteHubHq(
  ctx: DomainContext,
  accountId: string,
  takes: boolean | null | undefined,
): Promise<string | null> {
  await ctx.store.write((trx) => noteMarksTaken(trx, accountId, takes ?? null, ctx.now()));
  const s = await getRemoteSettings(ctx.store.db, accountId);
  return s ? marksNote(s.marksKeptHere, s.marksNotTakenAt, s.kind) : null;
}

const JOIN_TIMEOUT_MS = 15_000;

/** The address, code and fingerprint, from the fields or the link; a 400 naming the field. */
export function readInput(input: JoinInput): {
  url: string;
  code: string;
  fingerprint: string;
  name: string;
} {
  const link = parseHubAddress(input.url);
  if ('problem' in link) throw invalidField('url', link.problem);
  const code = input.code?.trim() || link.code;
  if (!code) throw invalidField('code', 'is required (the pairing code the hub shows)');
  const rawFp = input.fingerprint?.trim() || link.fingerprint;
  if (!rawFp) throw invalidField('fingerprint', 'is required (the fingerprint the hub shows)');
  const fingerprint = normaliseFingerprint(rawFp);
  if (!fingerprint)
    throw invalidField('fingerprint', 'must be sha256: followed by the certificate’s 64 hex digits');
  const name = input.name.trim();
  if (!name) throw invalidField('name', 'must not be empty');
  if (name.length > 80) throw invalidField('name', 'must be at most 80 characters');
  return { url: link.url, code, fingerprint, name };
}

/** A data folder that is a station already (of any hub) joins no other event. */
async function refuseIfStation(ctx: DomainContext): Promise<void> {
  const r = await ctx.store.db
    .selectFrom('syncRemotes')
    .select(['accountId', 'baseUrl'])
    .where('kind', '=', 'hub')
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  if (r)
    throw new DomainError(
      'conflict',
      'already_a_station',
      `This data folder is already a station of the event hub at ${r.baseUrl} (account ${r.accountId}). Use another data folder to join another event.`,
      [{ field: 'url', issue: 'this data folder belongs to another event' }],
    );
}

/**
 * POST /hub/join over the pinned connection: the hub's answer, or the refusal in words.
 * `rejoin`: this station, removed by that hub, pairs again (rejoin.ts).
 */
export async function postJoin(
  url: string,
  fingerprint: string,
  code: string,
  name: string,
  rejoin?: HubRejoin,
) {
  let res: Response;
  try {
    res = await pinnedFetch(fingerprint)(new URL(`${apiRoot(url)}/hub/join`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(rejoin ? { code, name, rejoin } : { code, name }),
      signal: AbortSignal.timeout(JOIN_TIMEOUT_MS),
    });
  } catch (err) {
    const d = describeNetworkError(err);
    if (d.error.code === PIN_MISMATCH_CODE)
      throw new DomainError(
        'bad_request',
        'hub_fingerprint_mismatch',
        `${PIN_MISMATCH_MESSAGE}: nothing was sent to ${url}. Check the fingerprint the hub shows (and its address).`,
        [{ field: 'fingerprint', issue: 'does not match the hub’s certificate' }],
      );
    throw new DomainError(
      'bad_gateway',
      'hub_unreachable',
      `The event hub at ${url} cannot be reached (${d.error.message}). Check the address and that this laptop is on the event's network.`,
      [{ field: 'url', issue: 'does not answer' }],
    );
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: the text is the answer */
  }
  if (res.ok) {
    const joined = HubJoined.safeParse(body);
    if (joined.success) return joined.data;
    throw new DomainError(
      'bad_gateway',
      'hub_bad_answer',
      `The event hub at ${url} answered the join in a form GiftDesk does not know`,
    );
  }
  const e = parseRemoteError(res.status, body, typeof body === 'string' ? body : '');
  if (e.code === 'station_rejoin_refused')
    throw new DomainError('forbidden', e.code, `The hub did not take this station back: ${e.message}`, [
      { field: 'url', issue: e.message },
    ]);
  if (res.status === 403 || res.status === 401)
    throw new DomainError(
      'forbidden',
      e.code ?? 'pairing_refused',
      `The hub refused the pairing code: ${e.message}`,
      [{ field: 'code', issue: e.message }],
    );
  if (res.status === 429) {
    const wait = res.headers.get('retry-after');
    throw new DomainError(
      'too_many_requests',
      e.code ?? 'too_many_attempts',
      `The hub refused: too many wrong codes${wait ? `; try again in ${wait} s` : '; try again in a minute'}. ${e.message}`,
      [{ field: 'code', issue: 'too many wrong codes' }],
    );
  }
  if (res.status === 400)
    throw new DomainError(
      'bad_request',
      e.code ?? 'hub_refused',
      `The hub refused the join: ${e.message}`,
      e.details,
    );
  throw new DomainError(
    'bad_gateway',
    'hub_join_failed',
    `The event hub at ${url} failed to answer the join (${res.status}): ${e.message}`,
  );
}

/** The account here may become the hub's: absent, or present with no remote and nothing unsent. */
async function refuseIfAccountBusy(ctx: DomainContext, accountId: string): Promise<boolean> {
  const db = ctx.store.db;
  const account = await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
  if (!account) return false;
  const remote = await db
    .selectFrom('syncRemotes')
    .select('baseUrl')
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (remote)
    throw new DomainError(
      'conflict',
      'account_has_remote',
      `The event's account ${accountId} is in this data folder already, syncing to ${remote.baseUrl}: a station has the hub as its only remote. Join from another data folder.`,
      [{ field: 'url', issue: 'this account syncs elsewhere here' }],
    );
  const unsent = await db
    .selectFrom('changeLog')
    .select('seq')
    .where('accountId', '=', accountId)
    .where('push', '=', 1)
    .where('syncedAt', 'is', null)
    .limit(1)
    .executeTakeFirst();
  if (unsent)
    throw new DomainError(
      'conflict',
      'account_has_unsent_changes',
      `The event's account ${accountId} is in this data folder with changes never sent anywhere: joining would hand them to the hub unasked. Join from another data folder.`,
      [{ field: 'url', issue: 'this account has unsent changes here' }],
    );
  return true;
}

/**
 * A station the hub removed pairs again with it (rejoin.ts): the hub takes the same station
 * back, and the remote here gets the new key, keeping its cursor and links.
 */
async function joinAgain(
  ctx: DomainContext,
  keys: KeySource,
  removed: RemovedStation,
  input: { url: string; code: string; fingerprint: string; name: string },
): Promise<JoinResult> {
  refuseAnotherHub(removed, input.fingerprint);
  const joined = await postJoin(input.url, input.fingerprint, input.code, input.name, removed.proof);
  if (joined.station.id !== removed.stationId || joined.accountId !== removed.remoteAccountId)
    throw new DomainError(
      'bad_gateway',
      'hub_bad_answer',
      `The event hub at ${input.url} answered the pairing with another station: nothing was changed here`,
    );
  const secretSealed = await sealSecret(keys, joined.secret);
  const at = ctx.now();
  await ctx.store.write((trx) =>
    reopenHubRemote(
      trx,
      {
        accountId: removed.accountId,
        baseUrl: input.url,
        keyId: joined.keyId,
        secretSealed,
        stationName: joined.station.name,
      },
      at,
    ),
  );
  const cfg = await loadRemoteConfig(ctx.store.db, keys, removed.accountId);
  const client = recordingAnswers(ctx.store, removed.accountId, defaultClient(cfg!), Date.now, 'hub');
  const read = await catchUp(ctx.store, removed.accountId, client);
  const note = await noteHubHq(ctx, removed.accountId, joined.hqTakesThankYouMarks);
  return {
    marksNote: note,
    accountId: removed.accountId,
    accountName: joined.accountName,
    station: joined.station,
    hubUrl: input.url,
    fingerprint: input.fingerprint,
    caughtUp: read.ok,
    again: true,
  };
}

export async function joinHub(ctx: DomainContext, keys: KeySource, input: JoinInput): Promise<JoinResult> {
  // What the join is doing, for the person waiting on it (GET /event/join/progress).
  const steps = joinSteps(ctx.store, ctx.now);
  try {
    const done = await joinHubSteps(ctx, keys, input, steps);
    steps.end(true);
    return done;
  } catch (err) {
    steps.end(false);
    throw err;
  }
}

async function joinHubSteps(
  ctx: DomainContext,
  keys: KeySource,
  input: JoinInput,
  steps: ReturnType<typeof joinSteps>,
): Promise<JoinResult> {
  const { url, code, fingerprint, name } = readInput(input);
  const removed = await removedStation(ctx.store.db, keys);
  if (removed) return joinAgain(ctx, keys, removed, { url, code, fingerprint, name });
  await refuseIfStation(ctx);
  const joined = await postJoin(url, fingerprint, code, name);
  steps.bringing(joined.holds);
  const accountId = joined.accountId;
  const exists = await refuseIfAccountBusy(ctx, accountId);
  const secretSealed = await sealSecret(keys, joined.secret);
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    if (!exists)
      await trx
        .insertInto('accounts')
        .values({
          id: accountId,
          name: joined.accountName,
          defaultElectionType: null,
          defaultElectionYear: null,
          createdAt: at,
        })
        .execute();
    await insertHubRemote(
      trx,
      {
        accountId,
        baseUrl: url,
        keyId: joined.keyId,
        secretSealed,
        fingerprint,
        stationId: joined.station.id,
        stationName: joined.station.name,
      },
      at,
    );
  });
  const cfg = await loadRemoteConfig(ctx.store.db, keys, accountId);
  const client = recordingAnswers(ctx.store, accountId, defaultClient(cfg!), Date.now, 'hub');
  // The key is kept here now: say so to the hub, which ends a station that never does (a join
  // that failed on this side after the hub answered). If this does not get through, the
  // station's first report confirms it (within the hub's 10 minutes when it serves).
  if (joined.confirmBy !== undefined)
    await client.request('POST', '/hub/join/confirm', { stationId: joined.station.id });
  const read = await catchUp(ctx.store, accountId, client, {
    deferTotals: true,
    onPage: (counts) => steps.page(counts),
  });
  steps.finishing();
  const note = await noteHubHq(ctx, accountId, joined.hqTakesThankYouMarks);
  return {
    marksNote: note,
    accountId,
    accountName: joined.accountName,
    station: joined.station,
    hubUrl: url,
    fingerprint,
    caughtUp: read.ok,
  };
}
