/**
 * The reconciliation's sweeps (reconcile.ts has the rules): one for the due gifts, HQ's gifts
 * of their merged date windows; one for the due contacts, HQ's newest contacts back to the
 * earliest attempt on HQ's clock. Each links what it finds and releases what is absent.
 */
import { saidOf } from '../net/remote-words.ts';
import type { SyncAttentionCode } from '#shared/enums.ts';
import type { ContactListItem } from '#shared/schemas/contacts.ts';
import type { DonationListItem } from '#shared/schemas/donations.ts';
import type { Db } from '../../db/store.ts';
import {
  contactReferenceTag,
  donationSearchWindow,
  matchDonation,
  sentContactIdentity,
  sentDonationIdentity,
} from '../push/identity.ts';
import { releaseAttempt, settleAttempt } from '../outbox/outbox.ts';
import type { Create, Read, ReconcileDeps, ReconcileResult } from './types.ts';
import { heldByAnother, linkRemote, noteSentToHq } from '../outbox/links.ts';
import { applyHeldGifts } from '../station/feed-gifts.ts';
import { takeHubDonor } from '../station/feed-contacts.ts';
import { type ItemRow, type PushEntity, updateItem } from '../outbox/items.ts';

const PAGE = 100;
/**
 * How far before (HQ's clock) the earliest attempt the contact sweep looks: the `Date` header
 * is whole seconds (the estimate errs early by up to 1 s + a round trip, which is safe), and
 * HQ may run on more than one server whose clocks differ by seconds. 30 s of HQ's newest
 * contacts is a page or less at event rates (5 requests/s).
 */
export const SKEW_MARGIN_MS = 30_000;
/** Without a `Date` header from HQ, the lookback is a day before the earliest attempt (the old fixed rule). */
const NO_DATE_LOOKBACK_MS = 86_400_000;

const iso = (ms: number) => new Date(ms).toISOString();

export type SweepEnd = { kind: 'ok' } | { kind: 'failed' | 'auth'; message: string };
const OK: SweepEnd = { kind: 'ok' };

/**
 * Records a find: linked, the attempt's changes done (optionally parked with a note); returns
 * how many changes it settled. Null, and nothing written, when the HQ record is linked to
 * another local record by now (a pull, an email match or another find since it was listed):
 * that record is never this one, and the caller treats it as not found.
 */
async function linkFound(
  d: ReconcileDeps,
  trx: Db,
  item: ItemRow,
  remoteId: string,
  at: string,
  note: { code: SyncAttentionCode; reason: string } | null,
): Promise<number | null> {
  const link = {
    accountId: d.accountId,
    entityType: item.entityType as PushEntity,
    localId: item.entityId,
    remoteId,
  };
  if (await heldByAnother(trx, link)) return null;
  await linkRemote(trx, { ...link, source: 'found', at });
  // At an event hub: the stations learn that HQ has this gift now (the hub's feed).
  if (item.entityType === 'donation' && d.kind !== 'hub')
    await noteSentToHq(trx, d.accountId, item.entityId, at);
  // At a station: gifts of the hub's feed that waited for this donor are written now.
  if (item.entityType === 'contact') await applyHeldGifts(trx, d.accountId, at);
  // The record HQ holds under this reference may have been made by an EARLIER attempt that
  // landed late (its answer lost, the next one answered 200 with it and that answer lost too):
  // HQ then holds what that attempt carried, not this one's body. When this attempt carried
  // edits made after the create, its changes go again, as after a create answered 200
  // (answers.ts): coalesce.ts turns them into an update of what HQ's copy may lack.
  const edits = await trx
    .selectFrom('changeLog')
    .select('seq')
    .where('attemptId', '=', item.attemptId!)
    .where('syncedAt', 'is', null)
    .where('op', '=', 'update')
    .executeTakeFirst();
  let settled = 0;
  if (edits) await releaseAttempt(trx, item.attemptId!);
  else settled = await settleAttempt(trx, d.accountId, item.attemptId!, at);
  // At a station: its own gift, which the feed brought before this find, takes the hub's values.
  if (item.entityType === 'donation') await applyHeldGifts(trx, d.accountId, at);
  await updateItem(trx, item.entityType as PushEntity, item.entityId, {
    state: note ? 'attention' : 'idle',
    attemptId: null,
    attemptBody: null,
    failures: 0,
    nextTryAt: null,
    lastError: null,
    attentionCode: note?.code ?? null,
    attentionReason: saidOf(d.kind, note?.reason ?? null),
    attentionAt: note ? at : null,
    updatedAt: at,
  });
  return settled;
}

async function releaseAbsent(trx: Db, item: ItemRow, at: string): Promise<void> {
  await releaseAttempt(trx, item.attemptId!);
  await updateItem(trx, item.entityType as PushEntity, item.entityId, {
    state: 'idle',
    attemptId: null,
    attemptBody: null,
    nextTryAt: null,
    updatedAt: at,
  });
}

/** Local records (other than none) linked to these HQ ids: remote id → local id. */
async function linksOf(
  db: Db,
  accountId: string,
  entityType: PushEntity,
  remoteIds: readonly string[],
  sources?: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < remoteIds.length; i += 500) {
    let q = db
      .selectFrom('syncLinks')
      .select(['remoteId', 'localId'])
      .where('accountId', '=', accountId)
      .where('entityType', '=', entityType)
      .where('remoteId', 'in', remoteIds.slice(i, i + 500));
    if (sources) q = q.where('source', 'in', [...sources]);
    for (const r of await q.execute()) out.set(r.remoteId, r.localId);
  }
  return out;
}

/** Date windows merged where they overlap or touch (date-only, inclusive). */
export function mergeWindows(
  windows: ReadonlyArray<{ startDate: string; endDate: string }>,
): Array<{ startDate: string; endDate: string }> {
  const sorted = [...windows].sort((a, b) => a.startDate.localeCompare(b.startDate));
  const out: Array<{ startDate: string; endDate: string }> = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    const dayAfterLast = last ? iso(Date.parse(`${last.endDate}T00:00:00Z`) + 86_400_000).slice(0, 10) : null;
    if (last && w.startDate <= dayAfterLast!) {
      if (w.endDate > last.endDate) last.endDate = w.endDate;
    } else out.push({ ...w });
  }
  return out;
}

async function readAll<T>(
  d: ReconcileDeps,
  path: string,
  query: Record<string, string | number>,
  key: 'donations' | 'contacts',
  stop?: (page: T[], first: Read & { ok: true }) => boolean,
): Promise<{ ok: true; items: T[] } | { ok: false; end: SweepEnd }> {
  const items: T[] = [];
  let first: (Read & { ok: true }) | null = null;
  for (let offset = 0; ; offset += PAGE) {
    const r = await d.get(path, { ...query, limit: PAGE, offset });
    if (!r.ok) return { ok: false, end: { kind: r.result, message: r.message } };
    first ??= r;
    const b = r.body as Record<string, unknown> | null;
    const page = (Array.isArray(b?.[key]) ? b[key] : Array.isArray(b?.data) ? b.data : []) as T[];
    items.push(...page);
    if (page.length < PAGE || stop?.(page, first)) break;
  }
  return { ok: true, items };
}

export async function sweepDonations(
  d: ReconcileDeps,
  all: Create[],
  at: string,
  out: ReconcileResult,
): Promise<SweepEnd> {
  type Sent = {
    localId: string;
    body: {
      contactId: string;
      donationAmount: number;
      donationDate: string;
      paymentMethod: string;
      campaignId?: string;
      notes?: string;
    };
  };
  const sentOf = (c: Create) => JSON.parse(c.item.attemptBody!) as Sent;
  const items = new Map<string, DonationListItem>();
  for (const w of mergeWindows(
    all.filter((c) => c.due).map((c) => donationSearchWindow(sentOf(c).body.donationDate)),
  )) {
    const r = await readAll<DonationListItem>(
      d,
      '/donations',
      { startDate: w.startDate, endDate: w.endDate },
      'donations',
    );
    if (!r.ok) return r.end;
    for (const x of r.items) items.set(x.id, x);
  }
  const list = [...items.values()];
  const links = await linksOf(
    d.store.db,
    d.accountId,
    'donation',
    list.map((x) => x.id),
  );
  const matchOf = (c: Create, foundForOthers: ReadonlySet<string>) => {
    const b = sentOf(c).body;
    const taken = new Set(foundForOthers);
    for (const [remoteId, localId] of links) if (localId !== c.item.entityId) taken.add(remoteId);
    return matchDonation(
      list,
      {
        // The reference the attempt carried: the gift's own, or the one it came with (sync-identity.ts).
        localId: sentDonationIdentity(b.notes) ?? c.item.entityId,
        contactId: b.contactId,
        donationAmount: b.donationAmount,
        donationDate: b.donationDate,
        paymentMethod: b.paymentMethod,
        campaignId: b.campaignId ?? null,
      },
      taken,
    );
  };
  // Found by reference first (exact, for due and not-yet-due alike), then lookalikes for the
  // due ones with every find of this sweep taken: twins never take each other's HQ gift.
  const found = new Map<string, { remoteId: string; duplicates: string[] }>();
  for (const c of all) {
    const m = matchOf(c, new Set());
    if (m.kind === 'found') found.set(c.item.entityId, m);
  }
  const foundIds = new Set([...found.values()].map((f) => f.remoteId));
  let settled = 0;
  await d.store.write(async (trx) => {
    for (const c of all) {
      const f = found.get(c.item.entityId);
      if (f) {
        const note =
          f.duplicates.length > 0
            ? {
                code: 'duplicate_at_hq' as const,
                reason: `HQ has this gift ${f.duplicates.length + 1} times (${[f.remoteId, ...f.duplicates].join(', ')}). Delete the extra copies in HQ's web application, then discard this item.`,
              }
            : null;
        const n = await linkFound(d, trx, c.item, f.remoteId, at, note);
        if (n !== null) {
          settled += n;
          if (note) out.parked++;
          else out.resolved++;
          continue;
        }
      }
      if (!c.due) continue;
      const m = matchOf(c, foundIds);
      if (m.kind === 'lookalike') {
        await releaseAttempt(trx, c.item.attemptId!);
        await updateItem(trx, 'donation', c.item.entityId, {
          state: 'attention',
          attemptId: null,
          attemptBody: null,
          attentionCode: 'possible_duplicate',
          attentionReason: saidOf(
            d.kind,
            `HQ has gift ${m.remoteId} that matches this one in every field and carries no GiftDesk reference (typed at HQ, or its notes edited there?). If it is this gift, discard this item; if not, retry to post it.`,
          ),
          attentionStatus: null,
          attentionAt: at,
          updatedAt: at,
        });
        out.parked++;
        continue;
      }
      await releaseAbsent(trx, c.item, at);
      out.resolved++;
    }
  });
  if (settled > 0) d.progress(settled);
  return OK;
}

const norm = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase() : '');

export async function sweepContacts(
  d: ReconcileDeps,
  all: Create[],
  at: string,
  out: ReconcileResult,
): Promise<SweepEnd> {
  type Sent = { firstName: string; lastName: string; tags?: unknown };
  const earliest = Math.min(...all.map((c) => Date.parse(c.item.attemptAt ?? at)));
  let since = earliest - NO_DATE_LOOKBACK_MS;
  const r = await readAll<ContactListItem>(
    d,
    '/contacts',
    { sortBy: 'createdAt', sortOrder: 'desc' },
    'contacts',
    (page, first) => {
      const date = first.headers?.get('date');
      const hqNow = date ? Date.parse(date) : NaN;
      // HQ's clock = ours + skew; the Date header is whole seconds, so this errs early (safe).
      if (!Number.isNaN(hqNow)) since = earliest + (hqNow - first.receivedAt) - SKEW_MARGIN_MS;
      return page.some((c) => Date.parse(c.createdAt) < since);
    },
  );
  if (!r.ok) return r.end;
  const fresh = r.items.filter((c) => Date.parse(c.createdAt) >= since);
  // HQ contacts a push of ours (or a reconcile that saw the tag) linked to another local record
  // were created for that record: never this sweep's. Pulled and email-matched links are not
  // skipped: such a contact could be ours.
  const mine = new Set(all.map((c) => c.item.entityId));
  const others = await linksOf(
    d.store.db,
    d.accountId,
    'contact',
    fresh.map((c) => c.id),
    ['pushed', 'found'],
  );
  const candidates = fresh.filter((c) => {
    const l = others.get(c.id);
    return l === undefined || mine.has(l);
  });
  // Each by the reference tag its attempt carried: its own, or the one it came with (sync-identity.ts).
  const byRef = new Map(
    all.map((c) => {
      const sent = JSON.parse(c.item.attemptBody!) as Sent;
      return [
        contactReferenceTag(sentContactIdentity(sent.tags) ?? c.item.entityId).toLowerCase(),
        c,
      ] as const;
    }),
  );
  const names = new Set(
    all.map((c) => {
      const s = JSON.parse(c.item.attemptBody!) as Sent;
      return `${norm(s.firstName)}\n${norm(s.lastName)}`;
    }),
  );
  const sameName = (c: ContactListItem) => names.has(`${norm(c.firstName)}\n${norm(c.lastName)}`);
  const found = new Map<string, string>();
  /** The record read for each find (at a station: the hub's donor, its values and times). */
  const bodies = new Map<string, unknown>();
  const dueLeft = () => all.some((c) => c.due && !found.has(c.item.entityId));
  const ordered = [...candidates.filter(sameName), ...candidates.filter((c) => !sameName(c))];
  const named = candidates.filter(sameName).length;
  for (const [i, cand] of ordered.entries()) {
    const firstPhase = i < named;
    if (found.size === all.length) break;
    if (!firstPhase && !dueLeft()) break;
    const g = await d.get(`/contacts/${encodeURIComponent(cand.id)}`, {});
    if (!g.ok && g.status === 404) continue; // deleted at HQ since it was listed: not ours to find
    if (!g.ok) return { kind: g.result, message: g.message };
    // Whose it is: its reference, the last `gd:` tag; an earlier one is a mention (a tag a
    // person typed), never the contact of the record it names.
    const own = sentContactIdentity((g.body as { tags?: unknown } | null)?.tags);
    const c = own === null ? undefined : byRef.get(contactReferenceTag(own).toLowerCase());
    if (c && !found.has(c.item.entityId)) {
      found.set(c.item.entityId, cand.id);
      bodies.set(c.item.entityId, g.body);
    }
  }
  let settled = 0;
  await d.store.write(async (trx) => {
    for (const c of all) {
      const id = found.get(c.item.entityId);
      const n = id === undefined ? null : await linkFound(d, trx, c.item, id, at, null);
      if (n !== null) {
        // At a station, found at the hub after the answer was lost: the record here becomes the
        // hub's donor, values and times, as with an answer (the feed skipped it while unlinked).
        if (d.kind === 'hub')
          await takeHubDonor(trx, d.accountId, c.item.entityId, bodies.get(c.item.entityId), at);
        settled += n;
        out.resolved++;
      } else if (c.due) {
        await releaseAbsent(trx, c.item, at);
        out.resolved++;
      }
    }
  });
  if (settled > 0) d.progress(settled);
  return OK;
}
