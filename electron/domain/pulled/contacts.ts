/**
 * Contacts that came down from HQ (a sync pull): a list item checked and cut to local limits,
 * a new one added, a linked one brought up to HQ's values where nothing local is waiting to be
 * pushed. Written like any local contact, but logged with push = 0: HQ already has them. The
 * caller (electron/sync/pull/apply-page.ts) runs these in its own transaction, together with
 * the id-map row that links the local contact to its HQ id.
 */
import { newId } from '#shared/ids.ts';
import type { ContactsTable } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';
import { bumpCounters } from '../counters.ts';
import { lockContact } from '../contacts/read.ts';
import { insertContactRecords, prepareContact } from '../contacts/records.ts';
import type { CustomFieldDefinition } from '../contacts/custom-fields.ts';

/** What a spec contact list item tells about a contact (the list has no more). */
export interface PulledContactFields {
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  organization: string | null;
}

/** The wire fields a pull may write on a contact. */
export type PulledContactField = 'firstName' | 'lastName' | 'primaryEmail' | 'primaryPhone' | 'organization';

const clean = (v: string | null | undefined, max: number): string | null => {
  if (v === null || v === undefined) return null;
  const t = v.trim();
  return t === '' ? null : t.slice(0, max);
};

/**
 * A list item as local fields, or the reason it cannot be stored. HQ is not bound by our
 * rules (another implementation of the spec may allow an empty name), so a pull checks.
 */
export function pulledContactFields(item: {
  firstName?: unknown;
  lastName?: unknown;
  email?: unknown;
  phone?: unknown;
  organization?: unknown;
}): PulledContactFields | { problem: string } {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const firstName = clean(text(item.firstName), 100);
  const lastName = clean(text(item.lastName), 100);
  if (!firstName) return { problem: 'firstName is empty' };
  if (!lastName) return { problem: 'lastName is empty' };
  return {
    firstName,
    lastName,
    email: clean(text(item.email), 320),
    phone: clean(text(item.phone), 50),
    organization: clean(text(item.organization), 200),
  };
}

/**
 * Adds a contact that HQ has and this database does not. Returns its local id: a new one, or
 * `id` (a station keeps its hub's ids for the hub's contacts).
 */
export async function insertPulledContact(
  trx: Db,
  accountId: string,
  f: PulledContactFields,
  at: string,
  id: string = newId('contact'),
): Promise<string> {
  const defs: CustomFieldDefinition[] = [];
  const record = prepareContact(
    {
      accountId,
      firstName: f.firstName,
      lastName: f.lastName,
      primaryEmail: f.email,
      primaryPhone: f.phone,
      organization: f.organization,
    },
    defs,
    id,
    at,
  );
  await insertContactRecords(trx, [record]);
  await bumpCounters(trx, accountId, { contacts: 1 });
  await logChange(trx, {
    accountId,
    entityType: 'contact',
    entityId: id,
    op: 'create',
    fields: null,
    push: false,
    at,
  });
  return id;
}

export type RefreshResult =
  | { kind: 'missing' }
  | { kind: 'unchanged' }
  | { kind: 'updated'; fields: PulledContactField[] }
  /** Every differing field is one the user changed here and HQ has not received yet. */
  | { kind: 'kept'; fields: PulledContactField[] };

/**
 * Brings a linked local contact up to HQ's values. `keep` lists the wire fields with local
 * changes not yet pushed: local intent wins, so those fields are left as they are (the push
 * will carry them to HQ); 'all' keeps the whole record. Writes only when something differs,
 * so a re-pull of an unchanged directory writes nothing.
 */
export async function refreshPulledContact(
  trx: Db,
  accountId: string,
  localId: string,
  f: PulledContactFields,
  keep: ReadonlySet<string> | 'all',
  at: string,
): Promise<RefreshResult> {
  const row = await trx
    .selectFrom('contacts')
    .selectAll()
    .where('id', '=', localId)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!row) return { kind: 'missing' };
  const differs: PulledContactField[] = [];
  if (row.firstName !== f.firstName) differs.push('firstName');
  if (row.lastName !== f.lastName) differs.push('lastName');
  // Email and phone are compared with what the directory shows (the primary field, else the
  // primary sub-record), as HQ's list item does.
  if ((row.email ?? null) !== f.email) differs.push('primaryEmail');
  if ((row.phone ?? null) !== f.phone) differs.push('primaryPhone');
  if ((row.organization ?? null) !== f.organization) differs.push('organization');
  if (differs.length === 0) return { kind: 'unchanged' };

  const kept = (field: PulledContactField): boolean => {
    if (keep === 'all') return true;
    if (keep.has(field)) return true;
    if (field === 'primaryEmail' && keep.has('emailAddresses')) return true;
    if (field === 'primaryPhone' && keep.has('phoneNumbers')) return true;
    return false;
  };
  const apply = differs.filter((x) => !kept(x));
  if (apply.length === 0) return { kind: 'kept', fields: differs };

  const patch: Partial<ContactsTable> = { updatedAt: at };
  if (apply.includes('firstName')) patch.firstName = f.firstName;
  if (apply.includes('lastName')) patch.lastName = f.lastName;
  if (apply.includes('organization')) patch.organization = f.organization;
  if (apply.includes('primaryEmail')) {
    patch.primaryEmail = f.email;
    // HQ's value is what the directory shows from now on (a local sub-record email stays).
    patch.email = f.email ?? (await firstSubValue(trx, 'contactEmails', localId));
  }
  if (apply.includes('primaryPhone')) {
    patch.primaryPhone = f.phone;
    patch.phone = f.phone ?? (await firstSubValue(trx, 'contactPhones', localId));
  }
  await lockContact(trx, accountId, localId);
  await trx.updateTable('contacts').set(patch).where('id', '=', localId).execute();
  await logChange(trx, {
    accountId,
    entityType: 'contact',
    entityId: localId,
    op: 'update',
    fields: apply,
    push: false,
    at,
  });
  return { kind: 'updated', fields: apply };
}

async function firstSubValue(
  trx: Db,
  table: 'contactEmails' | 'contactPhones',
  contactId: string,
): Promise<string | null> {
  if (table === 'contactEmails') {
    const e = await trx
      .selectFrom('contactEmails')
      .select('emailAddress')
      .where('contactId', '=', contactId)
      .orderBy('isPrimary', 'desc')
      .orderBy('position')
      .limit(1)
      .executeTakeFirst();
    return e?.emailAddress ?? null;
  }
  const p = await trx
    .selectFrom('contactPhones')
    .select('phoneNumber')
    .where('contactId', '=', contactId)
    .orderBy('isPrimary', 'desc')
    .orderBy('position')
    .limit(1)
    .executeTakeFirst();
  return p?.phoneNumber ?? null;
}

/** Local contacts whose displayed email is one of `emails` (lower-cased), for matching. */
export async function contactsByEmail(
  db: Db,
  accountId: string,
  emails: readonly string[],
): Promise<Array<{ id: string; firstName: string; lastName: string; email: string }>> {
  const wanted = [...new Set(emails.map((e) => e.toLowerCase()))];
  if (wanted.length === 0) return [];
  const out: Array<{ id: string; firstName: string; lastName: string; email: string }> = [];
  for (let i = 0; i < wanted.length; i += 200) {
    const part = wanted.slice(i, i + 200);
    const rows = await db
      .selectFrom('contacts')
      .select(['id', 'firstName', 'lastName', 'email'])
      .where('accountId', '=', accountId)
      .where((eb) => eb(eb.fn('lower', ['email']), 'in', part))
      .execute();
    for (const r of rows)
      if (r.email) out.push({ id: r.id, firstName: r.firstName, lastName: r.lastName, email: r.email });
  }
  return out;
}

/** Local contacts with exactly these names (case-insensitive), for matching. */
export async function contactsByName(
  db: Db,
  accountId: string,
  firstName: string,
  lastName: string,
): Promise<Array<{ id: string; email: string | null }>> {
  return db
    .selectFrom('contacts')
    .select(['id', 'email'])
    .where('accountId', '=', accountId)
    .where((eb) =>
      eb.and([
        eb(eb.fn('lower', ['firstName']), '=', firstName.toLowerCase()),
        eb(eb.fn('lower', ['lastName']), '=', lastName.toLowerCase()),
      ]),
    )
    .limit(50)
    .execute();
}
