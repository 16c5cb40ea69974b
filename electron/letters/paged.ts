/**
 * A choice's letters read page by page, for runs and previews of any size: the counts by one
 * SQL aggregate, a run's gifts and donors recorded a page at a time, its letter order read a
 * page at a time (`donorOrderPages`, from the donors it recorded), and its documents built a
 * page of donors at a time from exactly the gifts it recorded. Nothing a run holds grows with
 * its size: a page of the order, a page of donors, their gifts and their letters are held only
 * while that page is merged and drawn.
 */
import type { LetterChoice } from '#shared/schemas/letters.ts';
import { setImmediate as turn } from 'node:timers/promises';
import type { Db } from '../db/store.ts';
import type { DomainContext } from '../domain/index.ts';
import { mergeLetter } from './merge.ts';
import type { LetterPage } from './render/pages.ts';
import { letterRunLimits } from './run-queue.ts';
import {
  BY_NAME,
  GIFT_COLUMNS,
  type LetterDocument,
  type LetterDonor,
  type LetterGift,
  PAGE,
  type Range,
  byDateThenId,
  chosenGifts,
  donors,
  fullName,
  giftOf,
  giftPage,
} from './select.ts';
import type { mergeContext } from './settings.ts';

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

/**
 * Records the chosen gifts as the run's (letter_run_gifts), and their donors once each with the
 * name the run orders them by (letter_run_donors), a page to a transaction, reading on in the
 * (account, date, id) index's order; answers what it recorded (the donors counted by the
 * database, not held here).
 */
export async function recordRunGifts(
  ctx: DomainContext,
  accountId: string,
  runId: string,
  choice: LetterChoice,
  range: Range,
): Promise<ChoiceCounts> {
  let gifts = 0;
  let totalCents = 0;
  let after: { date: string; id: string } | null = null;
  for (;;) {
    const page = await giftPage(ctx.store.db, accountId, choice, range, after, IN_CHUNK);
    if (page.length > 0) {
      const rows = page.map((g) => ({ runId, donationId: g.id, contactId: g.contactId }));
      const named = await namesOf(ctx.store.db, accountId, [...new Set(page.map((g) => g.contactId))]);
      const people = [...named].map(([contactId, name]) => ({ runId, contactId, name }));
      await ctx.store.write(async (trx) => {
        await trx.insertInto('letterRunGifts').values(rows).execute();
        await trx
          .insertInto('letterRunDonors')
          .values(people)
          .onConflict((oc) => oc.columns(['runId', 'contactId']).doNothing())
          .execute();
      });
    }
    for (const g of page) {
      gifts += 1;
      totalCents += g.amountCents;
    }
    if (page.length < IN_CHUNK) break;
    const last = page[page.length - 1]!;
    after = { date: last.date, id: last.id };
    await turn();
  }
  const donors = await ctx.store.db
    .selectFrom('letterRunDonors')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('runId', '=', runId)
    .executeTakeFirst();
  return { documents: Number(donors?.n ?? 0), gifts, totalCents };
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

/** The full names of `ids` (at most a few hundred), by id; a contact not found has the name ''. */
async function namesOf(db: Db, accountId: string, ids: string[]): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('contacts')
    .select(NAME_COLUMNS)
    .where('accountId', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  const named = new Map(rows.map((r) => [r.id, fullName(r)]));
  return new Map(ids.map((id) => [id, named.get(id) ?? '']));
}

/** Donors a pass over a run's donors reads at a time (by contact id). */
const ORDER_READ = 1000;

/**
 * A run's donors in letter order (by name, then id), `letterRunLimits.orderPage` at a time:
 * each page is one pass over the run's recorded donors (letter_run_donors, read ORDER_READ at
 * a time by id) keeping the least `size` after the last page's last donor, so what is held is
 * at most twice a page however many donors the run has. The names are those the run recorded,
 * so every pass sees the same order.
 */
export async function* donorOrderPages(
  db: Db,
  runId: string,
  size = letterRunLimits.orderPage,
): AsyncGenerator<string[]> {
  const keep = Math.max(1, Math.floor(size));
  let from: { id: string; name: string } | null = null;
  for (;;) {
    let kept: { id: string; name: string }[] = [];
    /** The greatest donor a full page may hold, once one is full. */
    let bound: { id: string; name: string } | null = null;
    let after = '';
    for (;;) {
      const rows = await db
        .selectFrom('letterRunDonors')
        .select(['contactId as id', 'name'])
        .where('runId', '=', runId)
        .where('contactId', '>', after)
        .orderBy('contactId')
        .limit(ORDER_READ)
        .execute();
      for (const r of rows) {
        if (from !== null && byName(r, from) <= 0) continue;
        if (bound !== null && byName(r, bound) >= 0) continue;
        kept.push(r);
        if (kept.length >= 2 * keep) {
          kept.sort(byName);
          kept = kept.slice(0, keep);
          bound = kept[keep - 1]!;
        }
      }
      if (rows.length < ORDER_READ) break;
      after = rows[rows.length - 1]!.id;
      await turn();
    }
    kept.sort(byName);
    if (kept.length > keep) kept = kept.slice(0, keep);
    if (kept.length === 0) return;
    yield kept.map((k) => k.id);
    if (kept.length < keep) return;
    from = kept[keep - 1]!;
  }
}

/** The pages of `order` cut into pages of DONOR_PAGE donors. */
async function* donorPages(order: AsyncIterable<string[]>): AsyncGenerator<string[]> {
  for await (const page of order)
    for (let i = 0; i < page.length; i += DONOR_PAGE) yield page.slice(i, i + DONOR_PAGE);
}

const nobody = (id: string): LetterDonor => ({ id, name: '', salutation: 'Friend', addressLines: [] });

function documentOf(donor: LetterDonor, gifts: LetterGift[]): LetterDocument {
  gifts.sort(byDateThenId);
  return { donor, gifts, totalCents: gifts.reduce((s, g) => s + g.amountCents, 0) };
}

/**
 * A run's documents, DONOR_PAGE donors at a time in `order` (pages of donor ids in letter
 * order, as donorOrderPages gives them): each page reads its donors,
 * their addresses and exactly the gifts the run recorded for them (through the donations'
 * (contact, date) index, each checked against the run's record).
 */
export async function* runDocumentPages(
  db: Db,
  accountId: string,
  runId: string,
  order: AsyncIterable<string[]>,
): AsyncGenerator<LetterDocument[]> {
  for await (const ids of donorPages(order)) {
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

/** What a run's letters are merged with: the kind's wording and the fields' context (settings.ts: mergeContext). */
export type Merging = Awaited<ReturnType<typeof mergeContext>>;

/**
 * A run's letters, merged with the account's wording a page of donors at a time, in chunks of
 * a few milliseconds' work: the event loop gets a turn between chunks, and the renderer draws
 * one chunk while the next is merged (asking for the next only when it has room). On a worker
 * thread of its own (pages-thread.ts) when the store allows one.
 */
export async function* letterPageChunks(
  db: Db,
  accountId: string,
  runId: string,
  { template, merge }: Merging,
  order: AsyncIterable<string[]>,
): AsyncGenerator<LetterPage[]> {
  let chunk: LetterPage[] = [];
  let since = performance.now();
  let i = 0;
  for await (const docs of runDocumentPages(db, accountId, runId, order)) {
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
