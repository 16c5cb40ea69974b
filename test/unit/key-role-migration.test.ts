/**
 * Migration roles-key-role on a database with keys made before roles: each (a script's key, a
 * revoked one, a desktop window's session key) acts as an administrator afterwards, so a
 * script keeps working; a key made after it has the role it was made with. On SQLite, or
 * PostgreSQL with GIFTDESK_TEST_ENGINE.
 */
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { expect, it } from 'vitest';
import { authenticateApiKey, createApiKey, listApiKeys } from '../../electron/domain/accounts/index.ts';
import { createContext } from '../../electron/domain/context.ts';
import { beforeMigration } from '../helpers/before-migration.ts';

it('makes every key of before an administrator, and keeps the role a later key is made with', async () => {
  const { store, migrate } = await beforeMigration('2026-12-02T0320-roles-key-role');
  const db = store.db as unknown as Kysely<unknown>;
  const at = '2026-12-01T19:42:00.000Z';
  await sql`insert into accounts (id, name, created_at) values ('acct_A', 'Friends of the Library', ${at})`.execute(
    db,
  );
  const hash = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');
  const keys: Array<[string, string, string | null, string | null]> = [
    ['gdk_SCRIPT0000000001', 'gds_script', null, null],
    ['gdk_REVOKED000000001', 'gds_revoked', null, at],
    ['gdk_WINDOW0000000001', 'gds_window', 'browser', null],
  ];
  for (const [id, secret, session, revokedAt] of keys)
    await sql`insert into api_keys (id, account_id, secret_hash, label, created_at, revoked_at, session_kind)
      values (${id}, 'acct_A', ${hash(secret)}, 'nightly import', ${at}, ${revokedAt}, ${session})`.execute(
      db,
    );

  const after = await migrate();
  const ctx = createContext(after);
  expect(await authenticateApiKey(ctx, 'gdk_SCRIPT0000000001', 'gds_script')).toMatchObject({
    accountId: 'acct_A',
    session: null,
    role: 'administrator',
  });
  expect(await authenticateApiKey(ctx, 'gdk_REVOKED000000001', 'gds_revoked')).toBeNull();
  const listed = await listApiKeys(ctx, 'acct_A');
  expect(listed.map((k) => [k.keyId, k.role]).sort()).toEqual([
    ['gdk_REVOKED000000001', 'administrator'],
    ['gdk_SCRIPT0000000001', 'administrator'],
    ['gdk_WINDOW0000000001', 'administrator'],
  ]);

  const desk = await createApiKey(ctx, 'acct_A', 'front desk', undefined, 'volunteer');
  expect(await authenticateApiKey(ctx, desk.keyId, desk.secret)).toMatchObject({ role: 'volunteer' });
});
