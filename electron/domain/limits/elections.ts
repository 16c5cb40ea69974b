/**
 * Which election a gift counts toward (D5), and the windows contribution limits are
 * measured over (D6). Pure functions, plus the account's election calendar.
 */
import { ELECTION_TYPES, type ElectionType, type LimitKind } from '#shared/enums.ts';
import { newId } from '#shared/ids.ts';
import { reusable } from '../../db/bulk.ts';
import type { Db } from '../../db/store.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidField } from '../errors.ts';

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
  return cycleOfYear(Number(day.slice(0, 4)));
}

/** The two-year cycle of a year (the one formula: a cycle ends in an even year). */
export function cycleOfYear(year: number): { start: number; end: number } {
  const end = year % 2 === 0 ? year : year + 1;
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
      return {
        kind,
        key: `${c.start}-${c.end}`,
        from: `${c.start}-01-01T00:00:00.000Z`,
        to: `${c.end}-12-31T23:59:59.999Z`,
      };
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
  explicit: ExplicitElection,
): Promise<Election> {
  const sent = explicitElection(explicit);
  if (sent) return sent;
  const day = donationDate.slice(0, 10);
  const r = (await accountElections(db, [accountId, day])).rows[0] as
    | {
        defaultElectionType: ElectionType | null;
        defaultElectionYear: number | null;
        nextElection: string | null;
      }
    | undefined;
  return chooseElectionFrom(day, r?.defaultElectionType, r?.defaultElectionYear, r?.nextElection);
}

/**
 * chooseElection from what the account's row and calendar read: its default type and year
 * (either missing: no default), and its next election as `type:year` (null: none).
 */
export function chooseElectionFrom(
  day: string,
  defaultType: ElectionType | null | undefined,
  defaultYear: number | null | undefined,
  next: string | null | undefined,
): Election {
  const account =
    defaultType && defaultYear ? { electionType: defaultType, electionYear: defaultYear } : null;
  const [type, year] = next ? next.split(':') : [];
  return chooseElection(
    day,
    account,
    type ? { electionType: type as ElectionType, electionYear: Number(year) } : null,
  );
}

/** One query (compiled once: the request path): the account's default election, and the next one on its calendar. */
const accountElections = reusable((db, p) =>
  db
    .selectFrom('accounts as a')
    .select((eb) => [
      'a.defaultElectionType',
      'a.defaultElectionYear',
      eb
        .selectFrom('elections as e')
        // the ':' is cast: PostgreSQL cannot type a bare parameter passed to concat(variadic "any")
        .select((inner) =>
          inner
            .fn<string>('concat', ['e.electionType', inner.cast(inner.val(':'), 'text'), 'e.electionYear'])
            .as('x'),
        )
        .whereRef('e.accountId', '=', 'a.id')
        .where('e.electionDate', '>=', p<string>(1))
        .orderBy('e.electionDate')
        .orderBy('e.electionType')
        .limit(1)
        .as('nextElection'),
    ])
    .where('a.id', '=', p<string>(0)),
);

export interface ExplicitElection {
  electionType?: ElectionType | null;
  electionYear?: number | null;
}

/** D5's first rule: type and year are sent together. The pair, or null when neither was sent. */
export function explicitElection(explicit: ExplicitElection): Election | null {
  const hasType = explicit.electionType !== undefined && explicit.electionType !== null;
  const hasYear = explicit.electionYear !== undefined && explicit.electionYear !== null;
  if (hasType && hasYear)
    return {
      electionType: explicit.electionType as ElectionType,
      electionYear: explicit.electionYear as number,
    };
  if (hasType)
    throw invalidField('electionYear', 'is required when electionType is sent (D5: they are sent together)');
  if (hasYear)
    throw invalidField('electionType', 'is required when electionYear is sent (D5: they are sent together)');
  return null;
}

/** D5 without an explicit election: the account's default, else the next on its calendar, else the next federal general. */
export function chooseElection(
  day: string,
  accountDefault: Election | null,
  nextOnCalendar: Election | null,
): Election {
  return accountDefault ?? nextOnCalendar ?? nextFederalGeneral(day);
}

/** An account's election calendar as bulk paths hold it: the default, and elections by date then type. */
export interface ElectionCalendar {
  accountDefault: Election | null;
  elections: ReadonlyArray<Election & { electionDate: string }>;
}

export async function loadElectionCalendar(db: Db, accountId: string): Promise<ElectionCalendar> {
  const a = await db
    .selectFrom('accounts')
    .select(['defaultElectionType', 'defaultElectionYear'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  const rows = await db
    .selectFrom('elections')
    .select(['electionType', 'electionYear', 'electionDate'])
    .where('accountId', '=', accountId)
    .orderBy('electionDate')
    .orderBy('electionType')
    .execute();
  return {
    accountDefault:
      a?.defaultElectionType && a.defaultElectionYear
        ? { electionType: a.defaultElectionType, electionYear: a.defaultElectionYear }
        : null,
    elections: rows.map((e) => ({
      electionType: e.electionType,
      electionYear: e.electionYear,
      electionDate: e.electionDate,
    })),
  };
}

/** resolveElection over a calendar already loaded: the same rule, no query. */
export function electionFromCalendar(
  calendar: ElectionCalendar,
  donationDate: string,
  explicit: ExplicitElection,
): Election {
  const sent = explicitElection(explicit);
  if (sent) return sent;
  const day = donationDate.slice(0, 10);
  if (calendar.accountDefault) return calendar.accountDefault;
  // the first election on or after the day (the list is ordered by date, then type)
  let lo = 0;
  let hi = calendar.elections.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (calendar.elections[mid]!.electionDate < day) lo = mid + 1;
    else hi = mid;
  }
  const next = calendar.elections[lo];
  return chooseElection(
    day,
    null,
    next ? { electionType: next.electionType, electionYear: next.electionYear } : null,
  );
}

/* ---------------- the account's election calendar ---------------- */

export async function listElections(ctx: DomainContext, accountId: string) {
  const account = await ctx.store.db
    .selectFrom('accounts')
    .select(['defaultElectionType', 'defaultElectionYear'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  const rows = await ctx.store.db
    .selectFrom('elections')
    .selectAll()
    .where('accountId', '=', accountId)
    .orderBy('electionDate')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    electionType: r.electionType,
    electionYear: r.electionYear,
    electionDate: r.electionDate,
    isDefault:
      account?.defaultElectionType === r.electionType && account.defaultElectionYear === r.electionYear,
  }));
}

export async function createElection(
  ctx: DomainContext,
  input: {
    accountId: string;
    electionType: ElectionType;
    electionYear: number;
    electionDate: string;
    isDefault?: boolean;
  },
) {
  if (!(ELECTION_TYPES as readonly string[]).includes(input.electionType))
    throw invalidField('electionType', `must be one of: ${ELECTION_TYPES.join(', ')}`);
  if (input.electionDate.slice(0, 4) !== String(input.electionYear))
    throw invalidField('electionDate', 'must fall in electionYear');
  const id = newId('election');
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    const clash = await trx
      .selectFrom('elections')
      .select('id')
      .where('accountId', '=', input.accountId)
      .where('electionType', '=', input.electionType)
      .where('electionYear', '=', input.electionYear)
      .executeTakeFirst();
    if (clash)
      throw new DomainError(
        'conflict',
        'election_exists',
        `The ${input.electionType} election of ${input.electionYear} is already on the calendar`,
        [{ field: 'electionType', issue: 'already exists for that year' }],
      );
    await trx
      .insertInto('elections')
      .values({
        id,
        accountId: input.accountId,
        electionType: input.electionType,
        electionYear: input.electionYear,
        electionDate: input.electionDate,
        createdAt: at,
      })
      .execute();
    if (input.isDefault)
      await trx
        .updateTable('accounts')
        .set({ defaultElectionType: input.electionType, defaultElectionYear: input.electionYear })
        .where('id', '=', input.accountId)
        .execute();
  });
  return (await listElections(ctx, input.accountId)).find((e) => e.id === id)!;
}

/** Sets (or with null, clears) the account's default election. */
export async function setDefaultElection(ctx: DomainContext, accountId: string, election: Election | null) {
  await ctx.store.write((trx) =>
    trx
      .updateTable('accounts')
      .set({
        defaultElectionType: election?.electionType ?? null,
        defaultElectionYear: election?.electionYear ?? null,
      })
      .where('id', '=', accountId)
      .execute(),
  );
  return { accountId, defaultElection: election };
}
