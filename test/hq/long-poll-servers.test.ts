/**
 * Two HQ servers on one PostgreSQL database, each with its own pool and its own listening
 * connection (nothing shared but the database): a long poll of the hub's feed held by server
 * A is answered when a write goes through server B, because B's NOTIFY reaches A. A's own
 * tick, which would find the write without being told, is set to ten minutes here, longer
 * than the poll's 30-s wait and than each test's 15-s timeout: only a notification can answer
 * the poll in time, and the answer carries B's write. Also: A's listening connection dropped
 * and opened again looks once (what was published while it was down is not lost), and an open
 * window on A (GET /live) hears of a write another key made through B.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubChanges } from '#shared/schemas/hub.ts';
import { openStore } from '../../electron/db/open.ts';
import { LISTEN_APPLICATION } from '../../electron/db/postgres/change-channel.ts';
import type { Store } from '../../electron/db/store.ts';
import { createAccount } from '../../electron/domain/accounts/accounts.ts';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { createContact } from '../../electron/domain/contacts/create.ts';
import { createContext } from '../../electron/domain/context.ts';
import { ensureHubCertificate } from '../../electron/hub/certificate.ts';
import { createPairingCode } from '../../electron/hub/pairing.ts';
import { type RunningServer, startServer } from '../../electron/server/serve.ts';
import { expectStatus } from '../helpers/api-fixtures.ts';
import { type ApiResponse, TEST_ENGINE, freshDatabase, rawRequest, tempDir } from '../helpers/server.ts';
import { httpsRequest } from '../hub/hub-rig.ts';

const TEN_MINUTES = 600_000;
const NO_LIMIT = { ratePerSecond: 100_000, burst: 100_000 };

describe.skipIf(TEST_ENGINE !== 'postgres')('long polls across two HQ servers on one database', () => {
  let drop: () => Promise<void> = async () => undefined;
  const stores: Store[] = [];
  let a: RunningServer;
  let b: RunningServer;
  let accountId: string;
  let person: { keyId: string; secret: string };
  let otherDesk: { keyId: string; secret: string };
  let station: (method: string, p: string) => Promise<ApiResponse>;
  let cursor = '';
  let ca: Buffer;

  const asKey = (k: { keyId: string; secret: string }) => ({
    'x-api-key': k.keyId,
    authorization: `Bearer ${k.secret}`,
  });
  const throughB = (method: string, p: string, body: unknown, k = person) =>
    rawRequest(`${b.url}${p}`, method, body, asKey(k));

  beforeAll(async () => {
    const fresh = await freshDatabase('postgres');
    drop = fresh.drop;
    const storeA = await openStore({ dataDir: fresh.dataDir, databaseUrl: fresh.databaseUrl });
    stores.push(storeA);
    const ctxA = createContext(storeA);
    accountId = (await createAccount(ctxA, 'Łukasz Żółć Foundation')).id;
    person = await createApiKey(ctxA, accountId, 'the person hosting');
    otherDesk = await createApiKey(ctxA, accountId, 'the other desk');
    const cert = await ensureHubCertificate(fresh.dataDir, ['127.0.0.1']);
    ca = cert.cert;
    a = await startServer({
      store: storeA,
      port: 0,
      rateLimit: NO_LIMIT,
      https: { cert: cert.cert, key: cert.key },
      hub: {
        dataDir: fresh.dataDir,
        account: { id: accountId, fingerprint: cert.fingerprint },
        feedIntervalMs: TEN_MINUTES,
      },
    });
    const storeB = await openStore({ dataDir: tempDir(), databaseUrl: fresh.databaseUrl });
    stores.push(storeB);
    b = await startServer({ store: storeB, port: 0, rateLimit: NO_LIMIT });

    const joined = expectStatus(
      await httpsRequest(
        `${a.url}/api/v1/hub/join`,
        'POST',
        { code: (await createPairingCode(ctxA, accountId)).code, name: 'Table A' },
        {},
        cert.cert,
      ),
      201,
    ) as { keyId: string; secret: string; station: { id: string } };
    station = (method, p) => httpsRequest(`${a.url}${p}`, method, undefined, asKey(joined), cert.cert);
    expectStatus(
      await httpsRequest(
        `${a.url}/api/v1/hub/join/confirm`,
        'POST',
        { stationId: joined.station.id },
        asKey(joined),
        cert.cert,
      ),
      200,
    );
    for (;;) {
      const page = HubChanges.parse(
        expectStatus(await station('GET', `/api/v1/hub/changes?after=${encodeURIComponent(cursor)}`), 200),
      );
      cursor = page.cursor;
      if (!page.more) break;
    }
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await drop();
  });

  const heldOnA = () => station('GET', `/api/v1/hub/changes?after=${encodeURIComponent(cursor)}&wait=30`);

  it('a long poll on A is answered with the donor written through B', { timeout: 15_000 }, async () => {
    const held = heldOnA();
    await expect.poll(() => a.hub!.feed.waiting).toBe(1);
    const created = expectStatus(
      await throughB('POST', '/api/v1/contacts', { accountId, firstName: 'Robert', lastName: 'Brown' }),
      201,
    ) as { id: string };
    const page = HubChanges.parse(expectStatus(await held, 200));
    expect(page.contacts.map((c) => c.id)).toEqual([created.id]);
    cursor = page.cursor;
  });

  it(
    'a dropped listening connection, once open again, wakes what it may have missed',
    { timeout: 15_000 },
    async () => {
      const held = heldOnA();
      await expect.poll(() => a.hub!.feed.waiting).toBe(1);
      // Written straight to the database through B's domain: no request, so nobody is told.
      const quiet = await createContact(createContext(stores[1]!), {
        accountId,
        firstName: 'Robert',
        lastName: 'Brown',
      });
      // Both servers' listening connections are ended, as a database restart would end them.
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
              where application_name = ${LISTEN_APPLICATION} and datname = current_database()`.execute(
        stores[1]!.db,
      );
      const page = HubChanges.parse(expectStatus(await held, 200));
      expect(page.contacts.map((c) => c.id)).toEqual([quiet.id]);
      cursor = page.cursor;
      // Listening again: the next write through B reaches A's next poll as before.
      const next = heldOnA();
      await expect.poll(() => a.hub!.feed.waiting).toBe(1);
      const third = expectStatus(
        await throughB('POST', '/api/v1/contacts', { accountId, firstName: 'Robert', lastName: 'Browne' }),
        201,
      ) as { id: string };
      const after = HubChanges.parse(expectStatus(await next, 200));
      expect(after.contacts.map((c) => c.id)).toEqual([third.id]);
      cursor = after.cursor;
    },
  );

  it("an open window on A hears of another key's write through B (GET /live)", async () => {
    const live = async () =>
      (
        expectStatus(
          await httpsRequest(
            `${a.url}/api/v1/live?accountId=${accountId}`,
            'GET',
            undefined,
            asKey(person),
            ca,
          ),
          200,
        ) as { version: number }
      ).version;
    const before = await live();
    expectStatus(
      await throughB(
        'POST',
        '/api/v1/contacts',
        { accountId, firstName: 'Ana', lastName: 'Núñez' },
        otherDesk,
      ),
      201,
    );
    await expect.poll(live).toBeGreaterThan(before);
  });
});
