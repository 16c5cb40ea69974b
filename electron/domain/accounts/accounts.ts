import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import os from 'node:os';
import { newId } from '#shared/ids.ts';
import { reusable } from '../../db/bulk.ts';
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

/* ---------------- API keys: the secret is shown once and stored only as a hash ---------------- */

function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** The kinds of session key; a permanent key has none. */
export type SessionKind = 'browser' | 'desktop';

/**
 * A browser window's key belongs to the data folder's database, not to one server process:
 * a restart of the server (Ctrl+C and `npm start` again, or a crash) must not lock a tab
 * out in the middle of a gift. It ends when a person ends it, or after this long unused
 * (a tab left open overnight asks for a fresh link in the morning).
 */
export const BROWSER_SESSION_IDLE_MS = 12 * 60 * 60 * 1000;

/** True when a browser key last used (or made) at `lastActive` is past its idle time at `now`. */
export function browserSessionExpired(lastActive: string, now: string): boolean {
  return Date.parse(now) - Date.parse(lastActive) >= BROWSER_SESSION_IDLE_MS;
}

/**
 * This process, as the owner of the session keys it hands out: host, pid and a random part
 * (a pid is reused after a restart; the random part never is).
 */
export const THIS_PROCESS = `${os.hostname()}|${process.pid}|${randomBytes(9).toString('base64url')}`;

export async function createApiKey(
  ctx: DomainContext,
  accountId: string,
  label?: string | null,
  session?: SessionKind,
) {
  await requireAccount(ctx, accountId);
  const keyId = newId('apiKey');
  const secret = `gds_${randomBytes(32).toString('base64url')}`;
  const at = ctx.now();
  await ctx.store.write((trx) =>
    trx
      .insertInto('apiKeys')
      .values({
        id: keyId,
        accountId,
        secretHash: hashSecret(secret).toString('hex'),
        label: label ?? null,
        createdAt: at,
        revokedAt: null,
        lastUsedAt: null,
        sessionKind: session ?? null,
        // The desktop window's key is this process's; a browser window's outlives a restart.
        sessionOwner: session === 'desktop' ? THIS_PROCESS : null,
      })
      .execute(),
  );
  return { keyId, secret, accountId };
}

/** True while the process named by a session owner (`host|pid|random`) may still be running. */
function ownerMayBeAlive(owner: string): boolean {
  const [host, pidText] = owner.split('|');
  if (owner === THIS_PROCESS) return true;
  if (host !== os.hostname()) return true; // another machine's process: it cannot be asked
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false; // this pid, but an earlier process (the random part differs)
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

/**
 * Revokes the session keys of processes that are gone (a crash, kill -9, a power cut: the
 * revocation at shutdown never ran), and browser windows' keys unused for
 * BROWSER_SESSION_IDLE_MS. Run at start; returns how many were revoked. Such keys already
 * fail everywhere (a desktop key works only in its own process, an idle browser key nowhere),
 * so this makes the list of keys say so too.
 */
export async function revokeOrphanedSessionKeys(ctx: DomainContext): Promise<number> {
  const live = await ctx.store.db
    .selectFrom('apiKeys')
    .select(['id', 'sessionKind', 'sessionOwner', 'createdAt', 'lastUsedAt'])
    .where('sessionKind', 'is not', null)
    .where('revokedAt', 'is', null)
    .execute();
  const now = ctx.now();
  const gone = live
    .filter((k) =>
      k.sessionOwner !== null
        ? !ownerMayBeAlive(k.sessionOwner)
        : browserSessionExpired(k.lastUsedAt ?? k.createdAt, now),
    )
    .map((k) => k.id);
  if (gone.length === 0) return 0;
  const at = ctx.now();
  await ctx.store.write((trx) =>
    trx
      .updateTable('apiKeys')
      .set({ revokedAt: at })
      .where('id', 'in', gone)
      .where('revokedAt', 'is', null)
      .execute(),
  );
  return gone.length;
}

/**
 * Deletes the session keys that have ended (revoked: their process stopped, crashed and was
 * cleaned up above, or a person ended them). They are dead everywhere already and were never
 * keys a person made; kept, every browser window of every past run would pile up in the list.
 * Run at start, after revokeOrphanedSessionKeys; returns how many went.
 */
export async function forgetEndedSessionKeys(ctx: DomainContext): Promise<number> {
  const r = await ctx.store.write((trx) =>
    trx
      .deleteFrom('apiKeys')
      .where('sessionKind', 'is not', null)
      .where('revokedAt', 'is not', null)
      .executeTakeFirst(),
  );
  return Number(r.numDeletedRows);
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
    .select(['id', 'label', 'createdAt', 'revokedAt', 'lastUsedAt', 'sessionKind'])
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
const keyById = reusable((db, p) =>
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
    ])
    .where('id', '=', p<string>(0)),
);

/**
 * verifyApiKey with what the key is: a permanent key (session null) or a session key. The
 * desktop window's is valid only inside the process that made it (a key of a crashed process
 * is dead at once, before the next start revokes it); a browser window's in any server on
 * this database until it is ended or goes unused for BROWSER_SESSION_IDLE_MS.
 */
export async function authenticateApiKey(
  ctx: DomainContext,
  keyId: string,
  secret: string,
): Promise<{ accountId: string; session: SessionKind | null } | null> {
  const row = (await keyById(ctx.store.db, [keyId])).rows[0] as
    | {
        accountId: string;
        secretHash: string;
        revokedAt: string | null;
        sessionKind: SessionKind | null;
        sessionOwner: string | null;
        createdAt: string;
        lastUsedAt: string | null;
      }
    | undefined;
  const presented = hashSecret(secret);
  const stored = row ? Buffer.from(row.secretHash, 'hex') : DUMMY_HASH;
  const same = stored.length === presented.length && timingSafeEqual(stored, presented);
  if (!row || !same || row.revokedAt !== null) return null;
  if (row.sessionOwner !== null && row.sessionOwner !== THIS_PROCESS) return null;
  if (
    row.sessionKind === 'browser' &&
    row.sessionOwner === null &&
    browserSessionExpired(row.lastUsedAt ?? row.createdAt, ctx.now())
  )
    return null;
  const last = lastUsedWritten.get(keyId) ?? 0;
  if (Date.now() - last > 60_000) {
    lastUsedWritten.set(keyId, Date.now());
    const at = ctx.now();
    ctx.store
      .write((trx) => trx.updateTable('apiKeys').set({ lastUsedAt: at }).where('id', '=', keyId).execute())
      .catch(() => undefined);
  }
  return { accountId: row.accountId, session: row.sessionKind };
}
