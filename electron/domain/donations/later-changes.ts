/**
 * A saved gift's corrections and void, read from its history for the screens that list gifts
 * (a batch shows "Voided at the hub" or "Corrected at the hub: amount $500.00 → $50.00" under
 * the gift). A history entry says where it was made (`hub`: by the event hub, for its person or
 * a station's request), which station asked, and each changed field's value before and after.
 */
import type { DonationChange } from '#shared/schemas/donations.ts';
import type { Db } from '../../db/store.ts';

type Value = DonationChange['changes'][number]['before'];

function valueOf(v: unknown): Value {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

function changeOf(action: string, detail: string | null, at: string): DonationChange | null {
  if (action !== 'corrected' && action !== 'voided') return null;
  let d: Record<string, unknown> = {};
  try {
    d = detail ? (JSON.parse(detail) as Record<string, unknown>) : {};
  } catch {
    d = {};
  }
  const listed = Array.isArray(d.changes) ? (d.changes as unknown[]) : [];
  const changes = listed.flatMap((c) => {
    if (typeof c !== 'object' || c === null) return [];
    const o = c as Record<string, unknown>;
    return typeof o.field === 'string'
      ? [{ field: o.field, before: valueOf(o.before), after: valueOf(o.after) }]
      : [];
  });
  return {
    action,
    at,
    atHub: d.hub === true,
    stationId: typeof d.station === 'string' ? d.station : null,
    changes,
  };
}

/** The corrections and voids of these gifts, oldest first, by gift id. */
export async function laterChangesOf(db: Db, ids: readonly string[]): Promise<Map<string, DonationChange[]>> {
  const out = new Map<string, DonationChange[]>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    if (chunk.length === 0) continue;
    const rows = await db
      .selectFrom('donationHistory')
      .select(['donationId', 'action', 'detail', 'createdAt'])
      .where('donationId', 'in', chunk)
      .where('action', 'in', ['corrected', 'voided'])
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
    for (const r of rows) {
      const c = changeOf(r.action, r.detail, r.createdAt);
      if (!c) continue;
      const list = out.get(r.donationId) ?? [];
      list.push(c);
      out.set(r.donationId, list);
    }
  }
  return out;
}
