/**
 * A station's notices: a contact field this station changed (and the hub confirmed) that a
 * later change at another station replaced at the hub. Written by the feed (feed-contacts.ts)
 * in the page's transaction, listed for the app (GET /api/v1/event/notices) with the contact's
 * name, newest first.
 */
import { newId } from '#shared/ids.ts';
import type { Db } from '../../db/store.ts';

/** The words of a field, as the notice says them. */
const FIELD_WORDS: Record<string, string> = {
  firstName: 'first name',
  lastName: 'last name',
  primaryEmail: 'email',
  primaryPhone: 'phone',
  organization: 'organization',
};

export async function addNotice(
  trx: Db,
  n: { accountId: string; contactId: string; field: string; mine: string | null; theirs: string | null },
  at: string,
): Promise<void> {
  await trx
    .insertInto('hubNotices')
    .values({
      id: newId('hubNotice'),
      accountId: n.accountId,
      contactId: n.contactId,
      field: n.field,
      mine: n.mine,
      theirs: n.theirs,
      createdAt: at,
      seenAt: null,
    })
    .execute();
}

export interface NoticeView {
  id: string;
  contactId: string;
  contactName: string;
  field: string;
  mine: string | null;
  theirs: string | null;
  createdAt: string;
  /** The notice in a sentence. */
  message: string;
}

const shown = (v: string | null) => (v === null || v === '' ? '(empty)' : `“${v}”`);

/** The account's notices, newest first (at most `limit`). */
export async function listNotices(db: Db, accountId: string, limit = 100): Promise<NoticeView[]> {
  const rows = await db
    .selectFrom('hubNotices as n')
    .leftJoin('contacts as c', 'c.id', 'n.contactId')
    .select([
      'n.id',
      'n.contactId',
      'n.field',
      'n.mine',
      'n.theirs',
      'n.createdAt',
      'c.firstName',
      'c.lastName',
    ])
    .where('n.accountId', '=', accountId)
    .orderBy('n.createdAt', 'desc')
    .orderBy('n.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => {
    const contactName =
      r.firstName !== null ? `${r.firstName} ${r.lastName ?? ''}`.trim() : '(a deleted contact)';
    const field = FIELD_WORDS[r.field] ?? r.field;
    return {
      id: r.id,
      contactId: r.contactId,
      contactName,
      field: r.field,
      mine: r.mine,
      theirs: r.theirs,
      createdAt: r.createdAt,
      message: `Your change to ${contactName}'s ${field} was replaced by a later change at another station: yours ${shown(r.mine)}, now ${shown(r.theirs)}.`,
    };
  });
}

/** How many notices the account has not had shown (all of them: the app lists them). */
export async function countNotices(db: Db, accountId: string): Promise<number> {
  const r = await db
    .selectFrom('hubNotices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('accountId', '=', accountId)
    .where('seenAt', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
