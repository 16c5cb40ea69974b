/**
 * A donor's history: each later change (created, edited, merged) as one row of
 * `contact_history`, written in the transaction of the change, with who made it and each field
 * before and after; read back oldest first for the donor's page.
 */
import { newId } from '#shared/ids.ts';
import type { Db } from '../../db/store.ts';
import type { Actor } from '../context.ts';
import type { ContactHistory } from '#shared/schemas/history.ts';
import type { DomainContext } from '../context.ts';
import { entryOf, stationNames, withBy } from '../who.ts';
import { contactNotFound } from './read.ts';

/** Writes a donor's history entry in the transaction that changed the donor. */
export async function addContactHistory(
  trx: Db,
  e: {
    accountId: string;
    contactId: string;
    action: string;
    note?: string | null;
    detail: Record<string, unknown> | null;
    at: string;
    actor?: Actor | null | undefined;
  },
): Promise<void> {
  const detail = withBy(e.detail, e.actor);
  await trx
    .insertInto('contactHistory')
    .values({
      id: newId('history'),
      accountId: e.accountId,
      contactId: e.contactId,
      action: e.action,
      note: e.note ?? null,
      detail: detail ? JSON.stringify(detail) : null,
      createdAt: e.at,
    })
    .execute();
}

/** A stored value as a history entry shows it: text, a number, a yes/no, or nothing. */
function plain(v: unknown): string | number | boolean | null {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

/**
 * The fields an edit sent, and each scalar one that changed with its value before and after
 * (`tags` as their list; a collection sent — phones, emails… — is named, replaced whole).
 */
export function contactEditDetail(
  before: Record<string, unknown>,
  patch: Record<string, unknown>,
  fields: readonly string[],
): Record<string, unknown> {
  const changes = Object.keys(patch)
    .filter((f) => JSON.stringify(before[f] ?? null) !== JSON.stringify(patch[f] ?? null))
    .map((f) => ({ field: f, before: plain(before[f]), after: plain(patch[f]) }));
  return { fields: [...fields], changes };
}

/** A donor's history, oldest first. 404 for a donor the account does not have. */
export async function contactHistory(
  ctx: DomainContext,
  accountId: string,
  contactId: string,
): Promise<ContactHistory> {
  const db = ctx.store.db;
  const found = await db
    .selectFrom('contacts')
    .select('id')
    .where('id', '=', contactId)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!found) throw contactNotFound(contactId);
  const names = await stationNames(db, accountId);
  const rows = await db
    .selectFrom('contactHistory')
    .selectAll()
    .where('contactId', '=', contactId)
    .where('accountId', '=', accountId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  const data = rows.map((r) => entryOf(r, names));
  // A donor created at an event: the creation HQ recorded when the event's sync key sent it is
  // the event's own `created` entry, carried after it (limits/trail.ts); that one is shown.
  const carriers = new Set(
    data.flatMap((e) =>
      e.action === 'created' && typeof e.detail?.carriedBy === 'string' ? [e.detail.carriedBy] : [],
    ),
  );
  return {
    data: data.filter(
      (e) =>
        !(e.action === 'created' && e.detail?.carriedBy === undefined && carriers.has(e.by?.keyId ?? '')),
    ),
  };
}
