/**
 * What a person changed here that has not gone yet: read by what this end takes from elsewhere
 * (a pull from HQ, a station's feed from its hub), which keeps those fields as typed here.
 */
import type { Db } from '../../db/store.ts';

/**
 * The wire fields of each contact that the user changed here and HQ has not received yet
 * (push = 1, not synced): 'all' for a create, delete or whole-record change.
 */
export async function unpushedContactFields(
  db: Db,
  accountId: string,
  contactIds: readonly string[],
): Promise<Map<string, Set<string> | 'all'>> {
  const out = new Map<string, Set<string> | 'all'>();
  for (let i = 0; i < contactIds.length; i += 200) {
    const part = contactIds.slice(i, i + 200);
    const rows = await db
      .selectFrom('changeLog')
      .select(['entityId', 'op', 'fields'])
      .where('accountId', '=', accountId)
      .where('entityType', '=', 'contact')
      .where('entityId', 'in', part)
      .where('push', '=', 1)
      .where('syncedAt', 'is', null)
      .execute();
    for (const r of rows) {
      const cur = out.get(r.entityId);
      if (cur === 'all') continue;
      if (r.op !== 'update' || r.fields === null) {
        out.set(r.entityId, 'all');
        continue;
      }
      const set = cur ?? new Set<string>();
      for (const f of JSON.parse(r.fields) as string[]) set.add(f);
      out.set(r.entityId, set);
    }
  }
  return out;
}
