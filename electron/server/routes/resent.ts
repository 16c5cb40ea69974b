/**
 * A create saying `resentSince` (a station posting to its hub a record it sent before to a hub
 * that is lost): the record may be at HQ already, so this server's own sync looks for it at HQ
 * by its reference before it ever posts it (sync's markMayBeUpstream, in the create's own
 * transaction). Nothing for a create without it, or one answered with a record held already.
 */
import type { DomainContext, WriteOptions } from '../../domain/index.ts';
import { markMayBeUpstream } from '../../sync/index.ts';

export function mayBeUpstream(
  ctx: DomainContext,
  entityType: 'contact' | 'donation',
  resentSince: string | undefined,
): Pick<WriteOptions, 'onCreated'> {
  if (resentSince === undefined) return {};
  const since = new Date(resentSince).toISOString();
  return {
    onCreated: async (trx, id) => {
      await markMayBeUpstream(trx, { entityType, entityId: id, since, at: ctx.now() });
    },
  };
}
