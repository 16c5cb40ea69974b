/**
 * Signing in with an email and a password, and how wrong guesses are slowed. The session it
 * opens is a key like any other (its secret shown once, kept hashed), of the kind 'sign-in',
 * belonging to the person: it ends at sign-out, after SIGN_IN_IDLE_MS unused, and as soon as
 * the person is disabled (api-keys.ts reads the person at each request).
 *
 * The throttle, kept in the database (a restart forgets nothing, every server on the database
 * shares it), never locks a person out by their email alone:
 * - per source address: after ADDRESS_MAX refused sign-ins within WINDOW_MS, that address is
 *   refused (429) until the oldest of them is WINDOW_MS old; the answer names the wait;
 * - per email: once EMAIL_BOUND sign-ins to one email were refused within WINDOW_MS (from any
 *   addresses), an address that itself got that email wrong waits a delay that doubles with
 *   each further failure (1 s, 2 s, 4 s… at most WINDOW_MS) before its next try at it. An
 *   address that has not failed at that email is never held up, so the right password from a
 *   fresh address works at once, however many others guessed.
 * A try is counted before its password is checked, in the same write as the check (two
 * guesses at once from one address cannot both slip under the bound), and forgotten when the
 * password was right.
 */
import type { Role } from '#shared/schemas/roles.ts';
import type { Db } from '../../db/store.ts';
import { takeTurnsOn } from '../../db/take-turns.ts';
import type { DomainContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { insertApiKey } from './api-keys.ts';
import { checkPassword } from './passwords.ts';
import { emailKey } from './users.ts';

export const WINDOW_MS = 15 * 60 * 1000;
export const ADDRESS_MAX = 5;
export const EMAIL_BOUND = 10;

export interface SignedIn {
  keyId: string;
  secret: string;
  accountId: string;
  role: Role;
  user: { id: string; name: string };
}

export type SignInResult = { kind: 'signed-in'; session: SignedIn } | { kind: 'wait'; retryAfter: number };

const ms = (iso: string) => Date.parse(iso);

/** Milliseconds `address` must wait before it may try `key` at `now` (0: it may now). */
async function waitMs(db: Db, address: string, key: string, now: string): Promise<number> {
  const since = new Date(ms(now) - WINDOW_MS).toISOString();
  let wait = 0;
  const fromAddress = await db
    .selectFrom('signInFailures')
    .select('at')
    .where('address', '=', address)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .limit(ADDRESS_MAX)
    .execute();
  if (fromAddress.length >= ADDRESS_MAX) wait = ms(fromAddress[ADDRESS_MAX - 1]!.at) + WINDOW_MS - ms(now);
  const toEmail = await db
    .selectFrom('signInFailures')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('emailKey', '=', key)
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  const n = Number(toEmail.n);
  if (n >= EMAIL_BOUND) {
    const mine = await db
      .selectFrom('signInFailures')
      .select((eb) => eb.fn.max('at').as('last'))
      .where('address', '=', address)
      .where('emailKey', '=', key)
      .where('at', '>', since)
      .executeTakeFirst();
    if (mine?.last) {
      const delay = Math.min(1000 * 2 ** (n - EMAIL_BOUND), WINDOW_MS);
      wait = Math.max(wait, ms(mine.last) + delay - ms(now));
    }
  }
  return Math.max(0, wait);
}

/** The try counted (as refused until the password proves right), unless the address must wait. */
async function countTry(ctx: DomainContext, address: string, key: string): Promise<number> {
  const at = ctx.now();
  return ctx.store.write(async (trx) => {
    // SQLite has one writer at a time; on PostgreSQL two tries from one address take turns here.
    await takeTurnsOn(trx, ctx.store.engine, `sign-in:${address}`);
    const wait = await waitMs(trx, address, key, at);
    if (wait > 0) return wait;
    await trx.insertInto('signInFailures').values({ address, emailKey: key, at }).execute();
    // What is older than the window counts for nothing any more.
    const since = new Date(ms(at) - WINDOW_MS).toISOString();
    await trx.deleteFrom('signInFailures').where('address', '=', address).where('at', '<=', since).execute();
    await trx.deleteFrom('signInFailures').where('emailKey', '=', key).where('at', '<=', since).execute();
    return 0;
  });
}

const WRONG = () =>
  new DomainError(
    'unauthorized',
    'sign_in_failed',
    'The email or the password is not right (or the person was disabled: ask an administrator).',
    [{ field: 'password', issue: 'does not match the email' }],
  );

/**
 * Signs a person in from `address` (the request's source address). `accountId` is needed only
 * when the same email and password open people of two accounts.
 */
export async function signIn(
  ctx: DomainContext,
  req: { email: string; password: string; address: string; accountId?: string },
): Promise<SignInResult> {
  const key = emailKey(req.email);
  const wait = await countTry(ctx, req.address, key);
  if (wait > 0) return { kind: 'wait', retryAfter: Math.ceil(wait / 1000) };
  const candidates = await ctx.store.db
    .selectFrom('users')
    .select(['id', 'accountId', 'name', 'role', 'passwordHash', 'disabledAt'])
    .where('emailKey', '=', key)
    .$if(req.accountId !== undefined, (q) => q.where('accountId', '=', req.accountId ?? ''))
    .execute();
  const matches = [];
  if (candidates.length === 0) await checkPassword(req.password, null);
  // A disabled person's right password is answered as a wrong one (and counted as one): the
  // answer must not tell a guesser that the password was right.
  for (const c of candidates)
    if ((await checkPassword(req.password, c.passwordHash)) && c.disabledAt === null) matches.push(c);
  if (matches.length === 0) throw WRONG();
  await ctx.store.write((trx) =>
    trx.deleteFrom('signInFailures').where('address', '=', req.address).where('emailKey', '=', key).execute(),
  );
  if (matches.length > 1)
    throw new DomainError(
      'bad_request',
      'account_required',
      'This email signs in to more than one account: say which with accountId.',
      [{ field: 'accountId', issue: 'is required for this email' }],
    );
  const u = matches[0]!;
  const at = ctx.now();
  const k = await ctx.store.write(async (trx) => {
    await trx.updateTable('users').set({ lastSignInAt: at }).where('id', '=', u.id).execute();
    return insertApiKey(trx, {
      accountId: u.accountId,
      label: `signed in: ${req.email.trim()}`,
      session: 'sign-in',
      role: u.role,
      userId: u.id,
      at,
    });
  });
  return {
    kind: 'signed-in',
    session: {
      keyId: k.keyId,
      secret: k.secret,
      accountId: u.accountId,
      role: u.role,
      user: { id: u.id, name: u.name },
    },
  };
}
