/**
 * The deposit summary: what a set of completed gifts puts in the deposit bag — count and total
 * by payment method, the cash total, and every check (donor, amount, the number the notes
 * give). Computed from the gifts as they are now, in integer cents, by one function over a
 * scope (a batch; an event's close-out can give its own scope and add the figures of several
 * up with addDepositFigures). The batch's summary with its count is batch-count.ts's.
 */
import { checkNumberIn } from '#shared/check-number.ts';
import { PAYMENT_METHODS, type PaymentMethod } from '#shared/enums.ts';
import type { Db } from '../../db/store.ts';

export interface MethodFigures {
  paymentMethod: PaymentMethod;
  count: number;
  cents: number;
}

export interface CheckFigures {
  donationId: string;
  contactId: string;
  contactName: string;
  contactEmail: string | null;
  contactOrganization: string | null;
  cents: number;
  donationDate: string;
  checkNumber: string | null;
}

/** What a scope of gifts deposits, in cents. */
export interface DepositFigures {
  count: number;
  cents: number;
  /** Methods with gifts only, in PAYMENT_METHODS order. */
  byMethod: MethodFigures[];
  checks: CheckFigures[];
}

/**
 * Which gifts: a batch's, or those entered at an event station (null: at this GiftDesk itself;
 * `enteredSince`: only those entered here since then, e.g. since this GiftDesk hosts the event).
 */
export type DepositScope = { batchId: string } | { stationId: string | null; enteredSince?: string };

const ORDER = new Map(PAYMENT_METHODS.map((m, i) => [m, i]));
const byMethodOrder = (a: MethodFigures, b: MethodFigures) =>
  (ORDER.get(a.paymentMethod) ?? 0) - (ORDER.get(b.paymentMethod) ?? 0);

export async function depositFigures(
  db: Db,
  accountId: string,
  scope: DepositScope,
): Promise<DepositFigures> {
  const gifts = () => {
    const q = db
      .selectFrom('donations as d')
      .where('d.accountId', '=', accountId)
      .where('d.status', '=', 'completed');
    if ('batchId' in scope) return q.where('d.batchId', '=', scope.batchId);
    if (scope.stationId !== null) return q.where('d.stationId', '=', scope.stationId);
    const here = q.where('d.stationId', 'is', null);
    return scope.enteredSince === undefined ? here : here.where('d.createdAt', '>=', scope.enteredSince);
  };
  const [sums, checks] = await Promise.all([
    gifts()
      .select((eb) => [
        'd.paymentMethod',
        eb.fn.countAll<number>().as('n'),
        eb.fn.coalesce(eb.fn.sum<number>('d.amountCents'), eb.lit(0)).as('cents'),
      ])
      .groupBy('d.paymentMethod')
      .execute(),
    gifts()
      .where('d.paymentMethod', '=', 'check')
      .innerJoin('contacts as c', 'c.id', 'd.contactId')
      .select([
        'd.id',
        'd.contactId',
        'd.amountCents',
        'd.donationDate',
        'd.notes',
        'c.firstName',
        'c.lastName',
        'c.email',
        'c.organization',
      ])
      .orderBy('d.createdAt')
      .orderBy('d.id')
      .execute(),
  ]);
  const byMethod = sums
    .map((s) => ({ paymentMethod: s.paymentMethod, count: Number(s.n), cents: Number(s.cents) }))
    .sort(byMethodOrder);
  return {
    count: byMethod.reduce((a, m) => a + m.count, 0),
    cents: byMethod.reduce((a, m) => a + m.cents, 0),
    byMethod,
    checks: checks.map((r) => ({
      donationId: r.id,
      contactId: r.contactId,
      contactName: `${r.firstName} ${r.lastName}`.trim(),
      contactEmail: r.email,
      contactOrganization: r.organization,
      cents: Number(r.amountCents),
      donationDate: r.donationDate,
      checkNumber: checkNumberIn(r.notes),
    })),
  };
}

/** Several scopes' figures added up (an event's stations), checks in the order given. */
export function addDepositFigures(parts: readonly DepositFigures[]): DepositFigures {
  const methods = new Map<PaymentMethod, MethodFigures>();
  for (const p of parts)
    for (const m of p.byMethod) {
      const had = methods.get(m.paymentMethod);
      methods.set(m.paymentMethod, {
        paymentMethod: m.paymentMethod,
        count: (had?.count ?? 0) + m.count,
        cents: (had?.cents ?? 0) + m.cents,
      });
    }
  return {
    count: parts.reduce((a, p) => a + p.count, 0),
    cents: parts.reduce((a, p) => a + p.cents, 0),
    byMethod: [...methods.values()].sort(byMethodOrder),
    checks: parts.flatMap((p) => p.checks),
  };
}

export const methodCents = (f: DepositFigures, m: PaymentMethod): number =>
  f.byMethod.find((x) => x.paymentMethod === m)?.cents ?? 0;
