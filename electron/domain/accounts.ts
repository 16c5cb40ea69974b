import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId } from '../../shared/ids.ts';
import type { DomainContext } from './context.ts';
import { DomainError } from './errors.ts';

export async function createAccount(ctx: DomainContext, name: string): Promise<{ id: string }> {
  const trimmed = name.trim();
  if (!trimmed) throw new DomainError('bad_request', 'validation_failed', 'name must not be empty', [{ field: 'name', issue: 'must not be empty' }]);
  const id = newId('account');
  const at = ctx.now();
  await ctx.store.write(async (trx) => {
    await trx.insertInto('accounts').values({ id, name: trimmed, defaultElectionType: null, defaultElectionYear: null, createdAt: at }).execute();
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
    throw new DomainError('not_found', 'account_not_found', `Account ${id} was not found`, [{ field: 'accountId', issue: 'does not exist' }]);
  }
}

/* ---------------- API keys: the secret is shown once and stored only as a hash ---------------- */

function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export async function createApiKey(ctx: DomainContext, accountId: string, label?: string | null) {
  await requireAccount(ctx, accountId);
  const keyId = newId('apiKey');
  const secret = `gds_${randomBytes(32).toString('base64url')}`;
  const at = ctx.now();
  await ctx.store.write((trx) =>
    trx.insertInto('apiKeys').values({ id: keyId, accountId, secretHash: hashSecret(secret).toString('hex'), label: label ?? null, createdAt: at, revokedAt: null, lastUsedAt: null }).execute(),
  );
  return { keyId, secret, accountId };
}

export async function revokeApiKey(ctx: DomainContext, keyId: string, accountId?: string) {
  const at = ctx.now();
  const n = await ctx.store.write(async (trx) => {
    let q = trx.updateTable('apiKeys').set({ revokedAt: at }).where('id', '=', keyId).where('revokedAt', 'is', null);
    if (accountId) q = q.where('accountId', '=', accountId);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows);
  });
  if (n === 0) {
    const exists = await ctx.store.db.selectFrom('apiKeys').select('id').where('id', '=', keyId).$if(accountId !== undefined, (q) => q.where('accountId', '=', accountId ?? '')).executeTakeFirst();
    if (!exists) throw new DomainError('not_found', 'api_key_not_found', `API key ${keyId} was not found`, [{ field: 'keyId', issue: 'does not exist' }]);
  }
  return { keyId, revoked: true as const };
}

export async function listApiKeys(ctx: DomainContext, accountId: string) {
  const rows = await ctx.store.db.selectFrom('apiKeys').select(['id', 'label', 'createdAt', 'revokedAt', 'lastUsedAt']).where('accountId', '=', accountId).orderBy('createdAt', 'desc').execute();
  return rows.map((r) => ({ keyId: r.id, label: r.label, createdAt: r.createdAt, revokedAt: r.revokedAt, lastUsedAt: r.lastUsedAt }));
}

const DUMMY_HASH = hashSecret('no such key');
const lastUsedWritten = new Map<string, number>();

/**
 * The account of a valid, unrevoked key, or null. The secret is compared in constant time,
 * and an unknown key id costs the same hash and compare as a known one.
 */
export async function verifyApiKey(ctx: DomainContext, keyId: string, secret: string): Promise<string | null> {
  const row = await ctx.store.db.selectFrom('apiKeys').select(['accountId', 'secretHash', 'revokedAt']).where('id', '=', keyId).executeTakeFirst();
  const presented = hashSecret(secret);
  const stored = row ? Buffer.from(row.secretHash, 'hex') : DUMMY_HASH;
  const same = stored.length === presented.length && timingSafeEqual(stored, presented);
  if (!row || !same || row.revokedAt !== null) return null;
  const last = lastUsedWritten.get(keyId) ?? 0;
  if (Date.now() - last > 60_000) {
    lastUsedWritten.set(keyId, Date.now());
    const at = ctx.now();
    ctx.store.write((trx) => trx.updateTable('apiKeys').set({ lastUsedAt: at }).where('id', '=', keyId).execute()).catch(() => undefined);
  }
  return row.accountId;
}
