/**
 * Applying one page of HQ's contacts (pull.ts fetches the pages): each contact is linked to
 * the local one it already is (sync_links), linked by email to a local contact that never
 * goes to HQ by itself, left for the engine when it may be a create of ours not confirmed
 * yet, or written as a new local contact; a field changed here and not pushed yet is kept.
 * See pull.ts for the rules.
 */
import type { DomainContext } from '../../domain/context.ts';
import {
  insertPulledContact,
  pulledContactFields,
  type PulledContactFields,
  refreshPulledContact,
} from '../../domain/pulled/index.ts';
import type { Db } from '../../db/store.ts';
import { noteHqContacts } from '../push/email-match.ts';
import type { PullCounts } from './counts.ts';
import { linkRemote } from '../outbox/links.ts';
import { unconfirmedContactCreates } from '../outbox/items.ts';
import { unpushedContactFields } from '../outbox/unpushed-fields.ts';

interface RemoteContact {
  remoteId: string;
  fields: PulledContactFields;
  createdAt: string | null;
}

/** Local contacts made here whose create HQ has not confirmed (no link yet, create not synced). */
async function unconfirmedCreates(
  db: Db,
  accountId: string,
): Promise<Array<{ id: string; firstName: string; lastName: string; email: string | null }>> {
  // Creates not sent yet: the engine will send (and email-match) the contact as it is now.
  const unsent = await db
    .selectFrom('changeLog as l')
    .innerJoin('contacts as c', 'c.id', 'l.entityId')
    .select(['c.id', 'c.firstName', 'c.lastName', 'c.email'])
    .where('l.accountId', '=', accountId)
    .where('l.push', '=', 1)
    .where('l.syncedAt', 'is', null)
    .where('l.entityType', '=', 'contact')
    .where('l.op', '=', 'create')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('syncLinks as s')
            .select('s.localId')
            .where('s.entityType', '=', 'contact')
            .whereRef('s.localId', '=', 'c.id'),
        ),
      ),
    )
    .execute();
  // Creates sent whose outcome is not known: HQ may hold what the attempt SENT, whatever the
  // contact became here since (renamed, given another email, deleted). That record is the
  // engine's to find by its tag; pulled as a new local contact it would be a ghost donor.
  return [...unsent, ...(await unconfirmedContactCreates(db, accountId))];
}

/** Unlinked local contacts whose displayed email is one of `emails` (case-insensitive). */
async function unlinkedByEmail(
  db: Db,
  engine: 'sqlite' | 'postgres',
  accountId: string,
  emails: readonly string[],
) {
  const wanted = [...new Set(emails.map((e) => e.toLowerCase()))];
  if (wanted.length === 0) return [];
  let q = db
    .selectFrom('contacts as c')
    .select(['c.id', 'c.firstName', 'c.lastName', 'c.email'])
    .where('c.accountId', '=', accountId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('syncLinks as s')
            .select('s.localId')
            .where('s.entityType', '=', 'contact')
            .whereRef('s.localId', '=', 'c.id'),
        ),
      ),
    );
  // SQLite's email column compares case-insensitively (and uses its index); PostgreSQL's does not.
  q =
    engine === 'sqlite'
      ? q.where('c.email', 'in', wanted)
      : q.where((eb) => eb(eb.fn('lower', ['c.email']), 'in', wanted));
  return q.orderBy('c.createdAt').execute();
}

const lower = (s: string | null) => (s ?? '').toLowerCase();

/** The page's contacts HQ listed with an id and storable fields, each once; the others rejected with a note. */
function readContacts(
  items: readonly unknown[],
  counts: PullCounts,
  note: (n: string) => void,
): RemoteContact[] {
  const contacts: RemoteContact[] = [];
  const seen = new Set<string>();
  for (const raw of items) {
    const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const remoteId = typeof o.id === 'string' ? o.id : typeof o.id === 'number' ? String(o.id) : null;
    if (!remoteId) {
      counts.rejected++;
      note('HQ listed a contact without an id; it was skipped');
      continue;
    }
    if (seen.has(remoteId)) continue;
    seen.add(remoteId);
    const f = pulledContactFields(o);
    if ('problem' in f) {
      counts.rejected++;
      note(`HQ contact ${remoteId} was not pulled: ${f.problem}`);
      continue;
    }
    contacts.push({
      remoteId,
      fields: f,
      createdAt:
        typeof o.createdAt === 'string' && !Number.isNaN(Date.parse(o.createdAt)) ? o.createdAt : null,
    });
  }
  return contacts;
}

/** The local contacts linked to the page's HQ contacts: HQ id → local id. */
async function linkedLocalIds(
  trx: Db,
  accountId: string,
  contacts: readonly RemoteContact[],
): Promise<Map<string, string>> {
  const links = await trx
    .selectFrom('syncLinks')
    .select(['localId', 'remoteId'])
    .where('accountId', '=', accountId)
    .where('entityType', '=', 'contact')
    .where(
      'remoteId',
      'in',
      contacts.map((c) => c.remoteId),
    )
    .execute();
  return new Map(links.map((l) => [l.remoteId, l.localId]));
}

/** What the page's unlinked HQ contacts are matched against, and what the matching did so far. */
interface Unlinked {
  trx: Db;
  accountId: string;
  at: string;
  emailMatch: boolean;
  counts: PullCounts;
  /** Local contacts whose create HQ has not confirmed: the engine's to link. */
  waiting: Awaited<ReturnType<typeof unconfirmedCreates>>;
  waitingIds: Set<string>;
  /** Unlinked local contacts with one of the page's emails. */
  byEmail: Awaited<ReturnType<typeof unlinkedByEmail>>;
  /** Local contacts this page linked already. */
  takenHere: Set<string>;
  /** HQ contacts left for the engine (the email match's directory lists them). */
  deferred: Array<{ id: string; email: string | null; createdAt: string }>;
}

/**
 * An HQ contact no local contact is linked to: left for the engine when it may be a create of
 * ours not confirmed yet, else linked to an unlinked local contact with its email, else written
 * as a new local contact (linked).
 */
async function applyUnlinked(u: Unlinked, c: RemoteContact): Promise<void> {
  const { trx, accountId, at, counts } = u;
  const f = c.fields;
  const sameNames = (x: { firstName: string; lastName: string }) =>
    lower(x.firstName) === lower(f.firstName) && lower(x.lastName) === lower(f.lastName);
  const sameEmail = (x: { email: string | null }) => f.email !== null && lower(x.email) === lower(f.email);
  // The engine's to link: a contact made here, not confirmed at HQ yet, that this one may be.
  if (
    u.waiting.some(
      (w) =>
        (sameNames(w) && (sameEmail(w) || (w.email === null && f.email === null))) ||
        (u.emailMatch && sameEmail(w)),
    )
  ) {
    counts.deferred++;
    u.deferred.push({ id: c.remoteId, email: f.email, createdAt: c.createdAt ?? at });
    return;
  }
  const match = u.byEmail.find(
    (x) =>
      !u.waitingIds.has(x.id) && !u.takenHere.has(x.id) && sameEmail(x) && (u.emailMatch || sameNames(x)),
  );
  if (match) {
    const localId = match.id;
    u.takenHere.add(match.id);
    await linkRemote(trx, {
      accountId,
      entityType: 'contact',
      localId,
      remoteId: c.remoteId,
      source: 'pulled',
      at,
    });
    counts.linked++;
    const r = await refreshPulledContact(
      trx,
      accountId,
      localId,
      f,
      (await unpushedContactFields(trx, accountId, [localId])).get(localId) ?? new Set(),
      at,
    );
    if (r.kind === 'kept') counts.kept++;
    return;
  }
  const id = await insertPulledContact(trx, accountId, f, at);
  await linkRemote(trx, {
    accountId,
    entityType: 'contact',
    localId: id,
    remoteId: c.remoteId,
    source: 'pulled',
    at,
  });
  counts.created++;
}

/** An HQ contact linked to a local one: brought up to HQ's values, a field changed here and not pushed yet kept. */
async function applyLinked(
  trx: Db,
  accountId: string,
  localId: string,
  c: RemoteContact,
  pending: Set<string> | 'all' | undefined,
  counts: PullCounts,
  at: string,
): Promise<void> {
  const r = await refreshPulledContact(trx, accountId, localId, c.fields, pending ?? new Set(), at);
  switch (r.kind) {
    case 'missing':
      counts.deletedHere++;
      break;
    case 'unchanged':
      counts.unchanged++;
      break;
    case 'kept':
      counts.kept++;
      break;
    case 'updated':
      if (pending !== undefined) counts.kept++;
      else counts.updated++;
      break;
  }
}

/** Writes one page of HQ's contacts (the caller's transaction). */
export async function applyContactPage(
  trx: Db,
  ctx: DomainContext,
  accountId: string,
  items: readonly unknown[],
  emailMatch: boolean,
  counts: PullCounts,
  note: (n: string) => void,
): Promise<void> {
  const at = ctx.now();
  const contacts = readContacts(items, counts, note);
  if (contacts.length === 0) return;

  const localOf = await linkedLocalIds(trx, accountId, contacts);
  const pending = await unpushedContactFields(trx, accountId, [...localOf.values()]);

  const unlinked = contacts.filter((c) => !localOf.has(c.remoteId));
  const waiting = unlinked.length > 0 ? await unconfirmedCreates(trx, accountId) : [];
  const byEmail = await unlinkedByEmail(
    trx,
    ctx.store.engine,
    accountId,
    unlinked.flatMap((c) => (c.fields.email ? [c.fields.email] : [])),
  );
  const u: Unlinked = {
    trx,
    accountId,
    at,
    emailMatch,
    counts,
    waiting,
    waitingIds: new Set(waiting.map((w) => w.id)),
    byEmail,
    takenHere: new Set(),
    deferred: [],
  };

  for (const c of contacts) {
    const localId = localOf.get(c.remoteId);
    if (localId === undefined) await applyUnlinked(u, c);
    else await applyLinked(trx, accountId, localId, c, pending.get(localId), counts, at);
  }
  // Left for the engine: the email match's directory lists them (email-match.ts).
  await noteHqContacts(trx, accountId, u.deferred);
}
