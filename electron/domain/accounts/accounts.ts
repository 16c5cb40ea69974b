/**
 * Accounts: the organisations a GiftDesk database holds, each with its own contacts, gifts and
 * reference records. Made, read and listed here, and requireAccount, the check others make
 * before they act for one. Its keys are in api-keys.ts and sessions.ts.
 */
import { newId } from '#shared/ids.ts';
import type { DomainContext } from '../context.ts';
import { DomainError } from '../errors.ts';

export async function createAccount(ctx: DomainContext, name: string): Promise<{ id: string }> {
  const trimmed = name.trim();
  if (!trimmed)
    throw new DomainError('bad_request', 'validation_failed', 'name must not be empty', [
      { field: 'name', issue: 'must not be empty' },
    ]);
  const id = newId('account');
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    await trx
      .insertInto('accounts')
      .values({ id, name: trimmed, defaultElectionType: null, defaultElectionYear: null, createdAt: at })
      .execute();
  });
  return { id };
}

export async function getAccount(ctx: DomainContext, id: string) {
  return ctx.store.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listAccounts(ctx: DomainContext) {
  return ctx.store.db.selectFrom('accounts').selectAll().orderBy('createdAt').execute();
}

export async function requireAccount(ctx: DomainContext, id: string): Promise<void> {
  if (!(await getAccount(ctx, id))) {
    throw new DomainError('not_found', 'account_not_found', `Account ${id} was not found`, [
      { field: 'accountId', issue: 'does not exist' },
    ]);
  }
}
