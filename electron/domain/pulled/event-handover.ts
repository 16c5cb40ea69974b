/**
 * A station handing its work to a new upstream (a replacement hub, or HQ) after its hub was
 * lost: the donors its gifts need that it did not create itself. A donor another station (or
 * the old hub) created came down the old hub's feed and was never sent from here (push = 0),
 * so the new upstream cannot be told "this gift is for that donor" by an id it knows. Each such
 * donor that a gift typed here names (as donor, credit to or raised by), or that was edited
 * here, gets a create in the change log (push = 1): the engine sends it under the reference it
 * came with (its origin's `gd:` tag, kept by the feed, else its id here — the id the old hub
 * sent it to HQ under when the old hub typed it), so a hub or HQ that has it answers with it,
 * and one that has not makes it once; the hub's same-donor rule and HQ's email match find it
 * too when it has an email. In the caller's transaction; returns how many were queued.
 */
import type { Db } from '../../db/store.ts';
import { logChange } from '../change-log.ts';

export async function queuePulledDonorsOfOwnWork(trx: Db, accountId: string, at: string): Promise<number> {
  const own = (entityType: 'contact' | 'donation', op?: 'create' | 'update') => {
    let q = trx
      .selectFrom('changeLog')
      .select('entityId')
      .where('accountId', '=', accountId)
      .where('entityType', '=', entityType)
      .where('push', '=', 1);
    if (op) q = q.where('op', '=', op);
    return q;
  };
  const named = await trx
    .selectFrom('donations')
    .select(['contactId', 'onBehalfOfContactId', 'facilitatedByContactId'])
    .where('accountId', '=', accountId)
    .where('id', 'in', own('donation', 'create'))
    .execute();
  const edited = await own('contact', 'update').execute();
  const wanted = new Set<string>();
  for (const g of named)
    for (const id of [g.contactId, g.onBehalfOfContactId, g.facilitatedByContactId]) if (id) wanted.add(id);
  for (const e of edited) wanted.add(e.entityId);
  if (wanted.size === 0) return 0;
  const mine = new Set((await own('contact', 'create').execute()).map((r) => r.entityId));
  let queued = 0;
  const ids = [...wanted].filter((id) => !mine.has(id));
  for (let i = 0; i < ids.length; i += 500) {
    const here = await trx
      .selectFrom('contacts')
      .select('id')
      .where('accountId', '=', accountId)
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const c of here) {
      await logChange(trx, {
        accountId,
        entityType: 'contact',
        entityId: c.id,
        op: 'create',
        push: true,
        at,
      });
      queued++;
    }
  }
  return queued;
}
