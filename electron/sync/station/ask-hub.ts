/**
 * A station's correction or void of its own gift once the event hub holds it. The hub is
 * GiftDesk, not HQ: it takes the change under its own rules (every create rule again, only the
 * station's own gifts, never one it has sent to HQ), and its feed brings the result back here
 * and to every other station. So the station does not change its copy itself: it asks the hub
 * (PATCH /donations/{hub id} or POST /donations/{hub id}/void, with the station's key over the
 * pinned client), then reads the hub's feed once, so its copy shows the hub's word before the
 * station's own route answers.
 *
 * - A gift the hub does not have yet (still in this station's outbox) is not this file's: the
 *   station corrects it itself, as any GiftDesk does before the first send (`hubHold` says
 *   'local'). One being handed to the hub right now waits for that answer ('sending').
 * - Every id in a correction is this station's; each goes to the hub as the hub's id (the id
 *   map, links.ts). A record the hub has not got yet (a donor typed here a moment ago, still on
 *   its way) is a 409 that says so; one that does not exist here a 404 naming the field.
 * - The hub unreachable: a 503 in words, nothing changed. The hub's own refusal (400 naming a
 *   field, 403, 404, 409 "sent to HQ: change it there") is passed on with its words.
 */
import type { DonationPatchBody } from '#shared/schemas/donations.ts';
import type { Store } from '../../db/store.ts';
import type { EntityType } from '../../domain/change-log.ts';
import { DomainError, notFound } from '../../domain/index.ts';
import type { RemoteClient, RemoteResult } from '../net/http-client.ts';
import { recordingAnswers } from '../net/reachability.ts';
import { remoteIdFor } from '../outbox/links.ts';
import { defaultClient } from '../push/default-client.ts';
import { withDonationReference } from '../push/identity.ts';
import { identityOf } from '../push/sync-identity.ts';
import type { KeySource } from '../remote/secret-box.ts';
import { loadRemoteConfig, type RemoteConfig } from '../remote/settings.ts';
import { catchUp } from './feed.ts';

/** Where a station's gift is, for a change to it: here only, on its way, or at the hub. */
export type HubHold = { at: 'local' } | { at: 'sending' } | { at: 'hub'; hubId: string };

/** A change asked of the hub. */
export type HubChange =
  { kind: 'correct'; patch: Omit<DonationPatchBody, 'accountId'> } | { kind: 'void'; reason: string | null };

/** The fields of a correction that name a record, and what kind of record. */
const ID_FIELDS: Array<[Exclude<keyof DonationPatchBody, 'accountId'>, EntityType]> = [
  ['contactId', 'contact'],
  ['onBehalfOfContactId', 'contact'],
  ['facilitatedByContactId', 'contact'],
  ['campaignId', 'campaign'],
  ['committeeId', 'committee'],
  ['donationAccountId', 'donationAccount'],
];

const TABLE: Record<string, 'contacts' | 'campaigns' | 'committees' | 'donationAccounts'> = {
  contact: 'contacts',
  campaign: 'campaigns',
  committee: 'committees',
  donationAccount: 'donationAccounts',
};

export const HUB_UNREACHABLE = 'the event hub cannot be reached: try again when it answers';

/**
 * Where this gift is, when the account is a station of an event hub; null when it is not a
 * station (the gift is corrected here as always). A gift another station typed is at the hub
 * too: the hub refuses this station's change of it.
 */
export async function hubHold(store: Store, accountId: string, donationId: string): Promise<HubHold | null> {
  const db = store.db;
  const remote = await db
    .selectFrom('syncRemotes')
    .select('kind')
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (remote?.kind !== 'hub') return null;
  const hubId = await remoteIdFor(db, 'donation', donationId);
  if (hubId !== null) return { at: 'hub', hubId };
  const item = await db
    .selectFrom('syncItems')
    .select('state')
    .where('entityType', '=', 'donation')
    .where('entityId', '=', donationId)
    .executeTakeFirst();
  return item?.state === 'in_flight' || item?.state === 'unknown' ? { at: 'sending' } : { at: 'local' };
}

/** The correction with every id as the hub's, and the notes still ending with the gift's reference. */
async function patchForHub(
  store: Store,
  accountId: string,
  donationId: string,
  patch: Omit<DonationPatchBody, 'accountId'>,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { ...patch };
  for (const [field, kind] of ID_FIELDS) {
    const local = patch[field];
    if (typeof local !== 'string') continue;
    const hubId = await remoteIdFor(store.db, kind, local);
    if (hubId !== null) {
      out[field] = hubId;
      continue;
    }
    const here = await store.db
      .selectFrom(TABLE[kind]!)
      .select('id')
      .where('id', '=', local)
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    if (!here) throw notFound(kind === 'donationAccount' ? 'donation account' : kind, field, local);
    throw new DomainError(
      'conflict',
      'not_at_hub_yet',
      `${field} names a record the event hub does not have yet (it is on its way): try again in a moment`,
      [{ field, issue: 'is not at the event hub yet' }],
    );
  }
  // The hub keeps the gift under this station's reference: new notes keep it on their last line.
  if (patch.notes !== undefined)
    out.notes = withDonationReference(
      patch.notes ?? null,
      await identityOf(store.db, 'donation', donationId),
    );
  return out;
}

const KIND_OF: Record<number, ConstructorParameters<typeof DomainError>[0]> = {
  400: 'bad_request',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  429: 'too_many_requests',
};

/** The hub's refusal, or its silence, as this station's answer. */
function refusal(r: RemoteResult): DomainError {
  const status = r.status;
  if (status === undefined) {
    const maybe = r.sent
      ? 'The event hub did not answer: the change may or may not have been made there. This gift shows the hub’s word once the hub answers; look at it before asking again.'
      : `The change was not made: ${HUB_UNREACHABLE}.`;
    return new DomainError('unavailable', 'hub_unreachable', maybe);
  }
  const kind = KIND_OF[status];
  if (kind && r.error)
    return new DomainError(
      kind,
      r.error.code ?? 'hub_refused',
      r.error.message,
      r.error.details?.map((d) => ({ field: d.field, issue: d.issue })),
    );
  if (status === 401 && r.error?.code === 'station_revoked')
    return new DomainError('conflict', 'station_revoked', r.error.message);
  return new DomainError(
    'unavailable',
    'hub_unreachable',
    `The change was not made: the event hub answered ${status}${r.error ? ` (${r.error.message})` : ''}: try again when it answers.`,
  );
}

export interface AskHubOptions {
  store: Store;
  keys: KeySource;
  accountId: string;
  /** The station's own id of the gift, and its id at the hub (hubHold). */
  donationId: string;
  hubId: string;
  change: HubChange;
  /** Reads the hub's feed through the running feed loop; false when none runs here. */
  readNow?: () => Promise<boolean>;
  makeClient?: (cfg: RemoteConfig) => RemoteClient;
  clock?: () => number;
}

/** Asks the hub for the change; after its yes, the hub's feed is read once. Throws its refusal in words. */
export async function askHub(o: AskHubOptions): Promise<void> {
  const cfg = await loadRemoteConfig(o.store.db, o.keys, o.accountId);
  if (!cfg || cfg.kind !== 'hub')
    throw new DomainError('conflict', 'not_a_station', 'This account is not a station of an event hub');
  if (cfg.revokedAt !== null)
    throw new DomainError(
      'conflict',
      'station_revoked',
      'This station was removed from the event: the hub no longer takes its changes.',
    );
  const clock = o.clock ?? Date.now;
  const client = recordingAnswers(
    o.store,
    o.accountId,
    (o.makeClient ?? ((c: RemoteConfig) => defaultClient(c)))(cfg),
    clock,
    'hub',
  );
  const path = `/donations/${encodeURIComponent(o.hubId)}`;
  const r =
    o.change.kind === 'void'
      ? await client.request('POST', `${path}/void`, {
          accountId: cfg.remoteAccountId,
          reason: o.change.reason,
        })
      : await client.request('PATCH', path, {
          ...(await patchForHub(o.store, o.accountId, o.donationId, o.change.patch)),
          accountId: cfg.remoteAccountId,
        });
  if (r.status !== 200) throw refusal(r);
  // The hub has it: its feed brings the gift's new values here (and to every station).
  if (!(o.readNow && (await o.readNow()))) await catchUp(o.store, o.accountId, client, { clock });
}
