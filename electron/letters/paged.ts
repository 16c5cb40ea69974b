/**
 * A choice's letters read page by page, for runs and previews of any size: the counts by one
 * SQL aggregate, a run's gifts recorded a page at a time, and its documents built a page of
 * donors at a time from exactly the gifts it recorded. What a run holds whole is the order of
 * its donors (an id and a name each, about a hundred bytes a donor); a page of donors, their
 * gifts and their letters are held only while that page is merged and drawn.
 */
import type { LetterChoice } from '#shared/schemas/letters.ts';
import { setImmediate as turn } from 'node:timers/promises';
import type { Db } from '../db/store.ts';
import type { DomainContext } from '../domain/index.ts';
import { mergeLetter } from './merge.ts';
import type { LetterPage } from './render/pages.ts';
import {
  BY_NAME,
  GIFT_COLUMNS,
  type LetterDocument,
  type LetterDonor,
  type LetterGift,
  type LetterSet,
  PAGE,
  type Range,
  byDateThenId,
  chosenGifts,
  donors,
  fullName,
  giftOf,
  giftPage,
} from './select.ts';
import { mergeContext } from './settings.ts';

/** Donors a page of a run's letters covers (their contacts, addresses and gifts read at once). */
export const DONOR_PAGE = 200;
const IN_CHUNK = 500;

export interface ChoiceCounts {
  /** Documents: one per donor. */
  documents: number;
  gifts: number;
  totalCents: number;
}

/** How many documents, gifts and cents a choice covers: one aggregate, no rows read out. */
export async function countChoice(
  db: Db,
  accountId: string,
  choice: LetterChoice,
  range: Range,
): Promise<ChoiceCounts> {
  const row = await chosenGifts(db, accountId, choice, range)
    .select((eb) => [
      eb.fn.countAll().as('gifts'),
      eb.fn.count('d.contactId').distinct().as('donors'),
      eb.fn.sum('d.amountCents').as('cents'),
    ])
    .executeTakeFirst();
  return {
    documents: Number(row?.donors ?? 0),
    gifts: Number(row?.gifts ?? 0),
    totalCents: Number(row?.cents ?? 0),
  };
}

export interface RecordedGifts extends ChoiceCounts {
  /** The donors of the recorded gifts, once each. */
  donorIds: Set<string>;
}

/**
 * Records the chosen gifts as the run's (letter_run_gifts), a page to a transaction, reading
 * on in the (account, date, id) index's order; answers what it recorded.
 */
export async function recordRunGifts(
  ctx: DomainContext,
  accountId: string,
  runId: string,
  choice: LetterChoice,
  range: Range,
): Promise<RecordedGifts> {
  const donorIds = new Set<string>();
  let gifts = 0;
  let totalCents = 0;
  let after: { date: string; id: string } | null = null;
  for (;;) {
    const page = await giftPage(ctx.store.db, accountId, choice, range, after, IN_CHUNK);
    if (page.length > 0) {
      const rows = page.map((g) => ({ runId, donationId: g.id, contactId: g.contactId }));
      await ctx.store.write((trx) => trx.insertInto('letterRunGifts').values(rows).execute());
    }
    for (const g of page) {
      donorIds.add(g.contactId);
      gifts += 1;
      totalCents += g.amountCents;
    }
    if (page.length < IN_CHUNK) break;
    const last = page[page.length - 1]!;
    after = { date: last.date, id: last.id };
    await turn();
  }
  return { donorIds, documents: donorIds.size, gifts, totalCents };
}

const NAME_COLUMNS = [
  'id',
  'contactType',
  'firstName',
  'middleName',
  'lastName',
  'suffix',
  'organization',
] as const;

const byName = (a: { id: string; name: string }, b: { id: string; name: string }) =>
  BY_NAME.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The donors in letter order (by name, then id): their names read 500 at a time. */
export async function donorOrder(db: Db, accountId: string, ids: Iterable<string>): Promise<string[]> {
  const all = [...ids];
  const keys: { id: string; name: string }[] = [];
  for (let i = 0; i < all.length; i += IN_CHUNK) {
    const chunk = all.slice(i, i + IN_CHUNK);
    const rows = await db
      .selectFrom('contacts')
      .select(NAME_COLUMNS)
      .where('accountId', '=', accountId)
      .where('id', 'in', chunk)
      .execute();
    const named = new Map(rows.map((r) => [r.id, fullName(r)]));
    for (const id of chunk) keys.push({ id, name: named.get(id) ?? '' });
    await turn();
  }
  keys.sort(byName);
  return keys.map((k) => k.id);
}

const nobody = (id: string): LetterDonor => ({ id, name: '', salutation: 'Friend', addressLines: [] });

function documentOf(donor: LetterDonor, gifts: LetterGift[]): LetterDocument {
  gifts.sort(byDateThenId);
  return { donor, gifts, totalCents: gifts.reduce((s, g) => s + g.amountCents, 0) };
}

/**
 * A run's documents, DONOR_PAGE donors at a time in `order`: each page reads its donors,
 * their addresses and exactly the gifts the run recorded for them (through the donations'
 * (contact, date) index, each checked against the run's record).
 */
export async function* runDocumentPages(
  db: Db,
  accountId: string,
  runId: string,
  order: string[],
): AsyncGenerator<LetterDocument[]> {
  for (let i = 0; i < order.length; i += DONOR_PAGE) {
    const ids = order.slice(i, i + DONOR_PAGE);
    const people = await donors(db, accountId, ids);
    const rows = await db
      .selectFrom('donations as d')
      .leftJoin('campaigns as c', 'c.id', 'd.campaignId')
      .select(GIFT_COLUMNS)
      .where('d.contactId', 'in', ids)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('letterRunGifts as g')
            .select('g.donationId')
            .where('g.runId', '=', runId)
            .whereRef('g.donationId', '=', 'd.id'),
        ),
      )
      .execute();
    const byDonor = new Map<string, LetterGift[]>(ids.map((id) => [id, []]));
    for (const r of rows) {
      const { contactId, ...gift } = giftOf(r);
      byDonor.get(contactId)?.push(gift);
    }
    yield ids.map((id) => documentOf(people.get(id) ?? nobody(id), byDonor.get(id)!));
  }
}

/**
 * The first donor of a choice in letter order, without reading its gifts: from the gifts
 * themselves when they are few, else from the account's contacts a page at a time (keyset on
 * id), each kept only when the choice has a gift of theirs, the least name kept.
 */
async function firstDonor(
  db: Db,
  accountId: string,
  choice: LetterChoice,
  range: Range,
  counts: ChoiceCounts,
): Promise<string | null> {
  if (choice.contactId) return choice.contactId;
  /** The least donor seen so far (an empty id: none yet). */
  const best = { id: '', name: '' };
  const keep = (rows: (Parameters<typeof fullName>[0] & { id: string })[]) => {
    for (const r of rows) {
      const k = { id: r.id, name: fullName(r) };
      if (best.id === '' || byName(k, best) < 0) Object.assign(best, k);
    }
  };
  if (counts.gifts <= PAGE) {
    const ids = await chosenGifts(db, accountId, choice, range).select('d.contactId').distinct().execute();
    if (ids.length === 0) return null;
    const rows = await db
      .selectFrom('contacts')
      .select(NAME_COLUMNS)
      .where('accountId', '=', accountId)
      .where(
        'id',
        'in',
        ids.map((r) => r.contactId),
      )
      .execute();
    keep(rows);
    return best.id || ids[0]!.contactId;
  }
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('contacts as k')
      .select([
        'k.id',
        'k.contactType',
        'k.firstName',
        'k.middleName',
        'k.lastName',
        'k.suffix',
        'k.organization',
      ])
      .where('k.accountId', '=', accountId)
      .where('k.id', '>', after)
      .where((eb) =>
        eb.exists(
          chosenGifts(db, accountId, choice, range).select('d.id').where('d.contactId', '=', eb.ref('k.id')),
        ),
      )
      .orderBy('k.id')
      .limit(PAGE)
      .execute();
    keep(rows);
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.id;
    await turn();
  }
  return best.id || null;
}

/** The first document of a choice in letter order (a preview's letter): one donor's gifts read. */
export async function firstDocument(
  db: Db,
  accountId: string,
  choice: LetterChoice,
  range: Range,
  counts: ChoiceCounts,
): Promise<LetterDocument | null> {
  const id = await firstDonor(db, accountId, choice, range, counts);
  if (id === null) return null;
  const rows = await chosenGifts(db, accountId, choice, range)
    .select(GIFT_COLUMNS)
    .where('d.contactId', '=', id)
    .orderBy('d.donationDate')
    .orderBy('d.id')
    .execute();
  if (rows.length === 0) return null;
  const people = await donors(db, accountId, [id]);
  return documentOf(
    people.get(id) ?? nobody(id),
    rows.map((r) => {
      const { contactId: _c, ...gift } = giftOf(r);
      return gift;
    }),
  );
}

/** The event loop gets a turn at least this often while letters are merged. */
const MERGE_SLICE_MS = 8;

/**
 * A run's letters, merged with the account's wording a page of donors at a time, in chunks of
 * a few milliseconds' work: the event loop gets a turn between chunks, and the renderer draws
 * one chunk while the next is merged (asking for the next only when it has room).
 */
export async function* letterPageChunks(
  ctx: DomainContext,
  accountId: string,
  runId: string,
  head: Pick<LetterSet, 'kind' | 'choice' | 'period'>,
  order: string[],
): AsyncGenerator<LetterPage[]> {
  const { template, merge } = await mergeContext(ctx, accountId, head);
  let chunk: LetterPage[] = [];
  let since = performance.now();
  let i = 0;
  for await (const docs of runDocumentPages(ctx.store.db, accountId, runId, order)) {
    for (const doc of docs) {
      chunk.push(mergeLetter(template, doc, merge, i++));
      if (performance.now() - since > MERGE_SLICE_MS) {
        yield chunk;
        chunk = [];
        await turn();
        since = performance.now();
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}
