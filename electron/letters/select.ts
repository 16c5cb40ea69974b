/**
 * Which gifts a letter run covers, grouped into documents: one per donor (thank-you letters,
 * year-end statements), or one for the single gift of a receipt. Completed gifts only;
 * anonymous gifts too (anonymity is about being named in public, not about the donor's own
 * letter). Amounts stay integer cents. The gifts are read in pages in the order of the
 * (account, date, id) index, with a turn for the event loop between pages, so a run of
 * thousands never holds the database or the loop long.
 */
import { toIsoInstant, toRangeEnd } from '#shared/dates.ts';
import type { PaymentMethod } from '#shared/enums.ts';
import type { LetterChoice, LetterKind } from '#shared/schemas/letters.ts';
import { setImmediate as turn } from 'node:timers/promises';
import type { Db } from '../db/store.ts';
import { DomainError, invalidField, notFound } from '../domain/index.ts';

export interface LetterGift {
  id: string;
  /** The stored instant (YYYY-MM-DDTHH:MM:SS.mmmZ). */
  date: string;
  amountCents: number;
  paymentMethod: PaymentMethod;
  campaignName: string | null;
  isAnonymous: boolean;
}

export interface LetterDonor {
  id: string;
  name: string;
  /** How the letter greets them (without "Dear"). */
  salutation: string;
  addressLines: string[];
}

export interface LetterDocument {
  donor: LetterDonor;
  /** Sorted by date, then id. */
  gifts: LetterGift[];
  totalCents: number;
}

export interface LetterSet {
  kind: LetterKind;
  /** The choice as run: a year-end's year filled in. */
  choice: LetterChoice;
  /** The period covered, as dates (YYYY-MM-DD) when the choice set them. */
  period: { from: string | null; to: string | null; year: number | null };
  /** Donors by name; a receipt's one document. */
  documents: LetterDocument[];
  gifts: number;
  totalCents: number;
}

export const PAGE = 1000;
/** One collator for the sort (localeCompare with a locale builds one per comparison). */
export const BY_NAME = new Intl.Collator('en');
const IN_CHUNK = 500;

export interface Range {
  from: string | null;
  to: string | null;
}

function refuse(choice: LetterChoice, fields: (keyof LetterChoice)[], why: string): void {
  for (const f of fields) {
    const v = choice[f];
    if (v !== undefined && v !== false) throw invalidField(f, why);
  }
}

/** Checks the choice for its kind and returns the date range it covers. */
export function rangeOf(choice: LetterChoice, now: string): { range: Range; year: number | null } {
  if (choice.kind === 'receipt') {
    if (!choice.donationId) throw invalidField('donationId', 'is required for a receipt');
    refuse(choice, ['from', 'to', 'campaignId', 'batchId', 'year', 'notThanked'], 'is not used by a receipt');
    return { range: { from: null, to: null }, year: null };
  }
  if (choice.kind === 'year-end') {
    refuse(
      choice,
      ['from', 'to', 'campaignId', 'batchId', 'notThanked', 'donationId'],
      'is not used by a year-end statement',
    );
    const year = choice.year ?? Number(now.slice(0, 4)) - 1;
    return { range: { from: `${year}-01-01T00:00:00.000Z`, to: toRangeEnd(`${year}-12-31`) }, year };
  }
  refuse(choice, ['year'], 'is used by a year-end statement only (use from and to)');
  const from = choice.from !== undefined ? toIsoInstant(choice.from) : null;
  const to = choice.to !== undefined ? toRangeEnd(choice.to) : null;
  if (from && to && from > to) throw invalidField('to', 'must not be before from');
  return { range: { from, to }, year: null };
}

export async function checkReferences(db: Db, accountId: string, choice: LetterChoice): Promise<void> {
  const exists = async (table: 'campaigns' | 'batches' | 'contacts' | 'donations', id: string) =>
    (await db
      .selectFrom(table)
      .select('id')
      .where('accountId', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst()) !== undefined;
  if (choice.campaignId && !(await exists('campaigns', choice.campaignId)))
    throw notFound('campaign', 'campaignId', choice.campaignId);
  if (choice.batchId && !(await exists('batches', choice.batchId)))
    throw notFound('batch', 'batchId', choice.batchId);
  if (choice.contactId && !(await exists('contacts', choice.contactId)))
    throw notFound('contact', 'contactId', choice.contactId);
  if (choice.donationId) {
    const gift = await db
      .selectFrom('donations')
      .select('status')
      .where('accountId', '=', accountId)
      .where('id', '=', choice.donationId)
      .executeTakeFirst();
    if (!gift) throw notFound('donation', 'donationId', choice.donationId);
    if (gift.status !== 'completed')
      throw new DomainError(
        'conflict',
        'gift_not_completed',
        `The gift is ${gift.status}: letters cover completed gifts only`,
        [{ field: 'donationId', issue: `is ${gift.status}, not completed` }],
      );
  }
}

export interface GiftRow extends LetterGift {
  contactId: string;
}

/** The chosen gifts of a choice (alias `d`, campaign `c`), filtered, not yet ordered or selected. */
export function chosenGifts(db: Db, accountId: string, choice: LetterChoice, range: Range) {
  let q = db
    .selectFrom('donations as d')
    .leftJoin('campaigns as c', 'c.id', 'd.campaignId')
    .where('d.accountId', '=', accountId)
    .where('d.status', '=', 'completed');
  if (range.from !== null) q = q.where('d.donationDate', '>=', range.from);
  if (range.to !== null) q = q.where('d.donationDate', '<=', range.to);
  if (choice.campaignId) q = q.where('d.campaignId', '=', choice.campaignId);
  if (choice.batchId) q = q.where('d.batchId', '=', choice.batchId);
  if (choice.contactId) q = q.where('d.contactId', '=', choice.contactId);
  if (choice.donationId) q = q.where('d.id', '=', choice.donationId);
  if (choice.notThanked) q = q.where('d.thankYouSent', '=', 0);
  return q;
}

/** The columns a letter shows of a gift, from `chosenGifts` or a join naming the same aliases. */
export const GIFT_COLUMNS = [
  'd.id',
  'd.contactId',
  'd.donationDate',
  'd.amountCents',
  'd.paymentMethod',
  'd.isAnonymous',
  'c.name as campaignName',
] as const;

/** A gift row as read with GIFT_COLUMNS. */
export function giftOf(r: {
  id: string;
  contactId: string;
  donationDate: string;
  amountCents: number | string | bigint;
  paymentMethod: PaymentMethod;
  isAnonymous: number | string | boolean;
  campaignName: string | null;
}): GiftRow {
  return {
    id: r.id,
    contactId: r.contactId,
    date: r.donationDate,
    amountCents: Number(r.amountCents),
    paymentMethod: r.paymentMethod,
    campaignName: r.campaignName,
    isAnonymous: Number(r.isAnonymous) === 1,
  };
}

/** One page of the chosen gifts after `after` (by date, then id). */
export async function giftPage(
  db: Db,
  accountId: string,
  choice: LetterChoice,
  range: Range,
  after: { date: string; id: string } | null,
  size = PAGE,
): Promise<GiftRow[]> {
  let q = chosenGifts(db, accountId, choice, range).select(GIFT_COLUMNS);
  if (after !== null)
    q = q.where((eb) =>
      eb.or([
        eb('d.donationDate', '>', after.date),
        eb.and([eb('d.donationDate', '=', after.date), eb('d.id', '>', after.id)]),
      ]),
    );
  // In the order of the (account, date, id) index: each page reads on from the last, no sort.
  const rows = await q.orderBy('d.donationDate').orderBy('d.id').limit(size).execute();
  return rows.map(giftOf);
}

export function fullName(c: {
  contactType: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  suffix: string | null;
  organization: string | null;
}): string {
  if (c.contactType !== 'INDIVIDUAL' && c.organization) return c.organization;
  return [c.firstName, c.middleName, c.lastName, c.suffix].filter((p) => p && p.trim() !== '').join(' ');
}

/** The donors of `ids`, with their primary (else first) address, read in chunks. */
export async function donors(db: Db, accountId: string, ids: string[]): Promise<Map<string, LetterDonor>> {
  const out = new Map<string, LetterDonor>();
  for (let i = 0; i < ids.length; i += IN_CHUNK) {
    const chunk = ids.slice(i, i + IN_CHUNK);
    const contacts = await db
      .selectFrom('contacts')
      .select([
        'id',
        'contactType',
        'firstName',
        'middleName',
        'lastName',
        'suffix',
        'organization',
        'salutation',
      ])
      .where('accountId', '=', accountId)
      .where('id', 'in', chunk)
      .execute();
    const addresses = await db
      .selectFrom('contactAddresses')
      .select([
        'contactId',
        'street1',
        'street2',
        'city',
        'state',
        'postalCode',
        'country',
        'isPrimary',
        'position',
      ])
      .where('contactId', 'in', chunk)
      .orderBy('contactId')
      .orderBy('isPrimary', 'desc')
      .orderBy('position')
      .execute();
    for (const c of contacts) {
      const a = addresses.find((x) => x.contactId === c.id);
      const cityLine = a
        ? [a.city, [a.state, a.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ')
        : '';
      const name = fullName(c);
      const salutation = (c.salutation ?? '')
        .replace(/^dear\s+/i, '')
        .replace(/,\s*$/, '')
        .trim();
      out.set(c.id, {
        id: c.id,
        name,
        salutation:
          salutation || (c.contactType === 'INDIVIDUAL' && c.firstName.trim() ? c.firstName.trim() : name),
        addressLines: a
          ? [a.street1, a.street2, cityLine, a.country].filter((l): l is string => !!l && l.trim() !== '')
          : [],
      });
    }
    await turn();
  }
  return out;
}

export const byDateThenId = (a: LetterGift, b: LetterGift) =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * The documents of a choice for the account. Throws a DomainError naming the field for a
 * choice that does not fit its kind or names a campaign, batch, donor or gift the account
 * does not have.
 */
export async function selectLetters(
  db: Db,
  accountId: string,
  choice: LetterChoice,
  now = new Date().toISOString(),
): Promise<LetterSet> {
  const { range, year } = rangeOf(choice, now);
  await checkReferences(db, accountId, choice);
  const byDonor = new Map<string, LetterGift[]>();
  let after: { date: string; id: string } | null = null;
  for (;;) {
    const page = await giftPage(db, accountId, choice, range, after);
    for (const { contactId, ...gift } of page) {
      const list = byDonor.get(contactId);
      if (list) list.push(gift);
      else byDonor.set(contactId, [gift]);
    }
    if (page.length < PAGE) break;
    const last = page[page.length - 1]!;
    after = { date: last.date, id: last.id };
    await turn();
  }
  const people = await donors(db, accountId, [...byDonor.keys()]);
  const documents: LetterDocument[] = [];
  let gifts = 0;
  let totalCents = 0;
  for (const [contactId, list] of byDonor) {
    const donor = people.get(contactId) ?? {
      id: contactId,
      name: '',
      salutation: 'Friend',
      addressLines: [],
    };
    list.sort(byDateThenId);
    const total = list.reduce((s, g) => s + g.amountCents, 0);
    documents.push({ donor, gifts: list, totalCents: total });
    gifts += list.length;
    totalCents += total;
  }
  documents.sort((a, b) => BY_NAME.compare(a.donor.name, b.donor.name) || (a.donor.id < b.donor.id ? -1 : 1));
  return { ...setHead(choice, year), documents, gifts, totalCents };
}

/** What a set says of itself before its documents: the kind, the choice as run, its period. */
export function setHead(
  choice: LetterChoice,
  year: number | null,
): Pick<LetterSet, 'kind' | 'choice' | 'period'> {
  return {
    kind: choice.kind,
    choice: year !== null ? { ...choice, year } : choice,
    period: {
      from: choice.kind === 'year-end' ? `${year}-01-01` : (choice.from ?? null),
      to: choice.kind === 'year-end' ? `${year}-12-31` : (choice.to ?? null),
      year,
    },
  };
}
