/**
 * The sync tables on a real database (SQLite, or PostgreSQL with GIFTDESK_TEST_ENGINE):
 * the id map, remote settings with the secret sealed, the key file's permissions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/db/open.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createContext } from '../../electron/domain/context.ts';
import {
  getRemoteSettings,
  loadRemoteConfig,
  normaliseBaseUrl,
  saveRemoteSettings,
} from '../../electron/sync/remote/settings.ts';
import {
  KEY_FILE,
  envKeySource,
  keyFileSource,
  openSecret,
  sealSecret,
} from '../../electron/sync/remote/secret-box.ts';
import {
  linkRemote,
  localIdFor,
  remoteIdFor,
  remoteIdsFor,
  unlinkRemote,
} from '../../electron/sync/outbox/links.ts';
import { freshDatabase } from '../helpers/server.ts';

let store: Store;
let drop: () => Promise<void>;
let dataDir: string;
let accountId: string;

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  dataDir = fresh.dataDir;
  store = await openStore({ dataDir, databaseUrl: fresh.databaseUrl });
  accountId = (await createAccount(createContext(store), 'Sync Org')).id;
});
afterAll(async () => {
  await store.close();
  await drop();
});

describe('id map', () => {
  it('links, finds both ways, relinks and unlinks', async () => {
    const at = new Date().toISOString();
    expect(await remoteIdFor(store.db, 'contact', 'cnt_A')).toBeNull();
    await store.write((trx) =>
      linkRemote(trx, {
        accountId,
        entityType: 'contact',
        localId: 'cnt_A',
        remoteId: 'hq_1',
        source: 'pushed',
        at,
      }),
    );
    expect(await remoteIdFor(store.db, 'contact', 'cnt_A')).toBe('hq_1');
    expect(await localIdFor(store.db, accountId, 'contact', 'hq_1')).toBe('cnt_A');
    expect(await remoteIdFor(store.db, 'donation', 'cnt_A')).toBeNull(); // per type
    await store.write((trx) =>
      linkRemote(trx, {
        accountId,
        entityType: 'contact',
        localId: 'cnt_A',
        remoteId: 'hq_2',
        source: 'found',
        at,
      }),
    );
    expect(await remoteIdFor(store.db, 'contact', 'cnt_A')).toBe('hq_2');
    expect([...(await remoteIdsFor(store.db, 'contact', ['cnt_A', 'cnt_B']))]).toEqual([['cnt_A', 'hq_2']]);
    // one HQ record, one local record
    await expect(
      store.write((trx) =>
        linkRemote(trx, {
          accountId,
          entityType: 'contact',
          localId: 'cnt_B',
          remoteId: 'hq_2',
          source: 'pulled',
          at,
        }),
      ),
    ).rejects.toThrow();
    await store.write((trx) => unlinkRemote(trx, 'contact', 'cnt_A'));
    expect(await remoteIdFor(store.db, 'contact', 'cnt_A')).toBeNull();
  });

  it('the outbox has the sync columns, pending by default', async () => {
    const row = await store.db
      .selectFrom('changeLog')
      .selectAll()
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    // createAccount logs nothing; insert through the domain's own helper instead
    expect(row).toBeUndefined();
    await store.write((trx) =>
      trx
        .insertInto('changeLog')
        .values({
          accountId,
          entityType: 'contact',
          entityId: 'cnt_X',
          op: 'create',
          fields: null,
          push: 1,
          createdAt: new Date().toISOString(),
        })
        .execute(),
    );
    const r = await store.db
      .selectFrom('changeLog')
      .selectAll()
      .where('accountId', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(r.syncedAt).toBeNull();
    expect(r.attemptId).toBeNull();
  });
});

describe('secret at rest', () => {
  it('the key file is created owner-only and a readable one is refused', async () => {
    const dir = fs.mkdtempSync(path.join(dataDir, 'keys-'));
    const src = keyFileSource(dir);
    const sealed = await sealSecret(src, 'gds_topsecret');
    expect(sealed).not.toContain('topsecret');
    expect(await openSecret(src, sealed)).toBe('gds_topsecret');
    const file = path.join(dir, KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.chmodSync(file, 0o644);
    await expect(src.key()).rejects.toThrow(/chmod 600/);
  });

  it('an env key works and another key cannot open the secret', async () => {
    const a = envKeySource({ GIFTDESK_SYNC_KEY: 'a'.repeat(64) })!;
    const b = envKeySource({ GIFTDESK_SYNC_KEY: 'b'.repeat(64) })!;
    const sealed = await sealSecret(a, 's3cret');
    expect(await openSecret(a, sealed)).toBe('s3cret');
    await expect(openSecret(b, sealed)).rejects.toThrow(/cannot be decrypted/);
    expect(envKeySource({})).toBeNull();
  });

  it('settings keep the secret sealed and never show it', async () => {
    const keys = envKeySource({ GIFTDESK_SYNC_KEY: 'c'.repeat(64) })!;
    await expect(
      saveRemoteSettings(
        store,
        keys,
        { accountId, baseUrl: 'https://hq.example.org/api/v1/', keyId: 'gdk_x', remoteAccountId: 'acct_hq' },
        new Date().toISOString(),
      ),
    ).rejects.toThrow(/secret/);
    const saved = await saveRemoteSettings(
      store,
      keys,
      {
        accountId,
        baseUrl: 'https://hq.example.org/api/v1/',
        keyId: 'gdk_x',
        secret: 'gds_plain',
        remoteAccountId: 'acct_hq',
      },
      new Date().toISOString(),
    );
    expect(saved.baseUrl).toBe('https://hq.example.org');
    expect(saved.ratePerSecond).toBe(5);
    expect(JSON.stringify(saved)).not.toContain('gds_plain');
    const row = await store.db.selectFrom('syncRemotes').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('gds_plain');
    expect((await loadRemoteConfig(store.db, keys, accountId))!.secret).toBe('gds_plain');
    // a later save without the secret keeps it
    await saveRemoteSettings(
      store,
      keys,
      {
        accountId,
        baseUrl: 'http://127.0.0.1:9',
        keyId: 'gdk_y',
        remoteAccountId: 'acct_hq',
        ratePerSecond: 2,
      },
      new Date().toISOString(),
    );
    expect((await loadRemoteConfig(store.db, keys, accountId))!.secret).toBe('gds_plain');
    expect((await getRemoteSettings(store.db, accountId))!.ratePerSecond).toBe(2);
    expect(() => normaliseBaseUrl('ftp://x')).toThrow(/baseUrl/);
  });
});
