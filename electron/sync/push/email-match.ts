/**
 * Email match: before the engine creates a contact at HQ, it asks whether HQ already has a
 * contact with exactly that primary email, and links to it instead of creating a second one
 * (on by default; `emailMatch` in the remote settings turns it off).
 *
 * Matching is exact: HQ's primary email equal to ours after trimming, ignoring case (mail
 * systems treat addresses case-insensitively in practice). An HQ contact already linked to a
 * local contact is never a match (it is that contact's; ours is created). When several
 * unlinked HQ contacts have the email, the oldest is chosen — adding another would only make
 * HQ's duplicates worse. A read that did not answer is reported as such: the engine must not
 * create the contact on the strength of a search that did not answer.
 *
 * Where the answer comes from:
 * - The directory (no read per contact): what this device knows of HQ's contacts. A finished
 *   pull knows every HQ contact up to the newest it listed (the watermark): each one is linked
 *   to a local contact, or (the pull left it for the engine: it looks like a contact made here
 *   whose create is unconfirmed) listed in sync_hq_contacts; contacts GiftDesk created at HQ
 *   are linked when HQ answers. When the directory is older than DIRECTORY_FRESH_MS, one delta
 *   read per pass brings it up to date: HQ's contacts newest first, back to the watermark
 *   (one page unless HQ got more than 100 contacts since), the unlinked ones with an email
 *   listed, the watermark moved on.
 * - The fallback, when the account never finished a pull from this HQ (or a delta read could
 *   not reach the watermark within DELTA_MAX_PAGES: the directory is dropped until the next
 *   pull): HQ's list has no email filter, only `search` (full text over
 *   name, email and organisation), so the email is searched and the answers matched here.
 */
import type { Db } from '../../db/store.ts';
import type { Clock } from '../net/clock.ts';
import type { ContactMatcher } from './engine.ts';
import { type RemoteReader, getJson, remoteMessage } from '../net/read.ts';

/**
 * How old the directory may be before a pass reads HQ's new contacts (5 minutes). Within it, a
 * contact staff typed at HQ (or another desk pushed) a few minutes ago is not seen, and the
 * two become duplicates at HQ, which staff can merge there: no gift is lost or doubled. The
 * pull right before an event makes the directory fresh, and at the default 5 requests/s one
 * read per 5 minutes is 1 request in 1,500. A shorter window buys little: two desks entering
 * the same new donor within seconds would still race.
 */
export const DIRECTORY_FRESH_MS = 5 * 60_000;
/** HQ contacts created this close before the newest one read are read again next time (HQ commits them out of createdAt order). */
export const WATERMARK_MARGIN_MS = 5_000;
/** Pages a delta read goes back at most (100 each); further back, the per-email search is used. */
const DELTA_MAX_PAGES = 10;
const PAGE = 100;

export type EmailMatch =
  | { kind: 'found'; remoteId: string; name: string; matches: number }
  | { kind: 'none' }
  | { kind: 'failed'; message: string; status?: number };

export interface EmailMatchOptions {
  /** Pages of search results read at most (100 each; default 5). */
  maxPages?: number;
  /** Attempts per page on a passing failure (default 3). */
  attempts?: number;
  clock?: Clock;
  signal?: AbortSignal;
}

/** The comparable form of an email: trimmed, lower case; null when it is not one. */
export function emailKey(email: string | null | undefined): string | null {
  if (typeof email !== 'string') return null;
  const k = email.trim().toLowerCase();
  return k.includes('@') ? k : null;
}

/** HQ's contact whose primary email is exactly `email`, if any (see the rules above). */
export async function findRemoteContactByEmail(
  remote: RemoteReader,
  remoteAccountId: string,
  email: string,
  opts: EmailMatchOptions = {},
): Promise<EmailMatch> {
  const key = emailKey(email);
  if (!key) return { kind: 'none' };
  const pageSize = 100;
  const maxPages = Math.max(1, opts.maxPages ?? 5);
  const found: Array<{ id: string; name: string }> = [];
  for (let page = 0; page < maxPages; page++) {
    const r = await getJson(
      remote,
      '/contacts',
      {
        accountId: remoteAccountId,
        search: email.trim().slice(0, 200),
        limit: pageSize,
        offset: page * pageSize,
        sortBy: 'createdAt',
        sortOrder: 'asc',
      },
      { attempts: opts.attempts ?? 3, clock: opts.clock, signal: opts.signal },
    );
    if (!r.ok)
      return {
        kind: 'failed',
        message: r.problem ?? `HQ's contact search failed: ${remoteMessage(r)}`,
        ...(r.status !== undefined ? { status: r.status } : {}),
      };
    const body = r.body as { data?: unknown; contacts?: unknown } | null;
    const items = Array.isArray(body?.data)
      ? (body.data as unknown[])
      : Array.isArray(body?.contacts)
        ? (body.contacts as unknown[])
        : null;
    if (!items)
      return { kind: 'failed', message: `HQ's answer to GET /contacts has no list of contacts ("data")` };
    for (const x of items) {
      if (typeof x !== 'object' || x === null) continue;
      const o = x as Record<string, unknown>;
      const id = typeof o.id === 'string' ? o.id : typeof o.id === 'number' ? String(o.id) : null;
      const itemEmail =
        typeof o.email === 'string' ? o.email : typeof o.primaryEmail === 'string' ? o.primaryEmail : null;
      if (id && emailKey(itemEmail) === key)
        found.push({ id, name: `${String(o.firstName ?? '')} ${String(o.lastName ?? '')}`.trim() });
    }
    if (items.length < pageSize) break;
  }
  const first = found[0];
  if (!first) return { kind: 'none' };
  return { kind: 'found', remoteId: first.id, name: first.name, matches: found.length };
}

interface HqListItem {
  id: string;
  email: string | null;
  createdAt: string;
}

function listItems(body: unknown): HqListItem[] | null {
  const b = body as { data?: unknown; contacts?: unknown } | null;
  const items = Array.isArray(b?.data)
    ? (b.data as unknown[])
    : Array.isArray(b?.contacts)
      ? (b.contacts as unknown[])
      : null;
  if (!items) return null;
  const out: HqListItem[] = [];
  for (const x of items) {
    if (typeof x !== 'object' || x === null) continue;
    const o = x as Record<string, unknown>;
    const id = typeof o.id === 'string' ? o.id : typeof o.id === 'number' ? String(o.id) : null;
    const createdAt =
      typeof o.createdAt === 'string' && !Number.isNaN(Date.parse(o.createdAt)) ? o.createdAt : null;
    if (!id || !createdAt) continue;
    out.push({
      id,
      email:
        typeof o.email === 'string' ? o.email : typeof o.primaryEmail === 'string' ? o.primaryEmail : null,
      createdAt,
    });
  }
  return out;
}

/** HQ's createdAt up to which a listing of HQ contacts (newest `newest`) is complete, with the margin. */
export function watermarkAfter(previous: string | null, newest: string | null): string | null {
  if (newest === null) return previous;
  const w = new Date(Date.parse(newest) - WATERMARK_MARGIN_MS).toISOString();
  return previous !== null && Date.parse(previous) > Date.parse(w) ? previous : w;
}

/** Lists HQ contacts with an email that no local contact is linked to (the caller's transaction). */
export async function noteHqContacts(
  trx: Db,
  accountId: string,
  items: ReadonlyArray<{ id: string; email: string | null; createdAt: string }>,
): Promise<void> {
  const keyed = items.flatMap((i) => {
    const k = emailKey(i.email);
    return k ? [{ ...i, key: k }] : [];
  });
  if (keyed.length === 0) return;
  const linked = new Set(
    (
      await trx
        .selectFrom('syncLinks')
        .select('remoteId')
        .where('accountId', '=', accountId)
        .where('entityType', '=', 'contact')
        .where(
          'remoteId',
          'in',
          keyed.map((k) => k.id),
        )
        .execute()
    ).map((r) => r.remoteId),
  );
  for (const k of keyed) {
    if (linked.has(k.id)) continue;
    await trx
      .insertInto('syncHqContacts')
      .values({ accountId, remoteId: k.id, emailKey: k.key, createdAt: k.createdAt })
      .onConflict((oc) =>
        oc.columns(['accountId', 'remoteId']).doUpdateSet({ emailKey: k.key, createdAt: k.createdAt }),
      )
      .execute();
  }
}

/** Records that HQ's contacts are known up to `watermark`, read at `checkedAt` (the caller's transaction). */
export async function saveDirectory(
  trx: Db,
  accountId: string,
  remoteAccountId: string,
  watermark: string,
  checkedAt: string,
): Promise<void> {
  await trx
    .insertInto('syncDirectory')
    .values({ accountId, remoteAccountId, watermark, checkedAt })
    .onConflict((oc) => oc.column('accountId').doUpdateSet({ remoteAccountId, watermark, checkedAt }))
    .execute();
}

/** The account's directory of this HQ account, or null (never pulled from it). */
export async function loadDirectory(
  db: Db,
  accountId: string,
  remoteAccountId: string,
): Promise<{ watermark: string; checkedAt: string } | null> {
  const r = await db
    .selectFrom('syncDirectory')
    .select(['watermark', 'checkedAt'])
    .where('accountId', '=', accountId)
    .where('remoteAccountId', '=', remoteAccountId)
    .executeTakeFirst();
  return r ?? null;
}

export type DeltaRead =
  | { kind: 'fresh' }
  | { kind: 'updated'; reads: number }
  | { kind: 'incomplete'; reads: number }
  | { kind: 'failed'; message: string };

/**
 * Brings the directory up to now: HQ's contacts newest first (createdAt desc) back to the
 * watermark. Incomplete when the watermark is more than DELTA_MAX_PAGES pages back.
 */
export async function refreshDirectory(args: {
  db: Db;
  write: <T>(fn: (trx: Db) => Promise<T>) => Promise<T>;
  remote: RemoteReader;
  accountId: string;
  remoteAccountId: string;
  watermark: string;
  nowIso: string;
  signal?: AbortSignal;
}): Promise<DeltaRead> {
  const since = Date.parse(args.watermark);
  const seen: HqListItem[] = [];
  let newest: string | null = null;
  let reads = 0;
  for (let page = 0; page < DELTA_MAX_PAGES; page++) {
    reads++;
    const r = await getJson(
      args.remote,
      '/contacts',
      {
        accountId: args.remoteAccountId,
        sortBy: 'createdAt',
        sortOrder: 'desc',
        limit: PAGE,
        offset: page * PAGE,
      },
      { attempts: 2, signal: args.signal },
    );
    if (!r.ok)
      return {
        kind: 'failed',
        message: r.problem ?? `HQ's contact list (the email match's directory) failed: ${remoteMessage(r)}`,
      };
    const items = listItems(r.body);
    if (!items)
      return { kind: 'failed', message: `HQ's answer to GET /contacts has no list of contacts ("data")` };
    for (const i of items) {
      if (newest === null || Date.parse(i.createdAt) > Date.parse(newest)) newest = i.createdAt;
      if (Date.parse(i.createdAt) >= since) seen.push(i);
    }
    const reached = items.length < PAGE || items.some((i) => Date.parse(i.createdAt) < since);
    if (reached) {
      await args.write(async (trx) => {
        await noteHqContacts(trx, args.accountId, seen);
        await saveDirectory(
          trx,
          args.accountId,
          args.remoteAccountId,
          watermarkAfter(args.watermark, newest) ?? args.watermark,
          args.nowIso,
        );
      });
      return { kind: 'updated', reads };
    }
  }
  // Not back to the watermark (HQ got over 1,000 contacts since): what was read is real, but
  // the directory is not complete. It is dropped, so later passes search per email instead of
  // paging again each time; the next pull makes a new one.
  await args.write(async (trx) => {
    await noteHqContacts(trx, args.accountId, seen);
    await trx.deleteFrom('syncDirectory').where('accountId', '=', args.accountId).execute();
  });
  return { kind: 'incomplete', reads };
}

/** The oldest HQ contact the directory lists with this email and no local contact is linked to. */
export async function directoryMatch(db: Db, accountId: string, email: string): Promise<string | null> {
  const key = emailKey(email);
  if (!key) return null;
  const r = await db
    .selectFrom('syncHqContacts as h')
    .select('h.remoteId')
    .where('h.accountId', '=', accountId)
    .where('h.emailKey', '=', key)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('syncLinks as l')
            .select('l.localId')
            .whereRef('l.remoteId', '=', 'h.remoteId')
            .where('l.entityType', '=', 'contact')
            .whereRef('l.accountId', '=', 'h.accountId'),
        ),
      ),
    )
    .orderBy('h.createdAt')
    .orderBy('h.remoteId')
    .limit(1)
    .executeTakeFirst();
  return r?.remoteId ?? null;
}

/** One delta read per pass (the pass's token), shared by every contact of the pass. */
const refreshes = new WeakMap<object, Promise<'directory' | 'search'>>();

/**
 * The engine's hook (SyncEngineOptions.matchContact): HQ's id of the contact to link to, or
 * null to create. The directory answers when the account has one (refreshed by at most one
 * delta read per pass when older than DIRECTORY_FRESH_MS); else HQ is searched for the email.
 * A read that did not answer throws, so the engine backs the contact off and tries again later
 * instead of creating a possible duplicate.
 */
export const matchContactByEmail: ContactMatcher = async ({
  client,
  remoteAccountId,
  accountId,
  email,
  store,
  now,
  pass,
}) => {
  let source: 'directory' | 'search' = 'search';
  const dir = await loadDirectory(store.db, accountId, remoteAccountId);
  if (dir) {
    if (now() - Date.parse(dir.checkedAt) <= DIRECTORY_FRESH_MS) source = 'directory';
    else {
      let p = refreshes.get(pass);
      if (!p) {
        p = refreshDirectory({
          db: store.db,
          write: (fn) => store.write(fn),
          remote: client,
          accountId,
          remoteAccountId,
          watermark: dir.watermark,
          nowIso: new Date(now()).toISOString(),
        }).then((r) => {
          if (r.kind === 'failed') throw new Error(r.message);
          return r.kind === 'incomplete' ? 'search' : 'directory';
        });
        refreshes.set(pass, p);
      }
      source = await p;
    }
  }
  if (source === 'directory') return directoryMatch(store.db, accountId, email);
  const r = await findRemoteContactByEmail(client, remoteAccountId, email, { attempts: 2 });
  if (r.kind === 'failed') throw new Error(r.message);
  return r.kind === 'found' ? r.remoteId : null;
};
