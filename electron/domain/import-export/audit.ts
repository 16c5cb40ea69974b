/**
 * The audit export: who did what between two instants, one CSV row per event, oldest first —
 * each gift entered (who entered it, at which station), each later change of a gift (its
 * history: flagged, reviewed, refunded, redesignated, corrected, voided, thanked), each change
 * of a donor (created, edited, merged) and each batch count, with who, the fields, each value
 * before and after, and the reason given. `giftdesk audit export` writes it.
 */
import { AUDIT_COLUMNS, type HistoryEntry, type Who } from '#shared/schemas/history.ts';
import { toIsoInstant } from '#shared/dates.ts';
import type { DomainContext } from '../context.ts';
import { invalidField } from '../errors.ts';
import { entryOf, stationNames, who } from '../who.ts';

type Row = Record<(typeof AUDIT_COLUMNS)[number], string>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The window: `from` inclusive; `to` inclusive, a date-only `to` covering that whole UTC day. */
function windowOf(from: string, to: string): { from: string; before: string } {
  const f = toIsoInstant(from);
  if (f === null) throw invalidField('from', 'must be an ISO 8601 date or date-time');
  const t = toIsoInstant(to);
  if (t === null) throw invalidField('to', 'must be an ISO 8601 date or date-time');
  const before = DATE_ONLY.test(to)
    ? new Date(Date.parse(t) + 86_400_000).toISOString()
    : new Date(Date.parse(t) + 1).toISOString();
  if (before <= f) throw invalidField('to', 'must not be before from');
  return { from: f, before };
}

const changesText = (e: Pick<HistoryEntry, 'changes'>) =>
  e.changes.map((c) => `${c.field}: ${String(c.before ?? '')} → ${String(c.after ?? '')}`).join('; ');

function row(
  at: string,
  record: string,
  recordId: string,
  action: string,
  by: Who | null,
  rest: Partial<Row>,
): Row {
  return {
    at,
    record,
    recordId,
    action,
    who: by?.label ?? 'GiftDesk',
    userId: by?.userId ?? '',
    keyId: by?.keyId ?? '',
    station: by?.stationName ?? by?.stationId ?? '',
    fields: '',
    changes: '',
    reason: '',
    ...rest,
  };
}

function historyRow(record: string, recordId: string, e: HistoryEntry): Row {
  return row(e.at, record, recordId, e.action, e.by, {
    fields: e.fields.join(' '),
    changes: changesText(e),
    reason: e.note ?? '',
  });
}

/** The account's audit rows between `from` and `to`, oldest first, as cells in AUDIT_COLUMNS' order. */
export async function auditRows(
  ctx: DomainContext,
  accountId: string,
  range: { from: string; to: string },
): Promise<string[][]> {
  const { from, before } = windowOf(range.from, range.to);
  const db = ctx.store.db;
  const names = await stationNames(db, accountId);
  const rows: Row[] = [];
  const entered = await db
    .selectFrom('donations')
    .select(['id', 'createdAt', 'stationId', 'enteredByUserId', 'enteredByKeyId', 'enteredByName'])
    .where('accountId', '=', accountId)
    .where('createdAt', '>=', from)
    .where('createdAt', '<', before)
    .execute();
  for (const g of entered) {
    const by = who(
      { userId: g.enteredByUserId, keyId: g.enteredByKeyId, name: g.enteredByName, stationId: g.stationId },
      names,
    );
    rows.push(row(g.createdAt, 'gift', g.id, 'entered', by, {}));
  }
  const gifts = await db
    .selectFrom('donationHistory as h')
    .innerJoin('donations as d', 'd.id', 'h.donationId')
    .selectAll('h')
    .where('d.accountId', '=', accountId)
    .where('h.createdAt', '>=', from)
    .where('h.createdAt', '<', before)
    .execute();
  for (const h of gifts) rows.push(historyRow('gift', h.donationId, entryOf(h, names)));
  const donors = await db
    .selectFrom('contactHistory')
    .selectAll()
    .where('accountId', '=', accountId)
    .where('createdAt', '>=', from)
    .where('createdAt', '<', before)
    .execute();
  for (const h of donors) rows.push(historyRow('donor', h.contactId, entryOf(h, names)));
  const counts = await db
    .selectFrom('batchCounts')
    .selectAll()
    .where('accountId', '=', accountId)
    .where('countedAt', '>=', from)
    .where('countedAt', '<', before)
    .execute();
  for (const c of counts) {
    const by = who({ userId: c.byUserId, keyId: c.byKeyId, name: c.byName, stationId: null }, names);
    rows.push(
      row(c.countedAt, 'batch', c.batchId, 'counted', by, {
        changes: `counted by ${c.countedBy}; difference ${(Number(c.differenceCents) / 100).toFixed(2)}`,
        reason: c.note ?? '',
      }),
    );
  }
  rows.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.recordId < b.recordId ? -1 : 1));
  return rows.map((r) => AUDIT_COLUMNS.map((c) => r[c]));
}
