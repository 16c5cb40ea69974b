/**
 * CSV export of an account's contacts or donations, in the very columns the import reads,
 * a page at a time (the caller streams it). Round trip: a record's `externalId` is its
 * external reference, or its own GiftDesk id when it has none; donations name their donor
 * the same way (`contactExternalId`). Importing an export back into the same account adds
 * nothing (every row is recognised); into another database it recreates the records, as
 * long as the campaigns, committees and donation accounts it names exist there.
 */
import { notesForPeople, tagsForPeople } from '#shared/sync-reference.ts';
import type { Db } from '../../db/store.ts';
import type { DomainContext } from '../context.ts';
import type { ImportKind } from './csv-columns.ts';
import {
  addressFromRow,
  educationFromRow,
  emailFromRow,
  employmentFromRow,
  noteFromRow,
  phoneFromRow,
} from '../row-mappers.ts';
import { csvLine } from './csv-reader.ts';
import { listCustomFields, readCustomValues } from '../contacts/custom-fields.ts';

export interface ExportPage {
  /** CSV text: the header line first, then rows. */
  text: string;
  rows: number;
}

const PAGE = 500;

export function exportCsv(
  ctx: DomainContext,
  kind: ImportKind,
  accountId: string,
): AsyncGenerator<ExportPage> {
  return kind === 'contacts'
    ? exportContacts(ctx.store.db, accountId)
    : exportDonations(ctx.store.db, accountId);
}

/** Cents as the decimal dollars a person (and the import) reads: 125000 → "1250.00". */
function dollarsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const bool = (v: number) => (v === 1 ? 'true' : 'false');
/** A sub-record list as JSON (without ids, which are GiftDesk's own), or empty. */
const json = (items: object[]) => (items.length === 0 ? '' : JSON.stringify(items));

/** A sub-record as exported: its API shape without the id (a new one is made on import). */
function withoutId<T extends { id: string }>(item: T): Omit<T, 'id'> {
  const { id: _id, ...rest } = item;
  return rest;
}

const CONTACT_SCALARS = [
  'prefix',
  'middleName',
  'suffix',
  'salutation',
  'formalSalutation',
  'primaryEmail',
  'primaryPhone',
  'organization',
  'title',
  'employer',
  'occupation',
  'industry',
  'spouse',
  'birthDate',
  'gender',
  'politicalParty',
  'capacity',
  'quickNotes',
  'source',
  'preferredContactMethod',
] as const;
const CONTACT_COLUMNS = [
  'externalId',
  'firstName',
  'lastName',
  'contactType',
  'status',
  ...CONTACT_SCALARS,
  'tags',
  'phoneNumbers',
  'emailAddresses',
  'addresses',
  'education',
  'employment',
  'notes',
];

async function* exportContacts(db: Db, accountId: string): AsyncGenerator<ExportPage> {
  const fields = (await listCustomFields(db, accountId)).filter((f) => !f.archived);
  yield { text: csvLine([...CONTACT_COLUMNS, ...fields.map((f) => `customFields.${f.name}`)]), rows: 0 };
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    let q = db.selectFrom('contacts').selectAll().where('accountId', '=', accountId);
    if (after) {
      const a: { createdAt: string; id: string } = after;
      q = q.where((eb) => eb(eb.refTuple('createdAt', 'id'), '>', eb.tuple(a.createdAt, a.id)));
    }
    const page = await q.orderBy('createdAt').orderBy('id').limit(PAGE).execute();
    if (page.length === 0) return;
    const ids = page.map((c) => c.id);
    const [phones, emails, addresses, education, employment, notes, custom] = [
      await db
        .selectFrom('contactPhones')
        .selectAll()
        .where('contactId', 'in', ids)
        .orderBy('contactId')
        .orderBy('position')
        .execute(),
      await db
        .selectFrom('contactEmails')
        .selectAll()
        .where('contactId', 'in', ids)
        .orderBy('contactId')
        .orderBy('position')
        .execute(),
      await db
        .selectFrom('contactAddresses')
        .selectAll()
        .where('contactId', 'in', ids)
        .orderBy('contactId')
        .orderBy('position')
        .execute(),
      await db
        .selectFrom('contactEducation')
        .selectAll()
        .where('contactId', 'in', ids)
        .orderBy('contactId')
        .orderBy('position')
        .execute(),
      await db
        .selectFrom('contactEmployment')
        .selectAll()
        .where('contactId', 'in', ids)
        .orderBy('contactId')
        .orderBy('position')
        .execute(),
      await db
        .selectFrom('contactNotes')
        .selectAll()
        .where('contactId', 'in', ids)
        .orderBy('contactId')
        .orderBy('position')
        .execute(),
      await readCustomValues(db, ids),
    ];
    const group = <T extends { contactId: string }>(rows: T[]) => {
      const m = new Map<string, T[]>();
      for (const r of rows) {
        const list = m.get(r.contactId);
        if (list) list.push(r);
        else m.set(r.contactId, [r]);
      }
      return m;
    };
    const [ph, em, ad, ed, emp, no] = [
      group(phones),
      group(emails),
      group(addresses),
      group(education),
      group(employment),
      group(notes),
    ];
    let text = '';
    for (const c of page) {
      const values = custom.get(c.id) ?? {};
      text += csvLine([
        c.externalId ?? c.id,
        c.firstName,
        c.lastName,
        c.contactType,
        c.status,
        ...CONTACT_SCALARS.map((f) => c[f]),
        // The sync's reference tags and notes' reference lines are GiftDesk's own, not the organisation's.
        tagsForPeople(JSON.parse(c.tags) as string[]).join(';'),
        // The API's shapes (row-mappers.ts) without the ids (a note without its date too).
        json((ph.get(c.id) ?? []).map((p) => withoutId(phoneFromRow(p)))),
        json((em.get(c.id) ?? []).map((e) => withoutId(emailFromRow(e)))),
        json((ad.get(c.id) ?? []).map((a) => withoutId(addressFromRow(a)))),
        json((ed.get(c.id) ?? []).map((e) => withoutId(educationFromRow(e)))),
        json((emp.get(c.id) ?? []).map((e) => withoutId(employmentFromRow(e)))),
        json(
          (no.get(c.id) ?? []).map((n) => {
            const { content, noteType } = noteFromRow(n);
            return { content, noteType };
          }),
        ),
        ...fields.map((f) => values[f.name]),
      ]);
    }
    yield { text, rows: page.length };
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

const DONATION_COLUMNS = [
  'externalId',
  'contactExternalId',
  'donationAmount',
  'donationDate',
  'paymentMethod',
  'campaignId',
  'committeeId',
  'donationAccountId',
  'electionType',
  'electionYear',
  'notes',
  'onBehalfOfContactExternalId',
  'facilitatedByContactExternalId',
  'isAnonymous',
  'isRecurring',
  'thankYouSent',
  'thankYouSentDate',
  'status',
];

async function* exportDonations(db: Db, accountId: string): AsyncGenerator<ExportPage> {
  yield { text: csvLine(DONATION_COLUMNS), rows: 0 };
  let after: { donationDate: string; id: string } | null = null;
  for (;;) {
    let q = db
      .selectFrom('donations as d')
      .innerJoin('contacts as c', 'c.id', 'd.contactId')
      .leftJoin('contacts as b', 'b.id', 'd.onBehalfOfContactId')
      .leftJoin('contacts as f', 'f.id', 'd.facilitatedByContactId')
      .selectAll('d')
      .select([
        'c.externalId as contactRef',
        'b.externalId as onBehalfOfRef',
        'f.externalId as facilitatedByRef',
      ])
      .where('d.accountId', '=', accountId);
    if (after) {
      const a: { donationDate: string; id: string } = after;
      q = q.where((eb) => eb(eb.refTuple('d.donationDate', 'd.id'), '>', eb.tuple(a.donationDate, a.id)));
    }
    const page = await q.orderBy('d.donationDate').orderBy('d.id').limit(PAGE).execute();
    if (page.length === 0) return;
    let text = '';
    for (const d of page) {
      text += csvLine([
        d.externalId ?? d.id,
        d.contactRef ?? d.contactId,
        dollarsText(Number(d.amountCents)),
        d.donationDate,
        d.paymentMethod,
        d.campaignId,
        d.committeeId,
        d.donationAccountId,
        d.electionType,
        d.electionYear,
        notesForPeople(d.notes),
        d.onBehalfOfContactId === null ? null : (d.onBehalfOfRef ?? d.onBehalfOfContactId),
        d.facilitatedByContactId === null ? null : (d.facilitatedByRef ?? d.facilitatedByContactId),
        bool(d.isAnonymous),
        bool(d.isRecurring),
        bool(d.thankYouSent),
        d.thankYouSentDate,
        d.status,
      ]);
    }
    yield { text, rows: page.length };
    const last = page[page.length - 1]!;
    after = { donationDate: last.donationDate, id: last.id };
  }
}
