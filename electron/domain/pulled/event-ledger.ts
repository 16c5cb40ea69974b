/**
 * Two snapshot kinds of an event hub's ledger, written at a station: the election calendar with
 * the account's default election, and the letter settings with the account's own templates.
 * Each is made exactly the hub's (a station has none of its own while it belongs to an event),
 * so the station's reads — which election a gift counts toward (D5) and so its limit checks,
 * GET /elections, GET /letters/settings, the letters it prints — answer as the hub's do. Written
 * only when something differs. Neither is in the change log: neither is pushed anywhere.
 */
import type { LedgerElections, LedgerLetters } from '#shared/schemas/hub.ts';
import type { Db } from '../../db/store.ts';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Returns whether anything was written. */
export async function applyEventElections(
  trx: Db,
  accountId: string,
  snap: LedgerElections,
): Promise<boolean> {
  let wrote = false;
  const here = await trx
    .selectFrom('elections')
    .select(['id', 'electionType', 'electionYear', 'electionDate', 'createdAt'])
    .where('accountId', '=', accountId)
    .orderBy('electionDate')
    .orderBy('electionType')
    .orderBy('id')
    .execute();
  const mine = here.map((e) => ({ ...e, electionYear: Number(e.electionYear) }));
  if (!same(mine, snap.elections)) {
    await trx.deleteFrom('elections').where('accountId', '=', accountId).execute();
    if (snap.elections.length > 0)
      await trx
        .insertInto('elections')
        .values(snap.elections.map((e) => ({ ...e, accountId })))
        .execute();
    wrote = true;
  }
  const account = await trx
    .selectFrom('accounts')
    .select(['defaultElectionType', 'defaultElectionYear'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  const type = snap.defaultElection?.electionType ?? null;
  const year = snap.defaultElection?.electionYear ?? null;
  if (
    account &&
    (account.defaultElectionType !== type ||
      (account.defaultElectionYear === null ? null : Number(account.defaultElectionYear)) !== year)
  ) {
    await trx
      .updateTable('accounts')
      .set({ defaultElectionType: type, defaultElectionYear: year })
      .where('id', '=', accountId)
      .execute();
    wrote = true;
  }
  return wrote;
}

/** Returns whether anything was written. */
export async function applyEventLetters(trx: Db, accountId: string, snap: LedgerLetters): Promise<boolean> {
  let wrote = false;
  const settings = await trx
    .selectFrom('letterSettings')
    .select(['orgKind', 'organizationName', 'organizationAddress', 'signerName', 'signerTitle', 'updatedAt'])
    .where('accountId', '=', accountId)
    .executeTakeFirst();
  if (!same(settings ?? null, snap.settings)) {
    await trx.deleteFrom('letterSettings').where('accountId', '=', accountId).execute();
    if (snap.settings)
      await trx
        .insertInto('letterSettings')
        .values({ accountId, ...snap.settings })
        .execute();
    wrote = true;
  }
  const templates = await trx
    .selectFrom('letterTemplates')
    .select(['kind', 'heading', 'body', 'updatedAt'])
    .where('accountId', '=', accountId)
    .orderBy('kind')
    .execute();
  if (!same(templates, snap.templates)) {
    await trx.deleteFrom('letterTemplates').where('accountId', '=', accountId).execute();
    if (snap.templates.length > 0)
      await trx
        .insertInto('letterTemplates')
        .values(snap.templates.map((t) => ({ accountId, ...t })))
        .execute();
    wrote = true;
  }
  return wrote;
}
