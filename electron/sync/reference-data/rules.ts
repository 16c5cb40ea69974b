/**
 * Reference data and HQ: a local campaign, committee or donation account is linked to its id
 * at HQ (the id map, sync_links), because a gift is posted with HQ's campaign id, never ours.
 *
 * - Where HQ lists them (GiftDesk HQ's extension routes GET /campaigns, /committees,
 *   /donation-accounts — detected by asking, never assumed), a pull brings them down: a
 *   linked record is renamed to HQ's name, an unlinked local record with the same name
 *   (case-insensitive, exactly one) is linked, anything else is added locally (push = 0).
 * - Otherwise the user links each one once (`giftdesk sync link`, POST /api/v1/sync/links),
 *   and the id is checked at HQ before it is stored: GET /campaigns/:id (the spec's route), or
 *   GET /committees/:id, /donation-accounts/:id where HQ has them. A wrong id is refused.
 *   Where HQ lists the kind, the app offers HQ's records to choose from instead of typing
 *   (referenceCandidates, GET /api/v1/sync/links/candidates), with a suggestion where the
 *   name matches exactly one HQ record (case and accents aside) that no other record here has.
 * - Custom fields are matched by name, as the spec's customFields object is keyed: a pull
 *   adds locally the fields HQ defines (when HQ lists them) and reports the local fields HQ
 *   lacks (HQ would refuse their values with a 400).
 *
 * A gift whose campaign (committee, donation account) has no link waits in the push engine
 * as "needs attention" with `unlinkedReferenceReason` — it is never posted with a local id.
 *
 * This file links by hand; candidates.ts offers HQ's records to choose from, and
 * reference-data/pull.ts pulls them.
 */
import { DomainError } from '../../domain/errors.ts';
import type { DomainContext } from '../../domain/context.ts';
import {
  getReference,
  listReferences,
  type PulledLimits,
  type ReferenceKind,
} from '../../domain/pulled/index.ts';
import type { Db } from '../../db/store.ts';
import { type RemoteReader, getJson, remoteMessage } from '../net/read.ts';
import { linkRemote, listLinks, localIdFor, remoteIdFor } from '../outbox/links.ts';

export type { ReferenceKind };

export const REFERENCE_KINDS: readonly ReferenceKind[] = ['donationAccount', 'committee', 'campaign'];

/** HQ's route for each kind (under {base_url}/api/v1). */
export const REFERENCE_ROUTE: Record<ReferenceKind, string> = {
  campaign: '/campaigns',
  committee: '/committees',
  donationAccount: '/donation-accounts',
};

export const REFERENCE_NOUN: Record<ReferenceKind, string> = {
  campaign: 'campaign',
  committee: 'committee',
  donationAccount: 'donation account',
};

/* ---------------- the id map for reference data ---------------- */

/** HQ's id of a local reference record, or null when it is not linked (gifts for it wait). */
export function remoteReferenceId(db: Db, kind: ReferenceKind, localId: string): Promise<string | null> {
  return remoteIdFor(db, kind, localId);
}

/** Why a gift waits: its campaign (committee, donation account) has no HQ id yet. */
export function unlinkedReferenceReason(
  kind: ReferenceKind,
  local: { id: string; name?: string | null },
): string {
  const noun = REFERENCE_NOUN[kind];
  const label = local.name ? `"${local.name}" (${local.id})` : local.id;
  const flag =
    kind === 'campaign' ? '--campaign' : kind === 'committee' ? '--committee' : '--donation-account';
  return `The ${noun} ${label} is not linked to HQ: choose HQ's ${noun} for it in Settings → Sync (or pull from HQ), or link it once with giftdesk sync link ${flag} ${local.id} --remote <HQ id>.`;
}

/* ---------------- linking by hand, checked at HQ ---------------- */

export interface LinkResult {
  kind: ReferenceKind;
  localId: string;
  remoteId: string;
  /** HQ's name for it, when HQ's answer has one. */
  remoteName: string | null;
  /** The record another local record was linked to before (now replaced), if any. */
  replaced: string | null;
  /**
   * Whether HQ confirmed the id. False only for a committee or donation account at an HQ
   * that has no route to read them (the spec has none): the id is stored as entered, and a
   * wrong one shows when HQ refuses the first gift (needs attention, with HQ's message).
   */
  checked: boolean;
}

const refused = (code: string, message: string, field = 'remoteId') =>
  new DomainError('bad_request', code, message, [{ field, issue: message }]);

/**
 * Links a local reference record to its HQ id after HQ confirms the id. Refused (nothing
 * stored) when the local record does not exist, HQ says the id does not exist, HQ cannot be
 * asked, or another local record is linked to that HQ id already.
 */
export async function linkReference(
  ctx: DomainContext,
  remote: RemoteReader,
  args: {
    accountId: string;
    remoteAccountId: string;
    kind: ReferenceKind;
    localId: string;
    remoteId: string;
  },
): Promise<LinkResult> {
  const { accountId, kind, localId } = args;
  const remoteId = args.remoteId.trim();
  const noun = REFERENCE_NOUN[kind];
  const local = await getReference(ctx.store.db, kind, accountId, localId);
  if (!local)
    throw new DomainError(
      'not_found',
      `${kind === 'donationAccount' ? 'donation_account' : kind}_not_found`,
      `There is no local ${noun} ${localId} in this account`,
      [{ field: 'localId', issue: 'does not exist in this account' }],
    );
  if (!/^[A-Za-z0-9_.:-]{1,128}$/.test(remoteId))
    throw refused(
      'invalid_remote_id',
      `HQ id "${args.remoteId}" is not an id (letters, digits and _ . : - only)`,
    );

  const checked = await checkAtHq(remote, args.remoteAccountId, kind, remoteId);
  const at = ctx.now();
  const replaced = await ctx.store.write(async (trx) => {
    const other = await localIdFor(trx, accountId, kind, remoteId);
    if (other && other !== localId) {
      const o = await getReference(trx, kind, accountId, other);
      throw new DomainError(
        'conflict',
        'remote_id_linked',
        `HQ ${noun} ${remoteId} is linked already to the local ${noun} ${o ? `"${o.name}" (${other})` : other}; unlink that one first`,
        [{ field: 'remoteId', issue: 'is linked to another local record' }],
      );
    }
    const before = await remoteIdFor(trx, kind, localId);
    await linkRemote(trx, { accountId, entityType: kind, localId, remoteId, source: 'manual', at });
    return before && before !== remoteId ? before : null;
  });
  return { kind, localId, remoteId, remoteName: checked.name, replaced, checked: checked.checked };
}

/** Removes a reference record's link (gifts for it wait again until it is linked). */
export async function unlinkReference(
  ctx: DomainContext,
  accountId: string,
  kind: ReferenceKind,
  localId: string,
): Promise<{ unlinked: boolean }> {
  return ctx.store.write(async (trx) => {
    const r = await trx
      .deleteFrom('syncLinks')
      .where('accountId', '=', accountId)
      .where('entityType', '=', kind)
      .where('localId', '=', localId)
      .executeTakeFirst();
    return { unlinked: Number(r.numDeletedRows) > 0 };
  });
}

/** The reference links of an account, with local names, for the app and the CLI. */
export async function listReferenceLinks(ctx: DomainContext, accountId: string) {
  const out: Array<{
    kind: ReferenceKind;
    localId: string;
    name: string;
    remoteId: string | null;
    source: string | null;
  }> = [];
  for (const kind of REFERENCE_KINDS) {
    const links = new Map((await listLinks(ctx.store.db, accountId, kind)).map((l) => [l.localId, l]));
    for (const r of await listReferences(ctx.store.db, kind, accountId)) {
      const l = links.get(r.id);
      out.push({
        kind,
        localId: r.id,
        name: r.name,
        remoteId: l?.remoteId ?? null,
        source: l?.source ?? null,
      });
    }
  }
  return out;
}

/**
 * Asks HQ whether `remoteId` is one of its campaigns (committees, donation accounts).
 * Campaigns: GET /campaigns/:id, the spec's route. Committees and donation accounts: their
 * GiftDesk route, else HQ's list of them. Throws a clear DomainError when the id is wrong or
 * HQ cannot tell.
 */
async function checkAtHq(
  remote: RemoteReader,
  remoteAccountId: string,
  kind: ReferenceKind,
  remoteId: string,
): Promise<{ name: string | null; checked: boolean }> {
  const noun = REFERENCE_NOUN[kind];
  const route = REFERENCE_ROUTE[kind];
  const query = { accountId: remoteAccountId };
  const r = await getJson(remote, `${route}/${encodeURIComponent(remoteId)}`, query);
  if (r.ok) {
    const body = r.body as { id?: unknown; name?: unknown } | null;
    return { name: typeof body?.name === 'string' ? body.name : null, checked: true };
  }
  if (r.status === 404 && kind !== 'campaign') {
    // No such record — or no such route at this HQ: ask its list, where it has one.
    const list = await getJson(remote, route, query);
    if (list.ok) {
      const found = listItems(list.body).find((x) => x.id === remoteId);
      if (found) return { name: found.name, checked: true };
      throw refused(
        'remote_not_found',
        `HQ has no ${noun} ${remoteId} (that remoteId is not among the ${listItems(list.body).length} ${noun}s HQ lists)`,
      );
    }
    // HQ has no way to read them at all (the spec has none): its 404 says nothing about the id.
    if (list.status === 404 || list.status === 405 || list.status === 501)
      return { name: null, checked: false };
  }
  if (r.status === 404)
    throw refused(
      'remote_not_found',
      `HQ has no ${noun} ${remoteId} (for that remoteId, GET /api/v1${route}/${remoteId} answered 404: ${r.message})`,
    );
  if (r.status === 401 || r.status === 403)
    throw refused(
      'remote_refused',
      `HQ refused the check of ${noun} ${remoteId} (${remoteMessage(r)}); check the sync settings' key`,
    );
  if (r.status !== undefined && r.status >= 400 && r.status < 500)
    throw refused('remote_refused', `HQ refused ${noun} id ${remoteId} (${remoteMessage(r)})`);
  throw new DomainError(
    'conflict',
    'remote_unreachable',
    `Could not check ${noun} ${remoteId} at HQ (${remoteMessage(r)}); nothing was linked, try again when HQ answers`,
    [{ field: 'remoteId', issue: 'could not be checked at HQ' }],
  );
}

interface RemoteRefItem {
  id: string;
  name: string;
  donationAccounts?: string[];
  limits?: PulledLimits;
}

/** The items of a GiftDesk list answer ({data: [...]}) that have an id and a name. */
export function listItems(body: unknown): RemoteRefItem[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return [];
  const out: RemoteRefItem[] = [];
  for (const x of data as unknown[]) {
    if (typeof x !== 'object' || x === null) continue;
    const o = x as Record<string, unknown>;
    if (typeof o.id !== 'string' || o.id === '') continue;
    const item: RemoteRefItem = { id: o.id, name: typeof o.name === 'string' ? o.name : o.id };
    if (Array.isArray(o.donationAccounts)) {
      item.donationAccounts = (o.donationAccounts as unknown[]).flatMap((d) => {
        const id =
          typeof d === 'string'
            ? d
            : typeof d === 'object' && d !== null
              ? (d as { id?: unknown }).id
              : undefined;
        return typeof id === 'string' ? [id] : [];
      });
    }
    if (typeof o.limits === 'object' && o.limits !== null) {
      const l = o.limits as Record<string, unknown>;
      const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
      item.limits = {
        perElection: num(l.perElection),
        perCycle: num(l.perCycle),
        perYear: num(l.perYear),
        perDonor: num(l.perDonor),
      };
    }
    out.push(item);
  }
  return out;
}
