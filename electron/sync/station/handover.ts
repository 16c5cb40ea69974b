/**
 * What a station forgets of a hub it leaves (for a replacement hub, or for HQ), and what it
 * sends again: in one transaction, so it is all or nothing.
 *
 * - Every contact and gift typed here is unsent again, with no link to the old hub's ids
 *   (outbox/resend.ts): the new upstream takes each once by this station's `gd:` reference.
 * - The links of campaigns, committees and donation accounts to the old hub's ids go too; the
 *   new hub's feed matches them again (reference-match.ts), or HQ's pull links them by name.
 * - Donors another station typed that gifts typed here name are sent as creates under the
 *   reference they came with (domain/pulled/event-handover.ts).
 *
 * - Every record whose create goes again is marked "may be there" (resend.ts markResent): the
 *   lost hub may have taken it to HQ, and an HQ with only the donor API would create it twice.
 *   The engine looks for each upstream by its reference before it posts anything (reconcile/).
 *
 * Nothing is deleted: the gifts and donors the old hub's feed brought stay (the new hub's copies
 * are known by their references when they come).
 */
import { queuePulledDonorsOfOwnWork } from '../../domain/pulled/index.ts';
import type { Db } from '../../db/store.ts';
import { markAllUnsent, markResent } from '../outbox/resend.ts';

export interface Handover {
  /** Changes typed here that go again. */
  resent: number;
  /** Donors typed elsewhere that gifts here need, queued as creates. */
  donors: number;
}

export async function forgetHub(trx: Db, accountId: string, at: string): Promise<Handover> {
  // When this station first joined the lost hub: what it holds may have gone to HQ since then.
  const joined = await trx
    .selectFrom('syncRemotes')
    .select('createdAt')
    .where('accountId', '=', accountId)
    .where('kind', '=', 'hub')
    .executeTakeFirst();
  const resent = await markAllUnsent(trx, accountId);
  await trx
    .deleteFrom('syncLinks')
    .where('accountId', '=', accountId)
    .where('entityType', 'in', ['campaign', 'committee', 'donationAccount'])
    .execute();
  const donors = await queuePulledDonorsOfOwnWork(trx, accountId, at);
  await markResent(trx, accountId, at, joined?.createdAt ?? null);
  return { resent, donors };
}

/** Changes typed here that the upstream has not confirmed (sent or not). */
export async function unsentChanges(db: Db, accountId: string): Promise<number> {
  const r = await db
    .selectFrom('changeLog')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('accountId', '=', accountId)
    .where('push', '=', 1)
    .where('entityType', 'in', ['contact', 'donation'])
    .where('syncedAt', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
