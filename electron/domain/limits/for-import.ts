/**
 * D6 for an import chunk: contribution-limit windows computed for many gifts at once, with
 * the same outcome as posting them one by one in file order (electron/domain/limits/checks.ts).
 */
import type { DonationAccountRow, DonationRow } from '../../db/schema.ts';
import type { Db } from '../../db/store.ts';
import { cycleOfYear } from './elections.ts';
import { accountLimits, flagRows } from './checks.ts';

/** Runs fn over values in slices small enough for one statement's parameters. */
export async function inSlices<T, R>(values: readonly T[], fn: (slice: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < values.length; i += 900) out.push(...(await fn(values.slice(i, i + 900))));
  return out;
}

/**
 * D6 for a chunk, in file order: each gift is checked against its donor's completed total in
 * each limit window — everything already saved plus the gifts before it in the file — exactly
 * as if the rows had been posted one by one.
 */
export async function checkChunkLimits(
  trx: Db,
  rows: DonationRow[],
  donationAccounts: ReadonlyMap<string, DonationAccountRow>,
  at: string,
): Promise<Array<ReturnType<typeof flagRows>>> {
  const limited = rows.filter(
    (r) =>
      r.donationAccountId !== null && accountLimits(donationAccounts.get(r.donationAccountId)!).length > 0,
  );
  if (limited.length === 0) return [];
  const years = new Set<string>();
  for (const r of limited) {
    const y = Number(r.donationDate.slice(0, 4));
    const { start, end } = cycleOfYear(y);
    for (const x of [y, start, end]) years.add(String(x).padStart(4, '0'));
  }
  const yearList = [...years];
  const dacs = [...new Set(limited.map((r) => r.donationAccountId as string))];
  const contacts = [...new Set(limited.map((r) => r.contactId))];

  interface Windows {
    donor: number;
    byElection: Map<string, number>;
    byYear: Map<string, number>;
  }
  const windows = new Map<string, Windows>();
  const windowsOf = (dac: string, contact: string): Windows => {
    const k = `${dac}\u0000${contact}`;
    let w = windows.get(k);
    if (!w) {
      w = { donor: 0, byElection: new Map(), byYear: new Map() };
      windows.set(k, w);
    }
    return w;
  };
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

  const saved = await inSlices(contacts, (slice) =>
    trx
      .selectFrom('donations')
      .select(['donationAccountId', 'contactId', 'electionType', 'electionYear'])
      .select((eb) => [
        eb.fn.sum<number>('amountCents').as('total'),
        ...yearList.map((y, i) =>
          eb.fn
            .sum<number>(
              eb
                .case()
                .when(
                  eb.and([
                    eb('donationDate', '>=', `${y}-01-01T00:00:00.000Z`),
                    eb('donationDate', '<=', `${y}-12-31T23:59:59.999Z`),
                  ]),
                )
                .then(eb.ref('amountCents'))
                .else(eb.lit(0))
                .end(),
            )
            .as(`y${i}`),
        ),
      ])
      .where('status', '=', 'completed')
      .where('donationAccountId', 'in', dacs)
      .where('contactId', 'in', slice)
      .groupBy(['donationAccountId', 'contactId', 'electionType', 'electionYear'])
      .execute(),
  );
  for (const s of saved) {
    const w = windowsOf(s.donationAccountId as string, s.contactId);
    w.donor += Number(s.total);
    add(w.byElection, `${s.electionType}-${s.electionYear}`, Number(s.total));
    const byYear = s as unknown as Record<string, number | string | null>;
    yearList.forEach((y, i) => add(w.byYear, y, Number(byYear[`y${i}`] ?? 0)));
  }

  const flags: Array<ReturnType<typeof flagRows>> = [];
  for (const r of limited) {
    const account = donationAccounts.get(r.donationAccountId!)!;
    const w = windowsOf(account.id, r.contactId);
    const year = r.donationDate.slice(0, 4);
    w.donor += r.amountCents;
    add(w.byElection, `${r.electionType}-${r.electionYear}`, r.amountCents);
    add(w.byYear, year, r.amountCents);
    for (const [kind, limit] of accountLimits(account)) {
      let total: number;
      if (kind === 'per_donor') total = w.donor;
      else if (kind === 'per_election') total = w.byElection.get(`${r.electionType}-${r.electionYear}`) ?? 0;
      else if (kind === 'per_year') total = w.byYear.get(year) ?? 0;
      else {
        const { start, end } = cycleOfYear(Number(year));
        total =
          (w.byYear.get(String(start).padStart(4, '0')) ?? 0) +
          (w.byYear.get(String(end).padStart(4, '0')) ?? 0);
      }
      if (total > limit) flags.push(flagRows(r, kind, limit, total, at));
    }
  }
  return flags;
}
