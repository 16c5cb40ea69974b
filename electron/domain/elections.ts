/**
 * Which election a gift counts toward (D5), and the windows contribution limits are
 * measured over (D6). Pure functions, plus the account's election calendar.
 */
import { ELECTION_TYPES, type ElectionType, type LimitKind } from '../../shared/enums.ts';
import { newId } from '../../shared/ids.ts';
import type { Db } from '../db/store.ts';
import type { DomainContext } from './context.ts';
import { DomainError, invalidField } from './errors.ts';

export interface Election {
  electionType: ElectionType;
  electionYear: number;
}

/** The US federal general election of `year`: the Tuesday after the first Monday of November. */
export function federalGeneralElectionDay(year: number): string {
  const nov1 = new Date(Date.UTC(year, 10, 1)).getUTCDay(); // 0 = Sunday
  const firstMonday = 1 + ((8 - nov1) % 7);
  return `${year}-11-${String(firstMonday + 1).padStart(2, '0')}`;
}

/** The next federal general election on or after the given day (YYYY-MM-DD). */
export function nextFederalGeneral(day: string): Election {
  let year = Number(day.slice(0, 4));
  if (year % 2 === 1) year += 1;
  if (day > federalGeneralElectionDay(year)) year += 2;
  return { electionType: 'general', electionYear: year };
}

/** The two-year cycle a day falls in, named by its years: 2025–2026 for any day of either. */
export function cycleOf(day: string): { start: number; end: number } {
  const y = Number(day.slice(0, 4));
  const end = y % 2 === 0 ? y : y + 1;
  return { start: end - 1, end };
}

export interface LimitWindow {
  kind: LimitKind;
  key: string;
  /** inclusive ISO bounds on donation_date, when the window is a date range */
  from?: string;
  to?: string;
  election?: Election;
}

export function limitWindow(kind: LimitKind, donationDate: string, election: Election): LimitWindow {
  const day = donationDate.slice(0, 10);
  switch (kind) {
    case 'per_election':
      return { kind, key: `${election.electionType}-${election.electionYear}`, election };
    case 'per_cycle': {
      const c = cycleOf(day);
      return { kind, key: `${c.start}-${c.end}`, from: `${c.start}-01-01T00:00:00.000Z`, to: `${c.end}-12-31T23:59:59.999Z` };
    }
    case 'per_year': {
      const y = day.slice(0, 4);
      return { kind, key: y, from: `${y}-01-01T00:00:00.000Z`, to: `${y}-12-31T23:59:59.999Z` };
    }
    case 'per_donor':
      return { kind, key: 'lifetime' };
  }
}

/**
 * D5: explicit type and year together; else the account's default election; else the next
 * election on the account's calendar on or after the gift's day; else the next federal general.
 */
export async function resolveElection(
  db: Db,
  accountId: string,
  donationDate: string,
  explicit: { electionType?: ElectionType | null; electionYear?: number | null },
): Promise<Election> {
  const hasType = explicit.electionType !== undefined && explicit.electionType !== null;
  const hasYear = explicit.electionYear !== undefined && explicit.electionYear !== null;
  if (hasType && hasYear) return { electionType: explicit.electionType as ElectionType, electionYear: explicit.electionYear as number };
  if (hasType) throw invalidField('electionYear', 'is required when electionType is sent (D5: they are sent together)');
  if (hasYear) throw invalidField('electionType', 'is required when electionYear is sent (D5: they are sent together)');
  const day = donationDate.slice(0, 10);
  // One query: the account's default election, and the next one on its calendar.
  const r = await db
    .selectFrom('accounts as a')
    .select((eb) => [
      'a.defaultElectionType',
      'a.defaultElectionYear',
      eb
        .selectFrom('elections as e')
        .select((inner) => inner.fn<string>('concat', ['e.electionType', inner.val(':'), 'e.electionYear']).as('x'))
        .whereRef('e.accountId', '=', 'a.id')
        .where('e.electionDate', '>=', day)
        .orderBy('e.electionDate')
        .orderBy('e.electionType')
        .limit(1)
        .as('nextElection'),
    ])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
  if (r?.defaultElectionType && r.defaultElectionYear) {
    return { electionType: r.defaultElectionType as ElectionType, electionYear: r.defaultElectionYear };
  }
  if (r?.nextElection) {
    const [type, year] = r.nextElection.split(':');
    return { electionType: type as ElectionType, electionYear: Number(year) };
  }
  return nextFederalGeneral(day);
}

/* ---------------- the account's election calendar ---------------- */

export async function listElections(ctx: DomainContext, accountId: string) {
  const account = await ctx.store.db.selectFrom('accounts').select(['defaultElectionType', 'defaultElectionYear']).where('id', '=', accountId).executeTakeFirst();
  const rows = await ctx.store.db.selectFrom('elections').selectAll().where('accountId', '=', accountId).orderBy('electionDate').execute();
  return rows.map((r) => ({
    id: r.id,
    electionType: r.electionType as ElectionType,
    electionYear: r.electionYear,
    electionDate: r.electionDate,
    isDefault: account?.defaultElectionType === r.electionType && account.defaultElectionYear === r.electionYear,
  }));
}

export async function createElection(ctx: DomainContext, input: { accountId: string; electionType: ElectionType; electionYear: number; electionDate: string; isDefault?: boolean }) {
  if (!(ELECTION_TYPES as readonly string[]).includes(input.electionType)) throw invalidField('electionType', `must be one of: ${ELECTION_TYPES.join(', ')}`);
  if (input.electionDate.slice(0, 4) !== String(input.electionYear)) throw invalidField('electionDate', 'must fall in electionYear');
  const id = newId('election');
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const clash = await trx.selectFrom('elections').select('id').where('accountId', '=', input.accountId).where('electionType', '=', input.electionType).where('electionYear', '=', input.electionYear).executeTakeFirst();
    if (clash) throw new DomainError('conflict', 'election_exists', `The ${input.electionType} election of ${input.electionYear} is already on the calendar`, [{ field: 'electionType', issue: 'already exists for that year' }]);
    await trx.insertInto('elections').values({ id, accountId: input.accountId, electionType: input.electionType, electionYear: input.electionYear, electionDate: input.electionDate, createdAt: at }).execute();
    if (input.isDefault) await trx.updateTable('accounts').set({ defaultElectionType: input.electionType, defaultElectionYear: input.electionYear }).where('id', '=', input.accountId).execute();
  });
  return (await listElections(ctx, input.accountId)).find((e) => e.id === id)!;
}

/** Sets (or with null, clears) the account's default election. */
export async function setDefaultElection(ctx: DomainContext, accountId: string, election: Election | null) {
  await ctx.store.write((trx) =>
    trx.updateTable('accounts').set({ defaultElectionType: election?.electionType ?? null, defaultElectionYear: election?.electionYear ?? null }).where('id', '=', accountId).execute(),
  );
  return { accountId, defaultElection: election };
}
