/**
 * "Their own": who entered a gift and who started a batch, for the rule that a volunteer sees
 * and changes only their own (electron/server's role gate). A record is someone's own when the
 * person entered it; for a key with no person (a script's volunteer key), when that key did.
 */
import type { Db } from '../../db/store.ts';

/** The person (or, with none, the key) a request acts for. */
export interface Owner {
  userId: string | null;
  keyId: string;
}

/**
 * Whether the account's gift or batch `id` is `owner`'s own; null when the account has no such
 * record (the route then answers its 404).
 */
export async function isOwnRecord(
  db: Db,
  kind: 'gift' | 'batch',
  accountId: string,
  id: string,
  owner: Owner,
): Promise<boolean | null> {
  const row =
    kind === 'gift'
      ? await db
          .selectFrom('donations')
          .select(['enteredByUserId as userId', 'enteredByKeyId as keyId'])
          .where('id', '=', id)
          .where('accountId', '=', accountId)
          .executeTakeFirst()
      : await db
          .selectFrom('batches')
          .select(['createdByUserId as userId', 'createdByKeyId as keyId'])
          .where('id', '=', id)
          .where('accountId', '=', accountId)
          .executeTakeFirst();
  if (!row) return null;
  return owner.userId !== null
    ? row.userId === owner.userId
    : row.userId === null && row.keyId === owner.keyId;
}
