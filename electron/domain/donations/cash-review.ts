/**
 * Cash over the limit, for Review: every completed cash gift of the account above the cash
 * limit (#shared/cash-rules.ts — the amount gift entry warns at), newest first, with its
 * donor and campaign. Nothing is flagged or stored: the list is read as it is now, so a gift
 * corrected to a check, or voided, leaves it.
 */
import type { z } from 'zod';
import { CASH_LIMIT_CENTS } from '#shared/cash-rules.ts';
import { centsToDollars } from '#shared/money.ts';
import type { CashGiftList } from '#shared/schemas/extensions.ts';
import type { DomainContext } from '../context.ts';

const SHOWN = 500;

export async function listCashOverLimit(
  ctx: DomainContext,
  accountId: string,
): Promise<z.infer<typeof CashGiftList>> {
  const over = () =>
    ctx.store.db
      .selectFrom('donations as d')
      .where('d.accountId', '=', accountId)
      .where('d.paymentMethod', '=', 'cash')
      .where('d.status', '=', 'completed')
      .where('d.amountCents', '>', CASH_LIMIT_CENTS);
  const [rows, count] = await Promise.all([
    over()
      .innerJoin('contacts as c', 'c.id', 'd.contactId')
      .leftJoin('campaigns as k', 'k.id', 'd.campaignId')
      .select([
        'd.id',
        'd.contactId',
        'd.amountCents',
        'd.donationDate',
        'c.firstName',
        'c.lastName',
        'k.name as campaignName',
      ])
      .orderBy('d.donationDate', 'desc')
      .orderBy('d.id', 'desc')
      .limit(SHOWN)
      .execute(),
    over()
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    gifts: rows.map((r) => ({
      donationId: r.id,
      contactId: r.contactId,
      contactName: `${r.firstName} ${r.lastName}`.trim(),
      donationAmount: centsToDollars(Number(r.amountCents)),
      donationDate: r.donationDate,
      campaignName: r.campaignName ?? null,
    })),
    total: Number(count.n),
  };
}
