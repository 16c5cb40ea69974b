/**
 * A station's notices marked read through the API: one by one (POST /event/notices/{id}/seen)
 * or all at once (POST /event/notices/seen-all); GET /event's `notices` counts the unread ones,
 * GET /event/notices still lists them all with when each was read. Bad input is a 4xx naming
 * the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContact } from '../../electron/domain/contacts/index.ts';
import { insertHubRemote } from '../../electron/sync/remote/hub-remote.ts';
import { addNotice } from '../../electron/sync/station/notices.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
const q = () => `accountId=${server.accountId}`;

async function unread(): Promise<number> {
  const r = await server.request('GET', `/api/v1/event?${q()}`);
  expect(r.status).toBe(200);
  return r.body.notices as number;
}

beforeAll(async () => {
  server = await startTestServer({ engine: 'sqlite' });
  const { accountId } = server;
  const maria = await createContact(server.ctx, { accountId, firstName: 'Maria', lastName: 'Lopez' });
  const at = new Date().toISOString();
  await server.store.write(async (trx) => {
    await insertHubRemote(
      trx,
      {
        accountId,
        baseUrl: 'https://127.0.0.1:1',
        keyId: 'gdk_STATION',
        secretSealed: 'v1.a.b.c',
        fingerprint: `sha256:${'00:'.repeat(31)}00`,
        stationId: 'stn_A',
        stationName: 'Table A',
      },
      at,
    );
    const pairs: Array<[string, string]> = [
      ['555-0001', '555-0002'],
      ['555-0003', '555-0004'],
      ['555-0005', '555-0006'],
    ];
    for (const [mine, theirs] of pairs)
      await addNotice(trx, { accountId, contactId: maria.id, field: 'primaryPhone', mine, theirs }, at);
  });
});
afterAll(async () => {
  await server?.close();
});

describe('notices marked read', () => {
  it('one by one, then all at once: GET /event counts the unread ones', async () => {
    expect(await unread()).toBe(3);
    const list = (await server.request('GET', `/api/v1/event/notices?${q()}`)).body.notices;
    expect(list.map((n: { seenAt: string | null }) => n.seenAt)).toEqual([null, null, null]);
    const one = await server.request('POST', `/api/v1/event/notices/${list[0].id}/seen`, {
      accountId: server.accountId,
    });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ id: list[0].id, notices: 2 });
    expect(await unread()).toBe(2);
    // Again: nothing changes.
    expect((await server.request('POST', `/api/v1/event/notices/${list[0].id}/seen`, {})).body.notices).toBe(
      2,
    );
    const all = await server.request('POST', '/api/v1/event/notices/seen-all', {
      accountId: server.accountId,
    });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ marked: 2, notices: 0 });
    expect(await unread()).toBe(0);
    const after = (await server.request('GET', `/api/v1/event/notices?${q()}`)).body.notices;
    expect(after).toHaveLength(3);
    expect(after.every((n: { seenAt: string | null }) => n.seenAt !== null)).toBe(true);
  });

  it('a notice that is not there is a 404 naming the id; another account is refused', async () => {
    const r = await server.request('POST', '/api/v1/event/notices/hnt_NOPE/seen', {});
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body)).toContain('"field":"id"');
    const other = await server.otherAccount();
    const cross = await server.request('POST', '/api/v1/event/notices/seen-all', {
      accountId: other.accountId,
    });
    expect(cross.status).toBe(403);
    const bad = await server.request('POST', '/api/v1/event/notices/seen-all', { accountId: 42 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('accountId');
  });
});
