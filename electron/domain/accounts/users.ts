/**
 * The people of an account who sign in to a shared server (HQ): added with a role, listed,
 * given another role, disabled (their sessions end at once) and enabled again. A person's
 * email is unique in their account, compared trimmed and in lower case. A new person has no
 * password: they set one through a one-time link (password-links.ts) or it is given at once.
 *
 * The last administrator stays: a change that would leave an account with people but no
 * enabled administrator among them (demoting or disabling the last one) is refused, 409
 * `last_administrator`. Only people count, not keys: an administrator's API key or the desktop
 * window's key is no one who can sign in to manage the others. The check and the change are
 * one write; on PostgreSQL the account's changes to people take turns on a lock, so two
 * administrators demoting each other at once cannot both pass.
 */
import { newId } from '#shared/ids.ts';
import { LAST_ADMINISTRATOR, PASSWORD_MAX, PASSWORD_MIN } from '#shared/schemas/people.ts';
import { ROLES, type Role } from '#shared/schemas/roles.ts';
import type { Db } from '../../db/store.ts';
import { takeTurnsOn } from '../../db/take-turns.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidField } from '../errors.ts';
import { requireAccount } from './accounts.ts';
import { hashPassword } from './passwords.ts';

export { PASSWORD_MAX, PASSWORD_MIN };

export interface User {
  id: string;
  accountId: string;
  email: string;
  name: string;
  role: Role;
  /** False until the person has set a password. */
  passwordSet: boolean;
  disabledAt: string | null;
  /** When they last signed in; null when not known (never, or not since this was recorded). */
  lastSignInAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The form an email is compared in: trimmed, lower case. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkedEmail(email: string): string {
  const e = email.trim();
  if (!e) throw invalidField('email', 'is required');
  if (e.length > 254 || !EMAIL.test(e)) throw invalidField('email', 'is not an email address');
  return e;
}

function checkedName(name: string): string {
  const n = name.trim();
  if (!n) throw invalidField('name', 'is required');
  if (n.length > 200) throw invalidField('name', 'must be at most 200 characters');
  return n;
}

export function checkedRole(role: string): Role {
  if (!(ROLES as readonly string[]).includes(role))
    throw invalidField('role', `must be one of ${ROLES.join(', ')}`);
  return role as Role;
}

/** A password a person may choose: long enough, not absurdly long. */
export function checkedPassword(password: string): string {
  if (password.length < PASSWORD_MIN)
    throw invalidField('password', `must be at least ${PASSWORD_MIN} characters`);
  if (password.length > PASSWORD_MAX)
    throw invalidField('password', `must be at most ${PASSWORD_MAX} characters`);
  return password;
}

type UserRow = {
  id: string;
  accountId: string;
  email: string;
  name: string;
  role: Role;
  passwordHash: string | null;
  disabledAt: string | null;
  lastSignInAt: string | null;
  createdAt: string;
  updatedAt: string;
};

const COLUMNS = [
  'id',
  'accountId',
  'email',
  'name',
  'role',
  'passwordHash',
  'disabledAt',
  'lastSignInAt',
  'createdAt',
  'updatedAt',
] as const;

function toUser(r: UserRow): User {
  return {
    id: r.id,
    accountId: r.accountId,
    email: r.email,
    name: r.name,
    role: r.role,
    passwordSet: r.passwordHash !== null,
    disabledAt: r.disabledAt,
    lastSignInAt: r.lastSignInAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export async function addUser(
  ctx: DomainContext,
  u: { accountId: string; email: string; name: string; role: string; password?: string },
): Promise<User> {
  await requireAccount(ctx, u.accountId);
  const email = checkedEmail(u.email);
  const name = checkedName(u.name);
  const role = checkedRole(u.role);
  const passwordHash = u.password !== undefined ? await hashPassword(checkedPassword(u.password)) : null;
  const at = ctx.now();
  const row: UserRow = {
    id: newId('user'),
    accountId: u.accountId,
    email,
    name,
    role,
    passwordHash,
    disabledAt: null,
    lastSignInAt: null,
    createdAt: at,
    updatedAt: at,
  };
  await ctx.store.write(async (trx) => {
    const taken = await trx
      .selectFrom('users')
      .select('id')
      .where('accountId', '=', u.accountId)
      .where('emailKey', '=', emailKey(email))
      .executeTakeFirst();
    if (taken)
      throw new DomainError(
        'conflict',
        'user_exists',
        `A person with the email ${email} is in this account already`,
        [{ field: 'email', issue: 'is taken in this account' }],
      );
    await trx
      .insertInto('users')
      .values({ ...row, emailKey: emailKey(email) })
      .execute();
  });
  return toUser(row);
}

export async function listUsers(ctx: DomainContext, accountId: string): Promise<User[]> {
  const rows = await ctx.store.db
    .selectFrom('users')
    .select(COLUMNS)
    .where('accountId', '=', accountId)
    .orderBy('emailKey')
    .execute();
  return rows.map(toUser);
}

export async function getUser(ctx: DomainContext, accountId: string, id: string): Promise<User> {
  const r = await ctx.store.db
    .selectFrom('users')
    .select(COLUMNS)
    .where('accountId', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!r)
    throw new DomainError('not_found', 'user_not_found', `Person ${id} was not found`, [
      { field: 'id', issue: 'does not exist' },
    ]);
  return toUser(r);
}

/** The person of an account with this email (any case, spaces around it ignored). */
export async function userByEmail(ctx: DomainContext, accountId: string, email: string): Promise<User> {
  const r = await ctx.store.db
    .selectFrom('users')
    .select(COLUMNS)
    .where('accountId', '=', accountId)
    .where('emailKey', '=', emailKey(email))
    .executeTakeFirst();
  if (!r)
    throw new DomainError(
      'not_found',
      'user_not_found',
      `No person with the email ${email.trim()} in this account`,
      [{ field: 'email', issue: 'is not a person of this account' }],
    );
  return toUser(r);
}

/** Ends every session of a person (inside the caller's transaction). */
export async function endSessionsOf(trx: Db, userId: string, at: string): Promise<void> {
  await trx
    .updateTable('apiKeys')
    .set({ revokedAt: at })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .execute();
}

/** The sentence of the refusal, naming what was asked. */
export function lastAdministratorMessage(name: string, disabling: boolean): string {
  return `${name} is the last administrator of this account: ${disabling ? 'disabling' : 'demoting'} them would leave no one to manage its people. Make someone else an administrator first.`;
}

/**
 * Refuses (409 last_administrator) a change that takes the last enabled administrator of the
 * account away. Inside the write that makes the change, after the account's lock.
 */
async function keepLastAdministrator(
  trx: Db,
  accountId: string,
  before: { id: string; name: string; role: Role; disabledAt: string | null },
  patch: { role?: Role; disabled?: boolean },
): Promise<void> {
  if (before.role !== 'administrator' || before.disabledAt !== null) return;
  const disabling = patch.disabled === true;
  const demoting = patch.role !== undefined && patch.role !== 'administrator';
  if (!disabling && !demoting) return;
  const other = await trx
    .selectFrom('users')
    .select('id')
    .where('accountId', '=', accountId)
    .where('role', '=', 'administrator')
    .where('disabledAt', 'is', null)
    .where('id', '!=', before.id)
    .limit(1)
    .executeTakeFirst();
  if (other) return;
  throw new DomainError('conflict', LAST_ADMINISTRATOR, lastAdministratorMessage(before.name, disabling), [
    disabling
      ? { field: 'disabled', issue: 'would leave the account without an administrator' }
      : { field: 'role', issue: 'would leave the account without an administrator' },
  ]);
}

/**
 * Changes a person's role and whether they are disabled. Disabling ends their sessions at
 * once; a role change applies from their next request (the role is read at each request).
 * The last enabled administrator cannot be demoted or disabled (409 last_administrator).
 */
export async function updateUser(
  ctx: DomainContext,
  accountId: string,
  id: string,
  patch: { role?: string; disabled?: boolean },
): Promise<User> {
  const role = patch.role !== undefined ? checkedRole(patch.role) : undefined;
  await getUser(ctx, accountId, id);
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    // SQLite has one writer at a time; on PostgreSQL the account's changes to people take turns here.
    await takeTurnsOn(trx, ctx.store.engine, `people:${accountId}`);
    const before = await trx
      .selectFrom('users')
      .select(['id', 'name', 'role', 'disabledAt'])
      .where('accountId', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await keepLastAdministrator(trx, accountId, before, { role, disabled: patch.disabled });
    const set: { updatedAt: string; role?: Role; disabledAt?: string | null } = { updatedAt: at };
    if (role !== undefined) set.role = role;
    if (patch.disabled === true && before.disabledAt === null) set.disabledAt = at;
    if (patch.disabled === false) set.disabledAt = null;
    await trx.updateTable('users').set(set).where('id', '=', id).execute();
    if (patch.disabled === true) await endSessionsOf(trx, id, at);
  });
  return getUser(ctx, accountId, id);
}
