/**
 * A demo organisation to explore GiftDesk with: a congressional campaign with several
 * fundraising campaigns, a committee, donation accounts with contribution limits, an
 * election calendar, custom fields of every type (one pick-list option retired, one field
 * archived), ~3,000 donors and ~6,000 gifts over the last two years — today's event
 * included — a few of them over a limit, so the review queue has work in it. Each gift counts
 * as entered when it was given (the dashboard's "entered today" is today's event).
 *
 * Deterministic: one seeded generator draws every name, amount and date (dates count back
 * from now), the donors first, then the gifts. It goes in through the bulk import, so every
 * row passes the API's rules, and it is local data: nothing of it is queued for HQ. This file
 * runs the steps in order; the reference records are in demo-reference.ts, the donors in
 * demo-donors.ts, the gifts in demo-gifts.ts, the generator and the names it draws from in
 * demo-data.ts.
 */
import { createAccount, createApiKey } from '../../domain/accounts/index.ts';
import { archiveCustomField, retireCustomFieldOption } from '../../domain/contacts/index.ts';
import { csvRecordsOf, importRecords } from '../../domain/import-export/index.ts';
import type { DomainContext } from '../../domain/index.ts';
import { DomainError } from '../../domain/index.ts';
import { day, generator } from './demo-data.ts';
import { CONTACT_HEADER, donorRows } from './demo-donors.ts';
import { DONATION_HEADER, giftRows } from './demo-gifts.ts';
import { seedCustomFields, seedReference } from './demo-reference.ts';

export interface DemoCredentials {
  accountId: string;
  keyId: string;
  secret: string;
}

export const DEMO_CONTACTS = 3000;
export const DEMO_DONATIONS = 6000;

/** Seeds a new demo organisation and returns its API key (the secret, shown this once). */
export async function seedDemo(ctx: DomainContext): Promise<DemoCredentials> {
  const rnd = generator(20_261_122);
  const now = Date.parse(ctx.now());
  const today = day(now);
  const { id: accountId } = await createAccount(ctx, 'Maria Okafor for Congress');
  const key = await createApiKey(ctx, accountId, 'demo');

  const ref = await seedReference(ctx, accountId, today);
  await seedCustomFields(ctx, accountId);
  const contacts = donorRows(rnd, now, DEMO_CONTACTS);
  const donations = giftRows(rnd, now, today, ref, { contacts: DEMO_CONTACTS, donations: DEMO_DONATIONS });
  await importDemoRows(ctx, accountId, 'contacts', CONTACT_HEADER, contacts);
  await importDemoRows(ctx, accountId, 'donations', DONATION_HEADER, donations);

  // Definitions change over time: an option retired, a field archived (their values stay).
  await retireCustomFieldOption(ctx, accountId, 'Membership Level', 'Founding Member');
  await archiveCustomField(ctx, accountId, 'Legacy Donor ID');
  await enteredWhenGivenAndLocal(ctx, accountId);
  return { accountId, keyId: key.keyId, secret: key.secret };
}

/** Seeds the demo organisation only into a database without accounts; null otherwise. */
export async function seedDemoIfEmpty(ctx: DomainContext): Promise<DemoCredentials | null> {
  const any = await ctx.store.db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  return seedDemo(ctx);
}

/** The rows through the bulk import, a thousand at a time; a row it refuses fails the demo. */
async function importDemoRows(
  ctx: DomainContext,
  accountId: string,
  kind: 'contacts' | 'donations',
  header: string[],
  rows: string[][],
): Promise<void> {
  const r = await importRecords(
    ctx,
    { kind, accountId, push: false, chunkRows: 2000 },
    csvRecordsOf(header, rows),
  );
  if (r.rejectedCount > 0)
    throw new DomainError(
      'conflict',
      'demo_failed',
      `The demo data has ${r.rejectedCount} rows GiftDesk refuses: row ${r.rejected[0]?.row}: ${r.rejected[0]?.reason}`,
    );
}

/** The gifts dated as entered when given, and the demo's change log kept off the push. */
async function enteredWhenGivenAndLocal(ctx: DomainContext, accountId: string): Promise<void> {
  await ctx.store.write(async (trx) => {
    // History is entered when it happened: the dashboard's "entered today" is tonight's event,
    // not the whole two years imported a moment ago.
    await trx
      .updateTable('donations')
      .set((eb) => ({ createdAt: eb.ref('donationDate'), updatedAt: eb.ref('donationDate') }))
      .where('accountId', '=', accountId)
      .execute();
    // Demo data is local: nothing of it (reference data included) is queued for HQ.
    await trx.updateTable('changeLog').set({ push: 0 }).where('accountId', '=', accountId).execute();
  });
}
