/**
 * The paired stations: listed with what the hub holds of each and what each last said of
 * itself (its report, with its batch counts), revoked (the station and its key at once), taken
 * back when a removed station pairs again, and a station's report stored.
 */
import { type HubRejoin, type HubStation, ReportedBatchCount } from '#shared/schemas/hub.ts';
import type { Db } from '../db/store.ts';
import { insertApiKey, secretOfKey } from '../domain/accounts/index.ts';
import { type DomainContext, DomainError } from '../domain/index.ts';

/** Gifts the hub holds from each station of the account (any status: they arrived). */
export async function receivedByStation(db: Db, accountId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('donations')
    .select((eb) => ['stationId', eb.fn.countAll<number | string>().as('n')])
    .where('accountId', '=', accountId)
    .where('stationId', 'is not', null)
    .groupBy('stationId')
    .execute();
  return new Map(rows.map((r) => [r.stationId!, Number(r.n)]));
}

/**
 * How long a station has, from the hub's join answer, to confirm that it stored its key
 * (POST /hub/join/confirm, or its first report). One that has not is a join that failed on the
 * station's side: it expires (expireUnconfirmed).
 */
export const STATION_CONFIRM_MS = 10 * 60 * 1000;

/**
 * Ends the account's unconfirmed stations whose time is up, and (`name`) those with the name a
 * new join gives (the same table trying again after its join failed): each key revoked, and the
 * row deleted — it never entered anything — or, should it hold gifts, kept as removed. Run in
 * the join's transaction and at a confirmation.
 */
export async function expireUnconfirmed(
  trx: Db,
  accountId: string,
  at: string,
  name?: string,
): Promise<string[]> {
  const cutoff = new Date(Date.parse(at) - STATION_CONFIRM_MS).toISOString();
  const rows = await trx
    .selectFrom('hubStations')
    .select(['id', 'apiKeyId'])
    .where('accountId', '=', accountId)
    .where('confirmed', '=', 0)
    .where('revokedAt', 'is', null)
    .where((eb) =>
      name === undefined
        ? eb('createdAt', '<=', cutoff)
        : eb.or([eb('createdAt', '<=', cutoff), eb('name', '=', name)]),
    )
    .execute();
  for (const r of rows) {
    await trx
      .updateTable('apiKeys')
      .set({ revokedAt: at })
      .where('id', '=', r.apiKeyId)
      .where('revokedAt', 'is', null)
      .execute();
    const gift = await trx
      .selectFrom('donations')
      .select('id')
      .where('stationId', '=', r.id)
      .limit(1)
      .executeTakeFirst();
    if (gift) {
      await trx.updateTable('hubStations').set({ revokedAt: at }).where('id', '=', r.id).execute();
      continue;
    }
    await trx.updateTable('hubPairingCodes').set({ stationId: null }).where('stationId', '=', r.id).execute();
    await trx.deleteFrom('hubStations').where('id', '=', r.id).execute();
  }
  return rows.map((r) => r.id);
}

/**
 * A station confirms it stored the key the hub's join answer gave it: from now on it is one of
 * the event's stations (listed, counted in the close-out). Confirming again changes nothing.
 * One whose time is up is ended instead and refused (409 `station_join_expired`): its table
 * pairs again with a new code.
 */
export async function confirmStation(
  ctx: DomainContext,
  stationId: string,
): Promise<{ stationId: string; confirmed: true }> {
  const at = ctx.now();
  const expired = await ctx.store.write(async (trx) => {
    const row = await trx
      .selectFrom('hubStations')
      .select(['accountId', 'confirmed', 'createdAt'])
      .where('id', '=', stationId)
      .executeTakeFirst();
    if (!row) throw stationNotFound(stationId);
    if (row.confirmed === 1) return false;
    if (Date.parse(row.createdAt) + STATION_CONFIRM_MS <= Date.parse(at)) {
      await expireUnconfirmed(trx, row.accountId, at);
      return true;
    }
    await trx
      .updateTable('hubStations')
      .set({ confirmed: 1, lastSeenAt: at })
      .where('id', '=', stationId)
      .execute();
    return false;
  });
  if (expired)
    throw new DomainError(
      'conflict',
      'station_join_expired',
      'This station did not confirm its pairing within 10 minutes, so the hub ended it. Ask the person hosting the event for a new code and pair again.',
    );
  return { stationId, confirmed: true };
}

export async function listStations(ctx: DomainContext, accountId: string): Promise<HubStation[]> {
  const [rows, received] = await Promise.all([
    ctx.store.db
      .selectFrom('hubStations')
      .selectAll()
      .where('accountId', '=', accountId)
      .orderBy('createdAt')
      .orderBy('id')
      .execute(),
    receivedByStation(ctx.store.db, accountId),
  ]);
  // A station that has not confirmed its pairing (still joining, or its join failed on its
  // side) is not one of the event's stations yet — unless it sent gifts, which always count.
  const paired = rows.filter((r) => r.confirmed === 1 || (received.get(r.id) ?? 0) > 0);
  return paired.map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: r.createdAt,
    lastSeenAt: r.lastSeenAt,
    revokedAt: r.revokedAt,
    received: received.get(r.id) ?? 0,
    waiting: r.reportedWaiting === null ? null : Number(r.reportedWaiting),
    reportedEntered: r.reportedEntered === null ? null : Number(r.reportedEntered),
    reportedLastSeq: r.reportedLastSeq === null ? null : Number(r.reportedLastSeq),
    reportedAt: r.reportedAt,
  }));
}

function stationNotFound(id: string): DomainError {
  return new DomainError('not_found', 'station_not_found', `There is no station ${id} at this hub`, [
    { field: 'id', issue: 'is not a station of this hub' },
  ]);
}

/**
 * Removes a station from the event: the station and its API key revoked in one transaction,
 * so its next request is refused (401 station_revoked). Revoking again changes nothing.
 * `accountId`: only a station of that account (the API's scope); the CLI names none.
 */
export async function revokeStation(
  ctx: DomainContext,
  id: string,
  accountId?: string,
): Promise<{ id: string; revoked: true; revokedAt: string }> {
  const at = ctx.now();
  const revokedAt = await ctx.store.write(async (trx) => {
    const station = await trx
      .selectFrom('hubStations')
      .select(['apiKeyId', 'revokedAt', 'accountId'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!station || (accountId !== undefined && station.accountId !== accountId)) throw stationNotFound(id);
    await trx
      .updateTable('apiKeys')
      .set({ revokedAt: at })
      .where('id', '=', station.apiKeyId)
      .where('revokedAt', 'is', null)
      .execute();
    if (station.revokedAt !== null) return station.revokedAt;
    await trx.updateTable('hubStations').set({ revokedAt: at }).where('id', '=', id).execute();
    return at;
  });
  return { id, revoked: true, revokedAt };
}

/**
 * A removed station pairing again (pairing.ts, in the join's transaction): the station named,
 * proven by its key at this hub (id and secret), is taken back — its removal cleared, the old
 * key revoked, a new key made. What it said before is forgotten: the close-out waits for its
 * first report with the new key. Its row, name and gifts stay: it is the same station.
 */
export async function reopenStation(
  trx: Db,
  accountId: string,
  proof: HubRejoin,
  at: string,
): Promise<{ id: string; name: string; keyId: string; secret: string }> {
  const row = await trx
    .selectFrom('hubStations')
    .select(['id', 'name', 'apiKeyId'])
    .where('id', '=', proof.stationId)
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  const proven = await secretOfKey(trx, proof.keyId, proof.secret);
  if (!row || row.apiKeyId !== proof.keyId || !proven)
    throw new DomainError(
      'forbidden',
      'station_rejoin_refused',
      'This hub does not know that station by the key it shows, so it cannot take it back: the pairing code was not used. Join from a fresh data folder as a new station, or check that this is the event’s hub.',
      [{ field: 'rejoin', issue: 'is not the key of a station of this event' }],
    );
  await trx
    .updateTable('apiKeys')
    .set({ revokedAt: at })
    .where('id', '=', row.apiKeyId)
    .where('revokedAt', 'is', null)
    .execute();
  const key = await insertApiKey(trx, { accountId, label: `station: ${row.name}`, at });
  await trx
    .updateTable('hubStations')
    .set({
      apiKeyId: key.keyId,
      revokedAt: null,
      lastSeenAt: at,
      reportedEntered: null,
      reportedLastSeq: null,
      reportedWaiting: null,
      reportedAt: null,
    })
    .where('id', '=', row.id)
    .execute();
  return { id: row.id, name: row.name, keyId: key.keyId, secret: key.secret };
}

/** The batch counts each station of the account last reported (a report that carried none: []). */
export async function reportedBatchesOf(
  db: Db,
  accountId: string,
): Promise<Map<string, ReportedBatchCount[]>> {
  const rows = await db
    .selectFrom('hubStations')
    .select(['id', 'reportedBatches'])
    .where('accountId', '=', accountId)
    .execute();
  const out = new Map<string, ReportedBatchCount[]>();
  for (const r of rows) {
    if (r.reportedBatches === null) continue;
    let stored: unknown;
    try {
      stored = JSON.parse(r.reportedBatches);
    } catch {
      continue; // not ours to show
    }
    const parsed = ReportedBatchCount.array().safeParse(stored);
    if (parsed.success) out.set(r.id, parsed.data);
  }
  return out;
}

/**
 * What a station says of itself (its own gifts, its newest change, what it still has waiting,
 * its batch counts). A report without batch counts (an older station) keeps the last ones.
 */
export async function recordReport(
  ctx: DomainContext,
  stationId: string,
  report: { entered: number; lastSeq: number; waiting: number; batches?: ReportedBatchCount[] | undefined },
): Promise<{ stationId: string; received: number; reportedAt: string }> {
  const at = ctx.now();
  const accountId = await ctx.store.write(async (trx) => {
    const row = await trx
      .selectFrom('hubStations')
      .select('accountId')
      .where('id', '=', stationId)
      .executeTakeFirst();
    if (!row) throw stationNotFound(stationId);
    await trx
      .updateTable('hubStations')
      .set({
        reportedEntered: report.entered,
        reportedLastSeq: report.lastSeq,
        reportedWaiting: report.waiting,
        reportedAt: at,
        lastSeenAt: at,
        // A report proves the station kept its key (a station of an earlier version confirms so).
        confirmed: 1,
        ...(report.batches ? { reportedBatches: JSON.stringify(report.batches) } : {}),
      })
      .where('id', '=', stationId)
      .execute();
    return row.accountId;
  });
  const received = (await receivedByStation(ctx.store.db, accountId)).get(stationId) ?? 0;
  return { stationId, received, reportedAt: at };
}

/** The station an API key belongs to (null: not a station's key). */
export async function stationOfKey(
  db: Db,
  keyId: string,
): Promise<{ id: string; accountId: string; name: string; revokedAt: string | null } | null> {
  const row = await db
    .selectFrom('hubStations')
    .select(['id', 'accountId', 'name', 'revokedAt'])
    .where('apiKeyId', '=', keyId)
    .executeTakeFirst();
  return row ?? null;
}

/** Notes when a station was last heard from. */
export async function touchStation(ctx: DomainContext, stationId: string): Promise<void> {
  const at = ctx.now();
  await ctx.store.write((trx) =>
    trx.updateTable('hubStations').set({ lastSeenAt: at }).where('id', '=', stationId).execute(),
  );
}

/** Whether the account is an event's hub: a station has paired with it (revoked ones count too). */
export async function hasStations(db: Db, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('hubStations')
    .select('id')
    .where('accountId', '=', accountId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
