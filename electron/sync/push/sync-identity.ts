/**
 * A record's sync identity: the id its `gd:` reference names (identity.ts), the same at every
 * hop on the way to HQ.
 *
 * Ids are minted where a record is typed. A record that came to this GiftDesk from another one
 * (a station's gift and its donor, pushed to this hub) was created through the API carrying
 * that GiftDesk's reference, and the server keeps it as the record's reference
 * (`donation_sync_references`, `contact_sync_references`: one record per reference and
 * account; a second create carrying it answers with this record). That ORIGIN reference is the
 * record's identity here too: the record is pushed on under it unchanged and looked for by it
 * after an unknown outcome, so the station's own engine, a replacement hub and this one all
 * name it alike, and HQ creates it once. Every other record (typed here, imported, pulled) is
 * known by its own local id, as it always was.
 *
 * The reference the record was created with, not whatever its notes or tags say now: a later
 * correction of the notes or a new set of tags cannot change it, and no two records of an
 * account can have one (two records under one reference would be one record at HQ: a lost gift).
 */
import { referenceFor, referenceTagOwner } from '#shared/sync-reference.ts';
import type { Db } from '../../db/store.ts';
import type { PushEntity } from '../outbox/items.ts';

/** The id a record's reference names: its origin's when it was created with a reference, else its own. */
export async function identityOf(db: Db, entityType: PushEntity, localId: string): Promise<string> {
  const row =
    entityType === 'donation'
      ? await db
          .selectFrom('donationSyncReferences')
          .select('reference')
          .where('donationId', '=', localId)
          .executeTakeFirst()
      : await db
          .selectFrom('contactSyncReferences')
          .select('reference')
          .where('contactId', '=', localId)
          .executeTakeFirst();
  return (row ? referenceTagOwner(row.reference) : null) ?? localId;
}

/** The local contacts of an account whose origin reference names one of `ids` (they came from another GiftDesk). */
export async function contactsByOrigin(db: Db, accountId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('contactSyncReferences')
    .select('contactId')
    .where('accountId', '=', accountId)
    .where('reference', 'in', ids.map(referenceFor))
    .execute();
  return rows.map((r) => r.contactId);
}
