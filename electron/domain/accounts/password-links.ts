/**
 * One-time links that let a person set their password: a random token shown once (in the
 * link), kept only as its hash, good for 24 hours and for one use. Setting a password ends
 * the person's open sessions (whoever knew the old password is out).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/store.ts';
import type { DomainContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { hashPassword } from './passwords.ts';
import { checkedPassword, endSessionsOf, getUser } from './users.ts';

export const PASSWORD_TOKEN_PREFIX = 'gdp_';
export const PASSWORD_LINK_TTL_MS = 24 * 60 * 60 * 1000;

const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** A fresh one-time token for a person of the account; earlier unused ones stop working. */
export async function issuePasswordToken(
  ctx: DomainContext,
  accountId: string,
  userId: string,
): Promise<{ token: string; expiresAt: string }> {
  await getUser(ctx, accountId, userId);
  const token = `${PASSWORD_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const at = ctx.now();
  const expiresAt = new Date(Date.parse(at) + PASSWORD_LINK_TTL_MS).toISOString();
  await ctx.store.write(async (trx) => {
    await trx
      .updateTable('userPasswordTokens')
      .set({ usedAt: at })
      .where('userId', '=', userId)
      .where('usedAt', 'is', null)
      .execute();
    await trx
      .insertInto('userPasswordTokens')
      .values({ tokenHash: digest(token), userId, createdAt: at, expiresAt, usedAt: null })
      .execute();
  });
  return { token, expiresAt };
}

/**
 * Sets the password of the token's person and spends the token. A used, expired or made-up
 * token is a 400 naming `token`, and changes nothing.
 */
export async function setPasswordWithToken(
  ctx: DomainContext,
  token: string,
  password: string,
): Promise<{ userId: string; accountId: string; email: string }> {
  checkedPassword(password);
  const tokenHash = digest(token);
  // The token first: a made-up one costs no password hash (scrypt is the expensive part).
  if (!(await liveToken(ctx.store.db, tokenHash, ctx.now()))) throw notValid();
  const hash = await hashPassword(password);
  const at = ctx.now();
  return ctx.store.write(async (trx) => {
    const row = await liveToken(trx, tokenHash, at); // again: another request may have spent it
    if (!row) throw notValid();
    // Spent only if still unspent, in one statement: two requests with the link at once (on
    // PostgreSQL, perhaps on two servers) both read it live above, but the second one's
    // update waits for the first's row lock and then finds it spent.
    const spent = await trx
      .updateTable('userPasswordTokens')
      .set({ usedAt: at })
      .where('tokenHash', '=', tokenHash)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) throw notValid();
    await trx
      .updateTable('users')
      .set({ passwordHash: hash, updatedAt: at })
      .where('id', '=', row.userId)
      .execute();
    await endSessionsOf(trx, row.userId, at);
    return { userId: row.userId, accountId: row.accountId, email: row.email };
  });
}

async function liveToken(db: Db, tokenHash: string, at: string) {
  const row = await db
    .selectFrom('userPasswordTokens')
    .innerJoin('users', 'users.id', 'userPasswordTokens.userId')
    .select([
      'users.id as userId',
      'users.accountId',
      'users.email',
      'userPasswordTokens.expiresAt',
      'userPasswordTokens.usedAt',
    ])
    .where('userPasswordTokens.tokenHash', '=', tokenHash)
    .executeTakeFirst();
  return row && row.usedAt === null && Date.parse(row.expiresAt) > Date.parse(at) ? row : null;
}

const notValid = () =>
  new DomainError(
    'bad_request',
    'token_not_valid',
    'token has been used already or has expired: ask an administrator for a new set-password link.',
    [{ field: 'token', issue: 'has been used or has expired' }],
  );
