/**
 * Read-only checks for a gift being typed (the gift-entry row's warnings): the donor's room
 * under each limit of a donation account, in the election D5 would choose, and the donor's
 * total for the gift's calendar year. The same sums the save-time check (limits.ts) uses.
 */
import type { ElectionType } from '#shared/enums.ts';
import { centsToDollars } from '#shared/money.ts';
import { toIsoInstant } from '#shared/dates.ts';
import type { GiftCheck } from '#shared/schemas/gift-checks.ts';
import type { DomainContext } from '../context.ts';
import { limitWindow, resolveElection } from '../limits/elections.ts';
import { invalidField, notFound } from '../errors.ts';
import { LIMIT_LABEL, accountLimits, donorTotalInWindow } from '../limits/checks.ts';

export interface GiftCheckInput {
  accountId: string;
  contactId: string;
  /** Today (UTC) when absent. */
  donationDate?: string;
  donationAccountId?: string;
  electionType?: ElectionType;
  electionYear?: number;
}

export async function giftCheck(ctx: DomainContext, input: GiftCheckInput): Promise<GiftCheck> {
  const db = ctx.store.db;
  const donationDate = toIsoInstant(input.donationDate ?? ctx.now().slice(0, 10));
  if (!donationDate)
    throw invalidField('donationDate', 'must be an ISO 8601 date (YYYY-MM-DD) or timestamp with a time zone');
  const contact = await db
    .selectFrom('contacts')
    .select(['id', 'employer', 'occupation'])
    .where('id', '=', input.contactId)
    .where('accountId', '=', input.accountId)
    .executeTakeFirst();
  if (!contact) throw notFound('contact', 'contactId', input.contactId);
  const year = Number(donationDate.slice(0, 4));
  const yearRow = await db
    .selectFrom('donations')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amountCents'), eb.lit(0)).as('cents'))
    .where('contactId', '=', contact.id)
    .where('status', '=', 'completed')
    .where('donationDate', '>=', `${year}-01-01T00:00:00.000Z`)
    .where('donationDate', '<=', `${year}-12-31T23:59:59.999Z`)
    .executeTakeFirstOrThrow();

  let election: GiftCheck['election'] = null;
  const limits: GiftCheck['limits'] = [];
  if (input.donationAccountId) {
    const account = await db
      .selectFrom('donationAccounts')
      .selectAll()
      .where('id', '=', input.donationAccountId)
      .where('accountId', '=', input.accountId)
      .executeTakeFirst();
    if (!account) throw notFound('donation account', 'donationAccountId', input.donationAccountId);
    const e = await resolveElection(db, input.accountId, donationDate, {
      electionType: input.electionType ?? null,
      electionYear: input.electionYear ?? null,
    });
    election = { electionType: e.electionType, electionYear: e.electionYear };
    for (const [kind, limitCents] of accountLimits(account)) {
      const total = await donorTotalInWindow(db, {
        donationAccountId: account.id,
        contactId: contact.id,
        kind,
        donationDate,
        election: e,
      });
      limits.push({
        limitKind: kind,
        label: LIMIT_LABEL[kind],
        window: limitWindow(kind, donationDate, e).key,
        limit: centsToDollars(limitCents),
        donorTotal: centsToDollars(total),
        room: centsToDollars(Math.max(0, limitCents - total)),
      });
    }
  }
  return {
    contactId: contact.id,
    year,
    yearTotal: centsToDollars(Number(yearRow.cents)),
    employer: contact.employer,
    occupation: contact.occupation,
    donationAccountId: input.donationAccountId ?? null,
    election,
    limits,
  };
}
