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
 */
import { DomainError } from '../domain/errors.ts';
import type { DomainContext } from '../domain/context.ts';
import { createCustomField, listCustomFields } from '../domain/custom-fields.ts';
import {
  getReference,
  insertPulledReference,
  listReferences,
  linkCampaignDonationAccount,
  type PulledLimits,
  referenceByName,
  type ReferenceKind,
  renamePulledReference,
} from '../domain/pulled.ts';
import type { Db } from '../db/store.ts';
import { type RemoteReader, getJson, remoteMessage } from './remote-read.ts';
import { linkRemote, listLinks, localIdFor, remoteIdFor } from './state.ts';

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
function listItems(body: unknown): RemoteRefItem[] {
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

/* ---------------- choosing instead of typing: HQ's records and suggestions ---------------- */

/** A name as compared for suggestions: case, accents and runs of spaces aside ("Fonds général" = "fonds  general"). */
export function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

export interface ReferenceCandidate {
  remoteId: string;
  name: string;
  linkedTo: { localId: string; name: string } | null;
}

export interface ReferenceCandidatesResult {
  kinds: Array<{ kind: ReferenceKind; listed: boolean; note: string | null; hq: ReferenceCandidate[] }>;
  unlinked: Array<{
    kind: ReferenceKind;
    localId: string;
    name: string;
    suggestedRemoteId: string | null;
    reason: string;
  }>;
}

/** How long the candidates may take at most (HQ that does not answer is said so, not waited on for minutes). */
export const CANDIDATES_DEADLINE_MS = 15_000;

const hqFailed = (code: string, message: string) => new DomainError('bad_gateway', code, message);

/**
 * For each local campaign, committee and donation account not linked yet: HQ's records of its
 * kind to choose from, and a suggestion where exactly one HQ record has the same name (case
 * and accents aside), no other local record is linked to it, and no other unlinked local
 * record has that name too. HQ is read (through the remote's client and its pacer) only for
 * the kinds that have unlinked records, one list each. A kind HQ does not list (the spec's
 * HQ lists none) comes back `listed: false`: its ids are typed, and checked when linked.
 * Nothing is linked here. HQ unreachable, refusing the key or answering nonsense is a 502
 * naming what went wrong.
 */
export async function referenceCandidates(
  ctx: DomainContext,
  remote: RemoteReader,
  args: { accountId: string; remoteAccountId: string; signal?: AbortSignal },
): Promise<ReferenceCandidatesResult> {
  const { accountId } = args;
  const rows = await listReferenceLinks(ctx, accountId);
  const out: ReferenceCandidatesResult = { kinds: [], unlinked: [] };
  const deadline = AbortSignal.timeout(CANDIDATES_DEADLINE_MS);
  const signal = args.signal ? AbortSignal.any([args.signal, deadline]) : deadline;
  for (const kind of REFERENCE_KINDS) {
    const unlinked = rows.filter((r) => r.kind === kind && r.remoteId === null);
    if (unlinked.length === 0) continue;
    const noun = REFERENCE_NOUN[kind];
    const route = REFERENCE_ROUTE[kind];
    const r = await getJson(
      remote,
      route,
      { accountId: args.remoteAccountId },
      { attempts: 2, baseMs: 300, signal },
    );
    if (!r.ok) {
      if (r.status === 404 || r.status === 405 || r.status === 501) {
        const note = `HQ does not list ${noun}s (GET /api/v1${route} answered ${r.status}): type HQ’s id for each one; it is checked at HQ before it is kept.`;
        out.kinds.push({ kind, listed: false, note, hq: [] });
        for (const u of unlinked)
          out.unlinked.push({
            kind,
            localId: u.localId,
            name: u.name,
            suggestedRemoteId: null,
            reason: `HQ does not list ${noun}s: type HQ’s id.`,
          });
        continue;
      }
      if (deadline.aborted)
        throw hqFailed(
          'remote_unreachable',
          `HQ did not answer within ${CANDIDATES_DEADLINE_MS / 1000} s when asked for its ${noun}s (GET /api/v1${route}): nothing was linked. Try again when HQ answers.`,
        );
      if (r.status === 401 || r.status === 403)
        throw hqFailed(
          'remote_refused',
          `HQ refused to list its ${noun}s (${remoteMessage(r)}): check the key in the sync settings. Nothing was linked.`,
        );
      if (r.status === undefined)
        throw hqFailed(
          'remote_unreachable',
          `Could not reach HQ to read its ${noun}s (${remoteMessage(r).replace(/^could not reach HQ \((.*)\)$/, '$1')}): nothing was linked. Try again when HQ answers.`,
        );
      throw hqFailed(
        'remote_failed',
        `HQ could not list its ${noun}s (GET /api/v1${route} answered ${remoteMessage(r)}): nothing was linked. Try again later.`,
      );
    }
    if (!Array.isArray((r.body as { data?: unknown } | null)?.data)) {
      throw hqFailed(
        'remote_bad_answer',
        `HQ’s answer to GET /api/v1${route} is not a list ({"data": [...]}), so its ${noun}s cannot be offered to choose from.`,
      );
    }
    const names = new Map(rows.filter((x) => x.kind === kind).map((x) => [x.localId, x.name]));
    const linkedBy = new Map<string, string>();
    for (const x of rows) if (x.kind === kind && x.remoteId !== null) linkedBy.set(x.remoteId, x.localId);
    // A link whose local record is gone still holds its HQ id (linking it again is refused).
    for (const l of await listLinks(ctx.store.db, accountId, kind))
      if (!linkedBy.has(l.remoteId)) linkedBy.set(l.remoteId, l.localId);
    const hq: ReferenceCandidate[] = listItems(r.body)
      .map((item) => {
        const other = linkedBy.get(item.id);
        return {
          remoteId: item.id,
          name: item.name,
          linkedTo: other ? { localId: other, name: names.get(other) ?? other } : null,
        };
      })
      .sort(
        (a, b) =>
          a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) ||
          a.remoteId.localeCompare(b.remoteId),
      );
    out.kinds.push({
      kind,
      listed: true,
      note:
        hq.length === 0 ? `HQ lists no ${noun}s yet: add them at HQ first, then read HQ’s list again.` : null,
      hq,
    });

    const byKey = new Map<string, ReferenceCandidate[]>();
    for (const c of hq) byKey.set(nameKey(c.name), [...(byKey.get(nameKey(c.name)) ?? []), c]);
    const localCount = new Map<string, number>();
    for (const u of unlinked) localCount.set(nameKey(u.name), (localCount.get(nameKey(u.name)) ?? 0) + 1);
    for (const u of unlinked) {
      const key = nameKey(u.name);
      const same = byKey.get(key) ?? [];
      const free = same.filter((c) => c.linkedTo === null);
      let suggested: string | null = null;
      let reason: string;
      if (hq.length === 0) reason = `HQ lists no ${noun}s yet.`;
      else if (same.length === 0) reason = `HQ has no ${noun} named “${u.name}”: choose the one it is.`;
      else if (same.length > 1)
        reason = `HQ has ${same.length} ${noun}s named “${same[0]!.name}”: choose the one it is (their ids differ).`;
      else if (free.length === 0)
        reason = `HQ’s “${same[0]!.name}” is linked already to “${same[0]!.linkedTo!.name}” here: choose another, or unlink that one first.`;
      else if ((localCount.get(key) ?? 0) > 1)
        reason = `${localCount.get(key)} ${noun}s here are named “${u.name}” and HQ has one: choose which one it is.`;
      else {
        suggested = free[0]!.remoteId;
        reason =
          free[0]!.name === u.name
            ? 'Suggested: the same name at HQ.'
            : `Suggested: HQ’s “${free[0]!.name}” (the same name but for case or accents).`;
      }
      out.unlinked.push({ kind, localId: u.localId, name: u.name, suggestedRemoteId: suggested, reason });
    }
  }
  return out;
}

/* ---------------- pulling reference data ---------------- */

export interface ReferencePullSummary {
  /** Per kind: whether HQ lists them, and what the pull did. */
  kinds: Record<
    ReferenceKind,
    { listed: boolean; created: number; linked: number; renamed: number; unchanged: number }
  >;
  customFields: { listed: boolean; created: string[]; missingAtHq: string[] };
  notes: string[];
}

/**
 * Brings HQ's campaigns, committees and donation accounts down where HQ lists them, and
 * matches custom fields by name. Few requests (one list per kind). A kind HQ does not list
 * (404) is left to linking by hand; any other failure is thrown (the caller retries).
 */
export async function pullReferenceData(
  ctx: DomainContext,
  remote: RemoteReader,
  args: { accountId: string; remoteAccountId: string },
): Promise<ReferencePullSummary> {
  const { accountId } = args;
  const q = { accountId: args.remoteAccountId };
  const empty = () => ({ listed: false, created: 0, linked: 0, renamed: 0, unchanged: 0 });
  const summary: ReferencePullSummary = {
    kinds: { donationAccount: empty(), committee: empty(), campaign: empty() },
    customFields: { listed: false, created: [], missingAtHq: [] },
    notes: [],
  };

  for (const kind of REFERENCE_KINDS) {
    const r = await getJson(remote, REFERENCE_ROUTE[kind], q);
    if (!r.ok) {
      if (r.status === 404 || r.status === 405 || r.status === 501) {
        summary.notes.push(
          `HQ does not list ${REFERENCE_NOUN[kind]}s: link each one used by gifts with giftdesk sync link.`,
        );
        continue;
      }
      throw new Error(`HQ's ${REFERENCE_NOUN[kind]} list failed: ${remoteMessage(r)}`);
    }
    if (!Array.isArray((r.body as { data?: unknown } | null)?.data)) {
      summary.notes.push(
        `HQ's answer to GET ${REFERENCE_ROUTE[kind]} is not a list ({"data": [...]}); ${REFERENCE_NOUN[kind]}s were not pulled.`,
      );
      continue;
    }
    const items = listItems(r.body);
    const s = summary.kinds[kind];
    s.listed = true;
    await ctx.store.write(async (trx) => {
      const at = ctx.now();
      for (const item of items) {
        const linked = await localIdFor(trx, accountId, kind, item.id);
        let localId: string;
        if (linked && (await getReference(trx, kind, accountId, linked))) {
          localId = linked;
          if (await renamePulledReference(trx, kind, accountId, linked, item.name, at)) s.renamed++;
          else s.unchanged++;
        } else {
          // An unlinked local record of the same name is the same thing (entered before the
          // first pull); two of them is ambiguous, so HQ's comes in as its own record.
          const same = await referenceByName(trx, kind, accountId, item.name);
          const unlinked: string[] = [];
          for (const x of same) if ((await remoteIdFor(trx, kind, x.id)) === null) unlinked.push(x.id);
          if (unlinked.length === 1) {
            localId = unlinked[0]!;
            s.linked++;
          } else {
            localId = await insertPulledReference(trx, kind, accountId, item.name, at, item.limits);
            s.created++;
          }
          await linkRemote(trx, {
            accountId,
            entityType: kind,
            localId,
            remoteId: item.id,
            source: 'pulled',
            at,
          });
        }
        if (kind === 'campaign') {
          for (const dac of item.donationAccounts ?? []) {
            const localDac = await localIdFor(trx, accountId, 'donationAccount', dac);
            if (localDac) await linkCampaignDonationAccount(trx, localId, localDac);
          }
        }
      }
    });
  }

  const cf = await getJson(remote, '/custom-fields', q);
  if (cf.ok && Array.isArray((cf.body as { data?: unknown } | null)?.data)) {
    summary.customFields.listed = true;
    const theirs = (cf.body as { data: unknown[] }).data.flatMap((x) => {
      if (typeof x !== 'object' || x === null) return [];
      const o = x as Record<string, unknown>;
      if (typeof o.name !== 'string' || typeof o.type !== 'string') return [];
      const options = Array.isArray(o.options)
        ? (o.options as unknown[]).flatMap((p) =>
            typeof p === 'object' &&
            p !== null &&
            typeof (p as { name?: unknown }).name === 'string' &&
            !(p as { retired?: unknown }).retired
              ? [(p as { name: string }).name]
              : [],
          )
        : [];
      return [{ name: o.name, type: o.type, archived: o.archived === true, options }];
    });
    const mine = await listCustomFields(ctx.store.db, accountId);
    const mineByKey = new Map(mine.map((f) => [f.name.toLowerCase(), f]));
    const theirKeys = new Set(theirs.map((f) => f.name.toLowerCase()));
    for (const f of theirs) {
      if (f.archived || mineByKey.has(f.name.toLowerCase())) continue;
      try {
        await createCustomField(ctx, { accountId, name: f.name, type: f.type, options: f.options });
        summary.customFields.created.push(f.name);
      } catch (err) {
        summary.notes.push(
          `HQ's custom field "${f.name}" could not be added here: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    for (const f of mine) {
      if (!f.archived && !theirKeys.has(f.name.toLowerCase())) summary.customFields.missingAtHq.push(f.name);
    }
    if (summary.customFields.missingAtHq.length > 0) {
      summary.notes.push(
        `HQ has no custom field named ${summary.customFields.missingAtHq.map((n) => `"${n}"`).join(', ')}: contacts with values in them will need attention when pushed (HQ refuses unknown fields).`,
      );
    }
  } else if (!cf.ok && cf.status !== 404) {
    summary.notes.push(
      `HQ's custom field list could not be read (${remoteMessage(cf)}); fields are matched by name when contacts are pushed.`,
    );
  }
  return summary;
}
