/**
 * Contacts: create, read, update (C1–C5), delete with everything attached, list and search.
 */
import { centsToDollars } from '#shared/money.ts';
import { newId } from '#shared/ids.ts';
import {
  CONTACT_COLLECTIONS,
  CONTACT_SCALAR_FIELDS,
  type Contact,
  type ContactCollection,
  type ContactCreateBody,
  type ContactList,
  type ContactListItem,
  type ContactListQuery,
  type ContactUpdateBody,
} from '#shared/schemas/contacts.ts';
import { contactReferenceOf } from '#shared/sync-reference.ts';
import { insertObjects } from '../db/bulk.ts';
import type {
  ContactAddressesTable,
  ContactCustomValuesTable,
  ContactEducationTable,
  ContactEmailsTable,
  ContactEmploymentTable,
  ContactNotesTable,
  ContactPhonesTable,
  ContactRow,
  ContactsTable,
} from '../db/schema.ts';
import type { Db } from '../db/store.ts';
import { bumpCounters, logChange, readCounters } from './change-log.ts';
import { type OrderTerm, countedSearchPage, relevancePage, searchPageIds } from './contact-search.ts';
import type { DomainContext, WriteOptions } from './context.ts';
import {
  type CustomFieldDefinition,
  applyCustomValues,
  checkCustomValues,
  listCustomFields,
  readCustomValues,
  resolveCustomValues,
} from './custom-fields.ts';
import { DomainError, type FieldIssue, ReferenceHeld } from './errors.ts';
import {
  addressFromRow,
  educationFromRow,
  emailFromRow,
  employmentFromRow,
  noteFromRow,
  phoneFromRow,
} from './row-mappers.ts';

type Collections = Pick<ContactUpdateBody, ContactCollection>;

const SUB_TABLE = {
  phoneNumbers: 'contactPhones',
  emailAddresses: 'contactEmails',
  addresses: 'contactAddresses',
  education: 'contactEducation',
  employment: 'contactEmployment',
  notes: 'contactNotes',
} as const;

const COLLECTION_NOUN: Record<ContactCollection, string> = {
  phoneNumbers: 'phone number',
  emailAddresses: 'email address',
  addresses: 'address',
  education: 'education record',
  employment: 'employment record',
  notes: 'note',
};

export function contactNotFound(id: string): DomainError {
  return new DomainError('not_found', 'contact_not_found', `Contact ${id} was not found`, [
    { field: 'id', issue: 'does not exist in this account' },
  ]);
}

const b = (v: boolean | undefined): 0 | 1 => (v ? 1 : 0);
const blankToNull = (v: string | null | undefined): string | null =>
  v === undefined || v === null || v === '' ? null : v;

/** Checks the rules zod cannot see: at most one primary per collection. */
function checkCollections(input: Collections): void {
  const issues: FieldIssue[] = [];
  for (const key of ['phoneNumbers', 'emailAddresses', 'addresses'] as const) {
    const items = input[key];
    if (!items) continue;
    const primaries = items.map((x, i) => (x.isPrimary ? i : -1)).filter((i) => i >= 0);
    if (primaries.length > 1) {
      issues.push({
        field: `${key}[${primaries[1]}].isPrimary`,
        issue: `only one ${COLLECTION_NOUN[key]} can be primary`,
      });
    }
  }
  if (issues.length > 0) {
    const first = issues[0] as FieldIssue;
    throw new DomainError('bad_request', 'validation_failed', `${first.field}: ${first.issue}`, issues);
  }
}

function normaliseTags(tags: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of tags) {
    const k = t.trim().toLowerCase();
    if (k && !seen.has(k)) {
      seen.add(k);
      out.push(t.trim());
    }
  }
  return out;
}

const subBase = (contactId: string, i: number) => ({ id: newId('subRecord'), contactId, position: i });
type Items<K extends ContactCollection> = NonNullable<Collections[K]>;
const phoneRows = (contactId: string, items: Items<'phoneNumbers'>): ContactPhonesTable[] =>
  items.map((x, i) => ({
    ...subBase(contactId, i),
    phoneNumber: x.phoneNumber,
    phoneType: blankToNull(x.phoneType),
    isPrimary: b(x.isPrimary),
  }));
const emailRows = (contactId: string, items: Items<'emailAddresses'>): ContactEmailsTable[] =>
  items.map((x, i) => ({
    ...subBase(contactId, i),
    emailAddress: x.emailAddress,
    emailType: blankToNull(x.emailType),
    isPrimary: b(x.isPrimary),
  }));
const addressRows = (contactId: string, items: Items<'addresses'>): ContactAddressesTable[] =>
  items.map((x, i) => ({
    ...subBase(contactId, i),
    addressType: blankToNull(x.addressType),
    street1: blankToNull(x.street1),
    street2: blankToNull(x.street2),
    city: blankToNull(x.city),
    state: blankToNull(x.state),
    postalCode: blankToNull(x.postalCode),
    country: blankToNull(x.country),
    isPrimary: b(x.isPrimary),
  }));
const educationRows = (contactId: string, items: Items<'education'>): ContactEducationTable[] =>
  items.map((x, i) => ({
    ...subBase(contactId, i),
    institution: x.institution,
    degree: blankToNull(x.degree),
    fieldOfStudy: blankToNull(x.fieldOfStudy),
    graduationYear: x.graduationYear ?? null,
  }));
const employmentRows = (contactId: string, items: Items<'employment'>): ContactEmploymentTable[] =>
  items.map((x, i) => ({
    ...subBase(contactId, i),
    employer: x.employer,
    title: blankToNull(x.title),
    occupation: blankToNull(x.occupation),
    startDate: blankToNull(x.startDate),
    endDate: blankToNull(x.endDate),
    isCurrent: b(x.isCurrent),
  }));
const noteRows = (contactId: string, items: Items<'notes'>, at: string): ContactNotesTable[] =>
  items.map((x, i) => ({
    ...subBase(contactId, i),
    content: x.content,
    noteType: blankToNull(x.noteType),
    createdAt: at,
  }));

async function replaceCollection(
  trx: Db,
  contactId: string,
  key: ContactCollection,
  input: Collections,
  at: string,
): Promise<void> {
  const table = SUB_TABLE[key];
  await trx.deleteFrom(table).where('contactId', '=', contactId).execute();
  const items = input[key] ?? [];
  if (items.length === 0) return;
  switch (key) {
    case 'phoneNumbers':
      await trx.insertInto('contactPhones').values(phoneRows(contactId, input.phoneNumbers!)).execute();
      break;
    case 'emailAddresses':
      await trx.insertInto('contactEmails').values(emailRows(contactId, input.emailAddresses!)).execute();
      break;
    case 'addresses':
      await trx.insertInto('contactAddresses').values(addressRows(contactId, input.addresses!)).execute();
      break;
    case 'education':
      await trx.insertInto('contactEducation').values(educationRows(contactId, input.education!)).execute();
      break;
    case 'employment':
      await trx
        .insertInto('contactEmployment')
        .values(employmentRows(contactId, input.employment!))
        .execute();
      break;
    case 'notes':
      await trx
        .insertInto('contactNotes')
        .values(noteRows(contactId, input.notes!, at))
        .execute();
      break;
  }
}

/** The displayed email/phone: the primary field, else the primary sub-record, else the first. */
async function deriveEmailPhone(
  trx: Db,
  contactId: string,
  row: Pick<ContactsTable, 'primaryEmail' | 'primaryPhone'>,
) {
  let email = row.primaryEmail;
  if (!email) {
    const e = await trx
      .selectFrom('contactEmails')
      .select('emailAddress')
      .where('contactId', '=', contactId)
      .orderBy('isPrimary', 'desc')
      .orderBy('position')
      .limit(1)
      .executeTakeFirst();
    email = e?.emailAddress ?? null;
  }
  let phone = row.primaryPhone;
  if (!phone) {
    const p = await trx
      .selectFrom('contactPhones')
      .select('phoneNumber')
      .where('contactId', '=', contactId)
      .orderBy('isPrimary', 'desc')
      .orderBy('position')
      .limit(1)
      .executeTakeFirst();
    phone = p?.phoneNumber ?? null;
  }
  return { email, phone };
}

function scalarPatch(input: ContactUpdateBody): Partial<ContactsTable> {
  const patch: Partial<Record<keyof ContactsTable, unknown>> = {};
  for (const f of CONTACT_SCALAR_FIELDS) {
    if (input[f] !== undefined) patch[f] = blankToNull(input[f]);
  }
  if (input.firstName !== undefined) patch.firstName = input.firstName;
  if (input.lastName !== undefined) patch.lastName = input.lastName;
  if (input.contactType !== undefined) patch.contactType = input.contactType;
  if (input.status !== undefined) patch.status = input.status;
  if (input.tags !== undefined) patch.tags = JSON.stringify(normaliseTags(input.tags));
  return patch as Partial<ContactsTable>;
}

/** The wire names a body sends (for the change log: C1, only sent fields). */
function sentFields(input: ContactUpdateBody): string[] {
  const fields = Object.keys(input).filter(
    (k) => k !== 'accountId' && input[k as keyof ContactUpdateBody] !== undefined,
  );
  // C4: custom fields change one by one, so the outbox names each one sent (`customFields.<name>`);
  // the sync engine sends exactly those, a cleared one as null.
  for (const name of Object.keys(input.customFields ?? {})) fields.push(`customFields.${name}`);
  return fields;
}

/** A new contact as the rows to insert, before anything is written. */
export interface NewContactRecord {
  row: ContactsTable;
  phones: ContactPhonesTable[];
  emails: ContactEmailsTable[];
  addresses: ContactAddressesTable[];
  education: ContactEducationTable[];
  employment: ContactEmploymentTable[];
  notes: ContactNotesTable[];
  customValues: ContactCustomValuesTable[];
}

/**
 * Checks a create body against the rules zod cannot see (one primary per collection, the
 * account's custom field definitions) and builds its rows. Pure: the API's create and the
 * bulk import both go through it, so they accept and store exactly the same things.
 */
export function prepareContact(
  input: ContactCreateBody,
  defs: readonly CustomFieldDefinition[],
  id: string,
  at: string,
  externalId: string | null = null,
): NewContactRecord {
  checkCollections(input);
  const custom = input.customFields ? checkCustomValues(defs, input.customFields) : [];
  const phones = input.phoneNumbers ? phoneRows(id, input.phoneNumbers) : [];
  const emails = input.emailAddresses ? emailRows(id, input.emailAddresses) : [];
  const row = {
    id,
    accountId: input.accountId,
    contactType: input.contactType ?? 'INDIVIDUAL',
    status: input.status ?? 'ACTIVE',
    firstName: input.firstName,
    lastName: input.lastName,
    prefix: null,
    middleName: null,
    suffix: null,
    salutation: null,
    formalSalutation: null,
    primaryEmail: null,
    primaryPhone: null,
    organization: null,
    title: null,
    employer: null,
    occupation: null,
    industry: null,
    spouse: null,
    birthDate: null,
    gender: null,
    politicalParty: null,
    capacity: null,
    quickNotes: null,
    source: null,
    preferredContactMethod: null,
    tags: '[]',
    ...scalarPatch(input),
    email: null as string | null,
    phone: null as string | null,
    externalId,
    totalCents: 0,
    lastDonationDate: null,
    createdAt: at,
    updatedAt: at,
  } satisfies ContactsTable;
  // The displayed email/phone: the primary field, else the primary sub-record, else the first.
  row.email = row.primaryEmail ?? (emails.find((e) => e.isPrimary === 1) ?? emails[0])?.emailAddress ?? null;
  row.phone = row.primaryPhone ?? (phones.find((p) => p.isPrimary === 1) ?? phones[0])?.phoneNumber ?? null;
  return {
    row,
    phones,
    emails,
    addresses: input.addresses ? addressRows(id, input.addresses) : [],
    education: input.education ? educationRows(id, input.education) : [],
    employment: input.employment ? employmentRows(id, input.employment) : [],
    notes: input.notes ? noteRows(id, input.notes, at) : [],
    customValues: custom.flatMap((w) =>
      w.value === null ? [] : [{ contactId: id, fieldId: w.fieldId, ...w.value }],
    ),
  };
}

/** Inserts prepared contacts with everything attached (no counters, no outbox: the caller's). */
export async function insertContactRecords(trx: Db, records: readonly NewContactRecord[]): Promise<void> {
  await insertObjects(
    trx,
    'contacts',
    records.map((r) => r.row),
  );
  await insertObjects(
    trx,
    'contactPhones',
    records.flatMap((r) => r.phones),
  );
  await insertObjects(
    trx,
    'contactEmails',
    records.flatMap((r) => r.emails),
  );
  await insertObjects(
    trx,
    'contactAddresses',
    records.flatMap((r) => r.addresses),
  );
  await insertObjects(
    trx,
    'contactEducation',
    records.flatMap((r) => r.education),
  );
  await insertObjects(
    trx,
    'contactEmployment',
    records.flatMap((r) => r.employment),
  );
  await insertObjects(
    trx,
    'contactNotes',
    records.flatMap((r) => r.notes),
  );
  await insertObjects(
    trx,
    'contactCustomValues',
    records.flatMap((r) => r.customValues),
  );
}

export async function createContact(
  ctx: DomainContext,
  input: ContactCreateBody,
  opts: WriteOptions & { externalId?: string | null } = {},
): Promise<Contact> {
  return (await createContactOnce(ctx, input, opts)).contact;
}

/** The account's contact created with this sync reference, if any. */
async function contactByReference(db: Db, accountId: string, reference: string) {
  return db
    .selectFrom('contactSyncReferences')
    .select('contactId as id')
    .where('accountId', '=', accountId)
    .where('reference', '=', reference)
    .executeTakeFirst();
}

/**
 * Creates a contact, once per sync reference: when its tags carry a GiftDesk reference
 * (`gd:<local id>`, its last such tag; #shared/sync-reference.ts) and the account already
 * holds a contact created with it, that contact is the answer (`created: false`) and nothing
 * is written. The database enforces it (a unique reference per account), so two creates
 * racing with one reference store one contact and both answer it.
 */
export async function createContactOnce(
  ctx: DomainContext,
  input: ContactCreateBody,
  opts: WriteOptions & { externalId?: string | null } = {},
): Promise<{ contact: Contact; created: boolean }> {
  checkCollections(input);
  const reference = contactReferenceOf(normaliseTags(input.tags ?? []));
  for (;;) {
    try {
      return { contact: await insertContact(ctx, input, reference, opts), created: true };
    } catch (err) {
      if (!(err instanceof ReferenceHeld)) throw err;
      const held = await contactByReference(ctx.store.db, input.accountId, err.reference);
      if (held) return { contact: await getContact(ctx, input.accountId, held.id), created: false };
      // Deleted since it was seen: the reference is free again, try once more.
    }
  }
}

async function insertContact(
  ctx: DomainContext,
  input: ContactCreateBody,
  reference: string | null,
  opts: WriteOptions & { externalId?: string | null },
): Promise<Contact> {
  const id = newId('contact');
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const defs = input.customFields ? await listCustomFields(trx, input.accountId) : [];
    if (reference !== null && (await contactByReference(trx, input.accountId, reference)))
      throw new ReferenceHeld(reference);
    await insertContactRecords(trx, [prepareContact(input, defs, id, at, opts.externalId ?? null)]);
    if (reference !== null) {
      const kept = await trx
        .insertInto('contactSyncReferences')
        .values({ accountId: input.accountId, reference, contactId: id })
        // Another create with this reference committed since the check (PostgreSQL: this one
        // waited for it on the key): nothing inserted; roll this one back, answer that one.
        .onConflict((oc) => oc.columns(['accountId', 'reference']).doNothing())
        .executeTakeFirst();
      if (Number(kept.numInsertedOrUpdatedRows ?? 0n) === 0) throw new ReferenceHeld(reference);
    }
    await bumpCounters(trx, input.accountId, { contacts: 1 });
    await logChange(trx, {
      accountId: input.accountId,
      entityType: 'contact',
      entityId: id,
      op: 'create',
      fields: null,
      push: opts.push,
      at,
    });
  });
  const created = await getContact(ctx, input.accountId, id);
  return created;
}

/**
 * Locks a contact's row for the rest of the transaction and says whether it exists in the
 * account. On PostgreSQL a no-op UPDATE takes the row lock, so writes to one contact (its
 * gifts' limit checks, an update racing a delete) happen one after another; on SQLite,
 * writes are serialised already and this costs one cheap statement.
 */
export async function lockContact(trx: Db, accountId: string, id: string): Promise<boolean> {
  const r = await trx
    .updateTable('contacts')
    .set((eb) => ({ totalCents: eb.ref('totalCents') }))
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function getContactRow(db: Db, accountId: string, id: string): Promise<ContactRow | undefined> {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('id', '=', id)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
}

export async function getContact(
  ctx: DomainContext,
  accountId: string,
  id: string,
  db: Db = ctx.store.db,
): Promise<Contact> {
  const row = await getContactRow(db, accountId, id);
  if (!row) throw contactNotFound(id);
  const [phones, emails, addresses, education, employment, notes, custom] = await Promise.all([
    db.selectFrom('contactPhones').selectAll().where('contactId', '=', id).orderBy('position').execute(),
    db.selectFrom('contactEmails').selectAll().where('contactId', '=', id).orderBy('position').execute(),
    db.selectFrom('contactAddresses').selectAll().where('contactId', '=', id).orderBy('position').execute(),
    db.selectFrom('contactEducation').selectAll().where('contactId', '=', id).orderBy('position').execute(),
    db.selectFrom('contactEmployment').selectAll().where('contactId', '=', id).orderBy('position').execute(),
    db.selectFrom('contactNotes').selectAll().where('contactId', '=', id).orderBy('position').execute(),
    readCustomValues(db, [id]),
  ]);
  const addressList = addresses.map(addressFromRow);
  const total = centsToDollars(Number(row.totalCents));
  return {
    id: row.id,
    contactType: row.contactType,
    status: row.status,
    firstName: row.firstName,
    lastName: row.lastName,
    prefix: row.prefix,
    middleName: row.middleName,
    suffix: row.suffix,
    salutation: row.salutation,
    formalSalutation: row.formalSalutation,
    primaryEmail: row.primaryEmail,
    primaryPhone: row.primaryPhone,
    organization: row.organization,
    title: row.title,
    employer: row.employer,
    occupation: row.occupation,
    industry: row.industry,
    spouse: row.spouse,
    birthDate: row.birthDate,
    gender: row.gender,
    politicalParty: row.politicalParty,
    capacity: row.capacity,
    quickNotes: row.quickNotes,
    source: row.source,
    preferredContactMethod: row.preferredContactMethod,
    tags: JSON.parse(row.tags) as string[],
    phoneNumbers: phones.map(phoneFromRow),
    emailAddresses: emails.map(emailFromRow),
    addresses: addressList,
    education: education.map(educationFromRow),
    employment: employment.map(employmentFromRow),
    notes: notes.map(noteFromRow),
    customFields: custom.get(id) ?? {},
    email: row.email,
    phone: row.phone,
    address: addressList.find((a) => a.isPrimary) ?? addressList[0] ?? null,
    totalDonations: total,
    totalDonated: total,
    lastDonationDate: row.lastDonationDate,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function updateContact(
  ctx: DomainContext,
  accountId: string,
  id: string,
  input: ContactUpdateBody,
  opts: WriteOptions = {},
): Promise<Contact> {
  checkCollections(input);
  const at = ctx.now();
  const fields = sentFields(input);
  await ctx.store.write(async (trx) => {
    if (!(await lockContact(trx, accountId, id))) throw contactNotFound(id);
    const current = await getContactRow(trx, accountId, id);
    if (!current) throw contactNotFound(id);
    const custom = input.customFields ? await resolveCustomValues(trx, accountId, input.customFields) : [];
    if (fields.length === 0) return;
    const patch = scalarPatch(input);
    await trx
      .updateTable('contacts')
      .set({ ...patch, updatedAt: at })
      .where('id', '=', id)
      .execute();
    for (const key of CONTACT_COLLECTIONS)
      if (input[key] !== undefined) await replaceCollection(trx, id, key, input, at);
    if (['primaryEmail', 'primaryPhone', 'emailAddresses', 'phoneNumbers'].some((f) => fields.includes(f))) {
      const derived = await deriveEmailPhone(trx, id, {
        primaryEmail: patch.primaryEmail !== undefined ? patch.primaryEmail : current.primaryEmail,
        primaryPhone: patch.primaryPhone !== undefined ? patch.primaryPhone : current.primaryPhone,
      });
      await trx.updateTable('contacts').set(derived).where('id', '=', id).execute();
    }
    await applyCustomValues(trx, id, custom);
    await logChange(trx, {
      accountId,
      entityType: 'contact',
      entityId: id,
      op: 'update',
      fields,
      push: opts.push,
      at,
    });
  });
  return getContact(ctx, accountId, id);
}

/** Deletes the contact and everything attached, donations included (docs/design.md). */
export async function deleteContact(
  ctx: DomainContext,
  accountId: string,
  id: string,
  opts: WriteOptions = {},
): Promise<{ message: string }> {
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    if (!(await lockContact(trx, accountId, id))) throw contactNotFound(id);
    const gifts = await trx
      .selectFrom('donations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('contactId', '=', id)
      .executeTakeFirstOrThrow();
    await trx.deleteFrom('contacts').where('id', '=', id).execute();
    await bumpCounters(trx, accountId, { contacts: -1, donations: -Number(gifts.n) });
    await logChange(trx, {
      accountId,
      entityType: 'contact',
      entityId: id,
      op: 'delete',
      fields: null,
      push: opts.push,
      at,
    });
  });
  return { message: `Contact ${id} deleted` };
}

const SORT_COLUMN = {
  firstName: 'firstName',
  lastName: 'lastName',
  email: 'email',
  createdAt: 'createdAt',
} as const;

export async function listContacts(ctx: DomainContext, q: ContactListQuery): Promise<ContactList> {
  const db = ctx.store.db;
  const limit = q.limit ?? 20;
  const offset = q.offset ?? 0;
  const search = q.search;

  if (q.sortBy === 'relevance') {
    const { ids, total } = await relevancePage(ctx, q.accountId, search, offset, limit);
    return { data: await contactItems(db, q.accountId, ids), total, limit, offset };
  }

  const direction = q.sortOrder ?? 'desc';
  const column = SORT_COLUMN[q.sortBy ?? 'createdAt'];
  // A missing email sorts before every other ascending and after every other descending,
  // on both engines; the other columns are never empty.
  const order: OrderTerm[] = [
    {
      column,
      dir: direction,
      ...(column === 'email' ? { nulls: direction === 'asc' ? ('first' as const) : ('last' as const) } : {}),
    },
    { column: 'id', dir: direction },
  ];
  if (search !== undefined) {
    // Count and page in one statement where the engine builds the match set to count it
    // anyway (contact-search.ts countedSearchPage).
    const both = await countedSearchPage(ctx, {
      accountId: q.accountId,
      text: search,
      order,
      skip: offset,
      take: limit,
    });
    if (both)
      return { data: await contactItems(db, q.accountId, both.ids), total: both.total, limit, offset };
  }
  // Else the total first, driven by the full-text match (account-scoped:
  // Store.countContactSearch), then the page (contact-search.ts).
  const counted = search !== undefined ? await ctx.store.countContactSearch(search, q.accountId) : null;
  if (counted !== null && search !== undefined) {
    const ids = await searchPageIds(ctx, {
      accountId: q.accountId,
      text: search,
      size: counted,
      order,
      skip: offset,
      take: limit,
    });
    return { data: await contactItems(db, q.accountId, ids), total: counted, limit, offset };
  }
  const total = (await readCounters(db, q.accountId)).contacts;
  // The page's ids first (read off the order's index), then their rows.
  const page = await db
    .selectFrom('contacts')
    .where('accountId', '=', q.accountId)
    .select('id')
    // PostgreSQL is told SQLite's own null order for email; the other columns are never empty:
    // no null order, so PostgreSQL reads them off their indexes as they are.
    .orderBy(column, (ob) =>
      column !== 'email'
        ? direction === 'asc'
          ? ob.asc()
          : ob.desc()
        : direction === 'asc'
          ? ob.asc().nullsFirst()
          : ob.desc().nullsLast(),
    )
    .orderBy('id', direction)
    .limit(limit)
    .offset(offset)
    .execute();
  return {
    data: await contactItems(
      db,
      q.accountId,
      page.map((r) => r.id),
    ),
    total,
    limit,
    offset,
  };
}

/** The list rows of `ids`, in that order; a contact deleted since the ids were read is left out. */
async function contactItems(db: Db, accountId: string, ids: readonly string[]): Promise<ContactListItem[]> {
  if (ids.length === 0) return [];
  // By id alone (the ids are the account's): with an account condition too, the planner walked
  // the account's index instead of looking the page's ids up (1,000,000 entries).
  const rows = await db
    .selectFrom('contacts')
    .select([
      'id',
      'accountId',
      'firstName',
      'lastName',
      'email',
      'phone',
      'organization',
      'createdAt',
      'updatedAt',
    ])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(
    rows.filter((r) => r.accountId === accountId).map(({ accountId: _, ...r }) => [r.id, r]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}
