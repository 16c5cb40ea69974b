/**
 * The gift wins: a donor the hub deleted while this station still had work of it on the way (a
 * gift typed here, an edit, a sub-record, a gift crediting it) is brought back at the hub, never
 * dropped here. This station still holds the donor's fields, so it sends the donor again as a
 * create under the reference it has always gone under (sync-identity.ts: its own id, or the
 * origin reference of a copy the feed brought); the hub makes the donor again from it, the work
 * waiting here follows under the donor's new hub id, and the feed brings the donor back to
 * every station. What the hub held of the donor when it was deleted (the gifts it had
 * confirmed) went with the donor there, and goes here too: the deletion undid those on purpose.
 *
 * Whoever deleted the donor sees it come back with a note on it, which travels with the donor:
 * "Deleted at the event hub, and brought back by a gift typed at Table A …" (`noteComingBack`).
 *
 * It is decided in two places, whichever comes first: the feed's page that says the hub deleted
 * the donor (feed-contacts.ts), and the hub's 404 to a request naming it (answers.ts). Either
 * runs `bringDonorBack` in its transaction; the second finds the donor unlinked already and
 * does nothing.
 */
import { dropEventGifts } from '../../domain/pulled/index.ts';
import { newId } from '#shared/ids.ts';
import { logChange } from '../../domain/change-log.ts';
import type { Db } from '../../db/store.ts';
import { remoteIdFor, unlinkRemote } from '../outbox/links.ts';

/** Whether anything of a contact still waits here to be pushed (itself, a gift of it or crediting it). */
export async function waitsHere(trx: Db, accountId: string, localId: string): Promise<boolean> {
  const r = await trx
    .selectFrom('changeLog as l')
    .select('l.seq')
    .where('l.accountId', '=', accountId)
    .where('l.push', '=', 1)
    .where('l.syncedAt', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('l.entityType', '=', 'contact'), eb('l.entityId', '=', localId)]),
        eb.and([
          eb('l.entityType', '=', 'donation'),
          eb(
            'l.entityId',
            'in',
            eb
              .selectFrom('donations')
              .select('id')
              .where((d) =>
                d.or([
                  d('contactId', '=', localId),
                  d('onBehalfOfContactId', '=', localId),
                  d('facilitatedByContactId', '=', localId),
                ]),
              ),
          ),
        ]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

/**
 * Brings a donor the hub deleted back (see the top): the gifts of it the hub had confirmed go
 * here as they went there, the donor is unlinked from its deleted hub id and its create is
 * queued (so the engine sends it whole, under its reference, before anything waiting of it),
 * and whatever of it was parked by the hub's refusal goes again. `true` when it did; `false`
 * when the donor is not here or not linked (already on its way back).
 */
export async function bringDonorBack(
  trx: Db,
  accountId: string,
  localId: string,
  at: string,
): Promise<boolean> {
  const here = await trx
    .selectFrom('contacts')
    .select('id')
    .where('id', '=', localId)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!here) return false;
  if ((await remoteIdFor(trx, 'contact', localId)) === null) return false;
  const confirmed = (
    await trx
      .selectFrom('donations as d')
      .innerJoin('syncLinks as l', (j) =>
        j.onRef('l.localId', '=', 'd.id').on('l.entityType', '=', 'donation'),
      )
      .select('d.id')
      .where('d.contactId', '=', localId)
      .where('d.accountId', '=', accountId)
      .execute()
  ).map((r) => r.id);
  if (confirmed.length > 0) {
    // Nothing of these is at the hub any more: what still waited of them (marks) has nowhere to go.
    await trx
      .updateTable('changeLog')
      .set({ syncedAt: at })
      .where('accountId', '=', accountId)
      .where('entityType', '=', 'donation')
      .where('entityId', 'in', confirmed)
      .where('push', '=', 1)
      .where('syncedAt', 'is', null)
      .execute();
    await trx
      .deleteFrom('syncItems')
      .where('entityType', '=', 'donation')
      .where('entityId', 'in', confirmed)
      .execute();
    await trx
      .deleteFrom('syncLinks')
      .where('entityType', '=', 'donation')
      .where('localId', 'in', confirmed)
      .execute();
    await dropEventGifts(trx, accountId, localId, confirmed, at);
  }
  await unlinkRemote(trx, 'contact', localId);
  await noteComingBack(trx, accountId, localId, at);
  await logChange(trx, {
    accountId,
    entityType: 'contact',
    entityId: localId,
    op: 'create',
    fields: null,
    push: true,
    at,
  });
  // What the hub refused for naming the deleted donor goes again, behind the donor's create.
  await trx
    .updateTable('syncItems')
    .set({
      state: 'idle',
      attentionCode: null,
      attentionReason: null,
      attentionStatus: null,
      attentionAt: null,
      failures: 0,
      nextTryAt: null,
      lastError: null,
      updatedAt: at,
    })
    .where('accountId', '=', accountId)
    .where('state', '=', 'attention')
    .where((eb) =>
      eb.or([
        eb.and([eb('entityType', '=', 'contact'), eb('entityId', '=', localId)]),
        eb.and([eb('entityType', '=', 'donation'), eb('laneId', '=', localId)]),
      ]),
    )
    .execute();
  return true;
}

/**
 * The note the donor comes back with (a sub-record of the donor, so the hub and every station
 * show it on the donor's page): who brought it back, and with what.
 */
async function noteComingBack(trx: Db, accountId: string, localId: string, at: string): Promise<void> {
  const remote = await trx
    .selectFrom('syncRemotes')
    .select('stationName')
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  const gift = await trx
    .selectFrom('donations as d')
    .leftJoin('syncLinks as l', (j) => j.onRef('l.localId', '=', 'd.id').on('l.entityType', '=', 'donation'))
    .select('d.id')
    .where('d.accountId', '=', accountId)
    .where('l.remoteId', 'is', null)
    .where((eb) =>
      eb.or([
        eb('d.contactId', '=', localId),
        eb('d.onBehalfOfContactId', '=', localId),
        eb('d.facilitatedByContactId', '=', localId),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  const station = remote?.stationName ?? 'a station';
  const what = gift ? `a gift typed at ${station}` : `an edit made at ${station}`;
  const last = await trx
    .selectFrom('contactNotes')
    .select((eb) => eb.fn.max<number>('position').as('p'))
    .where('contactId', '=', localId)
    .executeTakeFirst();
  await trx
    .insertInto('contactNotes')
    .values({
      id: newId('subRecord'),
      contactId: localId,
      position: last?.p === null || last?.p === undefined ? 0 : Number(last.p) + 1,
      content: `Deleted at the event hub, then brought back by ${what} that had not reached the hub yet (a gift is never lost). To delete this donor after all, first move that gift to the donor it belongs to.`,
      noteType: 'Event hub',
      createdAt: at,
    })
    .execute();
}
