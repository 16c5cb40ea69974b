/**
 * API keys: the secret is shown once and stored only as a hash. Made (a permanent key, or a
 * window's session key), listed, revoked, and checked on every request (authenticateApiKey);
 * which session keys stay good, and for how long, is in sessions.ts.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId } from '#shared/ids.ts';
import type { Role } from '#shared/schemas/roles.ts';
import { reusable } from '../../db/bulk.ts';
import type { Db } from '../../db/store.ts';
import type { DomainContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { requireAccount } from './accounts.ts';
import { browserSessionExpired, type SessionKind, THIS_PROCESS } from './sessions.ts';

function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/**
 * A key for an account. `role`: what it may do (electron/server/route-rules.ts); a person's
 * script key, the desktop window's and a browser window's session keys are 'administrator'
 * unless asked otherwise.
 */
export async function createApiKey(
  ctx: DomainContext,
  accountId: string,
  label?: string | null,
  session?: SessionKind,
  role: Role = 'administrator',
) {
  await requireAccount(ctx, accountId);
  const at = ctx.now();
  return ctx.store.write((trx) => insertApiKey(trx, { accountId, label: label ?? null, session, at, role }));
}

/**
 * Makes a permanent key (or a session key) inside the caller's write transaction: the event
 * hub pairs a station, its key and the use of its code in one. The account must exist.
 */
export async function insertApiKey(
  trx: Db,
  k: {
    accountId: string;
    label: string | null;
    session?: SessionKind;
    userId?: string;
    at: string;
    role?: Role;
  },
): Promise<{ keyId: string; secret: string; accountId: string; role: Role }> {
  const role = k.role ?? 'administrator';
  const keyId = newId('apiKey');
  const secret = `gds_${randomBytes(32).toString('base64url')}`;
  await trx
    .insertInto('apiKeys')
    .values({
      id: keyId,
      accountId: k.accountId,
      secretHash: hashSecret(secret).toString('hex'),
      label: k.label,
      createdAt: k.at,
      revokedAt: null,
      lastUsedAt: null,
      sessionKind: k.session ?? null,
      // The desktop window's key is this process's; a browser window's outlives a restart.
      sessionOwner: k.session === 'desktop' ? THIS_PROCESS : null,
      role,
      userId: k.userId ?? null,
    })
    .execute();
  return { keyId, secret, accountId: k.accountId, role };
}

export async function revokeApiKey(ctx: DomainContext, keyId: string, accountId?: string) {
  const at = ctx.now();
  const n = await ctx.store.write(async (trx) => {
    let q = trx
      .updateTable('apiKeys')
      .set({ revokedAt: at })
      .where('id', '=', keyId)
      .where('revokedAt', 'is', null);
    if (accountId) q = q.where('accountId', '=', accountId);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows);
  });
  if (n === 0) {
    const exists = await ctx.store.db
      .selectFrom('apiKeys')
      .select('id')
      .where('id', '=', keyId)
      .$if(accountId !== undefined, (q) => q.where('accountId', '=', accountId ?? ''))
      .executeTakeFirst();
    if (!exists)
      throw new DomainError('not_found', 'api_key_not_found', `API key ${keyId} was not found`, [
        { field: 'keyId', issue: 'does not exist' },
      ]);
  }
  return { keyId, revoked: true as const };
}

export async function listApiKeys(ctx: DomainContext, accountId: string) {
  // Permanent keys, live or revoked; session keys only while their window's session lives.
  const rows = await ctx.store.db
    .selectFrom('apiKeys')
    .select(['id', 'label', 'createdAt', 'revokedAt', 'lastUsedAt', 'sessionKind', 'role'])
    .where('accountId', '=', accountId)
    .where((eb) => eb.or([eb('sessionKind', 'is', null), eb('revokedAt', 'is', null)]))
    .orderBy('createdAt', 'desc')
    .execute();
  return rows.map((r) => ({
    keyId: r.id,
    label: r.label,
    createdAt: r.createdAt,
    revokedAt: r.revokedAt,
    lastUsedAt: r.lastUsedAt,
    session: r.sessionKind,
    role: r.role,
  }));
}

const DUMMY_HASH = hashSecret('no such key');
const lastUsedWritten = new Map<string, number>();

/**
 * The account of a valid, unrevoked key, or null. The secret is compared in constant time,
 * and an unknown key id costs the same hash and compare as a known one.
 */
export async function verifyApiKey(
  ctx: DomainContext,
  keyId: string,
  secret: string,
): Promise<string | null> {
  return (await authenticateApiKey(ctx, keyId, secret))?.accountId ?? null;
}

/** The key's row, compiled once: every request reads it. */
const keyById = reusable(
  (db, p) =>
    db
      .selectFrom('apiKeys')
      .select([
        'accountId',
        'secretHash',
        'revokedAt',
        'sessionKind',
        'sessionOwner',
        'createdAt',
        'lastUsedAt',
        'role',
        'userId',
      ])
      .where('id', '=', p<string>(0)),
  { named: true },
);

/** A session key's person, read at each request: a new role or a disable applies at once. */
const userById = reusable(
  (db, p) => db.selectFrom('users').select(['name', 'role', 'disabledAt']).where('id', '=', p<string>(0)),
  { named: true },
);

/** What a key that checked out is: its account, its kind, the role it acts in, its person. */
export interface KeyHolder {
  accountId: string;
  session: SessionKind | null;
  /** A person's session: the person's role now; any other key: its own role. */
  role: Role;
  /** The person a sign-in session belongs to; null for every other key. */
  user: { id: string; name: string } | null;
}

/**
 * verifyApiKey with what the key is: a permanent key (session null) or a session key. The
 * desktop window's is valid only inside the process that made it (a key of a crashed process
 * is dead at once, before the next start revokes it); a browser window's (or a person's
 * sign-in) in any server on this database until it is ended or goes unused for
 * BROWSER_SESSION_IDLE_MS. A person's session also ends when the person is disabled.
 */
export async function authenticateApiKey(
  ctx: DomainContext,
  keyId: string,
  secret: string,
): Promise<KeyHolder | null> {
  const row = (await keyById(ctx.store.db, [keyId])).rows[0] as
    | {
        accountId: string;
        secretHash: string;
        revokedAt: string | null;
        sessionKind: SessionKind | null;
        sessionOwner: string | null;
        createdAt: string;
        lastUsedAt: string | null;
        role: Role;
        userId: string | null;
      }
    | undefined;
  const presented = hashSecret(secret);
  const stored = row ? Buffer.from(row.secretHash, 'hex') : DUMMY_HASH;
  const same = stored.length === presented.length && timingSafeEqual(stored, presented);
  if (!row || !same || row.revokedAt !== null) return null;
  if (row.sessionOwner !== null && row.sessionOwner !== THIS_PROCESS) return null;
  if (
    (row.sessionKind === 'browser' || row.sessionKind === 'sign-in') &&
    row.sessionOwner === null &&
    browserSessionExpired(row.lastUsedAt ?? row.createdAt, ctx.now())
  )
    return null;
  let user: KeyHolder['user'] = null;
  let role: Role = row.role;
  if (row.userId !== null) {
    const u = (await userById(ctx.store.db, [row.userId])).rows[0] as
      { name: string; role: Role; disabledAt: string | null } | undefined;
    if (!u || u.disabledAt !== null) return null;
    user = { id: row.userId, name: u.name };
    role = u.role;
  }
  const last = lastUsedWritten.get(keyId) ?? 0;
  if (Date.now() - last > 60_000) {
    lastUsedWritten.set(keyId, Date.now());
    const at = ctx.now();
    ctx.store
      .write((trx) => trx.updateTable('apiKeys').set({ lastUsedAt: at }).where('id', '=', keyId).execute())
      .catch(() => undefined);
  }
  return { accountId: row.accountId, session: row.sessionKind, role, user };
}

/**
 * When a key that was revoked is presented with its right secret: its account and when it was
 * revoked (a revoked event station is told so in words). Null for anything else. Only asked
 * after authenticateApiKey refused the key, so a good request never pays for it.
 */
export async function revokedKeyOf(
  ctx: DomainContext,
  keyId: string,
  secret: string,
): Promise<{ accountId: string; revokedAt: string } | null> {
  const row = await ctx.store.db
    .selectFrom('apiKeys')
    .select(['accountId', 'secretHash', 'revokedAt'])
    .where('id', '=', keyId)
    .executeTakeFirst();
  const presented = hashSecret(secret);
  const stored = row ? Buffer.from(row.secretHash, 'hex') : DUMMY_HASH;
  const same = stored.length === presented.length && timingSafeEqual(stored, presented);
  if (!row || !same || row.revokedAt === null) return null;
  return { accountId: row.accountId, revokedAt: row.revokedAt };
}

/**
 * Whether `secret` is the secret of key `keyId` (revoked or not), read in the caller's
 * transaction: what a removed event station shows to prove it is that station when it pairs
 * again. Compared in constant time; an unknown key id costs the same.
 */
export async function secretOfKey(db: Db, keyId: string, secret: string): Promise<boolean> {
  const row = await db.selectFrom('apiKeys').select('secretHash').where('id', '=', keyId).executeTakeFirst();
  const presented = hashSecret(secret);
  const stored = row ? Buffer.from(row.secretHash, 'hex') : DUMMY_HASH;
  return stored.length === presented.length && timingSafeEqual(stored, presented) && row !== undefined;
}
