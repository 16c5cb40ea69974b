/**
 * Authentication and account scope (docs/design.md "Auth", "accountId"; docs/api-rules.md C5): 401 with
 * WWW-Authenticate for a missing or wrong key, 403 for another account's accountId on every
 * route, 400 naming accountId when it is missing, and nothing changed by any refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  expectRejected,
  expectStatus,
  expectUnchanged,
  giftBody,
  makeCampaign,
  makeContact,
  makeCustomField,
  makeDonation,
  makeDonationAccount,
  snapshot,
} from '../helpers/api-fixtures.ts';
import { rawRequest, startTestServer, type ApiResponse, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let other: { accountId: string; keyId: string; secret: string };
let contactId: string;
let campaignId: string;
let donationAccountId: string;
let customFieldId: string;
let donationId: string;
let flagId: string;
let batchId: string;

beforeAll(async () => {
  s = await startTestServer();
  other = await s.otherAccount();
  contactId = (await makeContact(s, { firstName: 'Grace', lastName: 'Hopper' })).id;
  campaignId = (await makeCampaign(s)).id;
  donationAccountId = (await makeDonationAccount(s, { perElection: 100 })).id;
  customFieldId = (await makeCustomField(s, 'Tier', 'text')).id;
  donationId = (await makeDonation(s, contactId, { campaignId })).id;
  batchId = expectStatus(
    await s.request('POST', '/api/v1/batches', { accountId: s.accountId, name: 'Table 1' }),
    201,
  ).id;
  await makeDonation(s, contactId, { donationAccountId, donationAmount: 150 });
  const flags = expectStatus(await s.request('GET', `/api/v1/flags?accountId=${s.accountId}`), 200);
  flagId = flags.flagged[0].id;
});
afterAll(async () => {
  await s?.close();
});

const send = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<ApiResponse> => rawRequest(`${s.url}${path}`, method, body, headers);

function expect401(res: ApiResponse): void {
  expectError(res, 401, { code: 'unauthorized' });
  expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/);
}

describe('401: missing or wrong credentials', () => {
  it('refuses a request without X-API-Key, and saves nothing', async () => {
    const res = await expectRejected(
      s,
      () =>
        send(
          'POST',
          '/api/v1/contacts',
          { authorization: `Bearer ${s.secret}` },
          { accountId: s.accountId, firstName: 'No', lastName: 'Key' },
        ),
      401,
    );
    expect401(res);
    expect(res.body.message).toMatch(/X-API-Key/);
  });

  it('refuses a request without Authorization', async () => {
    const res = await expectRejected(
      s,
      () =>
        send('POST', '/api/v1/donations', { 'x-api-key': s.keyId }, giftBody(s, contactId, { campaignId })),
      401,
    );
    expect401(res);
    expect(res.body.message).toMatch(/Authorization/);
  });

  it('refuses a wrong secret, an unknown key id, and a non-Bearer scheme', async () => {
    const before = await snapshot(s, { contacts: [contactId] });
    const path = `/api/v1/contacts/${contactId}?accountId=${s.accountId}`;
    expect401(await send('GET', path, { 'x-api-key': s.keyId, authorization: `Bearer ${s.secret}x` }));
    expect401(
      await send('GET', path, {
        'x-api-key': 'gdk_01JD0000000000000000000000',
        authorization: `Bearer ${s.secret}`,
      }),
    );
    expect401(
      await send('GET', path, {
        'x-api-key': s.keyId,
        authorization: `Basic ${Buffer.from(`${s.keyId}:${s.secret}`).toString('base64')}`,
      }),
    );
    expect401(await send('DELETE', path, { 'x-api-key': s.keyId, authorization: 'Bearer ' }));
    // another account's valid key with this key's secret, and the other way round
    expect401(await send('GET', path, { 'x-api-key': other.keyId, authorization: `Bearer ${s.secret}` }));
    expect401(await send('DELETE', path, { 'x-api-key': s.keyId, authorization: `Bearer ${other.secret}` }));
    await expectUnchanged(s, before);
  });

  it('refuses a revoked key (and the key worked until it was revoked)', async () => {
    const created = expectStatus(
      await s.request('POST', '/api/v1/api-keys', { accountId: s.accountId, label: 'script' }),
      201,
    );
    expect(created.keyId).toMatch(/^gdk_/);
    const headers = { 'x-api-key': created.keyId, authorization: `Bearer ${created.secret}` };
    expectStatus(await send('GET', `/api/v1/contacts?accountId=${s.accountId}`, headers), 200);
    const revoked = expectStatus(
      await s.request('DELETE', `/api/v1/api-keys/${created.keyId}?accountId=${s.accountId}`),
      200,
    );
    expect(revoked).toEqual({ keyId: created.keyId, revoked: true });
    const res = await expectRejected(
      s,
      () =>
        send('POST', '/api/v1/contacts', headers, {
          accountId: s.accountId,
          firstName: 'After',
          lastName: 'Revoke',
        }),
      401,
    );
    expect401(res);
    // the key that made it still works
    expectStatus(await s.request('GET', `/api/v1/contacts?accountId=${s.accountId}`), 200);
  });

  it('never lists a secret among the keys', async () => {
    const keys = expectStatus(await s.request('GET', `/api/v1/api-keys?accountId=${s.accountId}`), 200);
    expect(keys.data.map((k: { keyId: string }) => k.keyId)).toContain(s.keyId);
    expect(JSON.stringify(keys)).not.toContain(s.secret);
  });

  it('shows a new secret once and stores only a hash of it', async () => {
    const created = expectStatus(
      await s.request('POST', '/api/v1/api-keys', { accountId: s.accountId }),
      201,
    );
    expect(Object.keys(created).sort()).toEqual(['accountId', 'keyId', 'role', 'secret']);
    expect(created.secret.length).toBeGreaterThanOrEqual(32);
    const stored = await snapshot(s);
    for (const secret of [created.secret, s.secret]) {
      for (const [table, rows] of Object.entries(stored.rows)) {
        for (const row of rows) expect(row, table).not.toContain(secret);
      }
    }
    const listed = expectStatus(await s.request('GET', `/api/v1/api-keys?accountId=${s.accountId}`), 200);
    expect(listed.data.find((k: { keyId: string }) => k.keyId === created.keyId)).toEqual({
      keyId: created.keyId,
      label: null,
      createdAt: expect.stringMatching(/Z$/),
      revokedAt: null,
      lastUsedAt: null,
      session: null, // a permanent key
      role: 'administrator', // a key made without a role
    });
  });
});

describe('403: a valid key used with another account', () => {
  it("refuses another account's accountId on every route, and changes nothing in either account", async () => {
    const doc = expectStatus(await s.request('GET', '/api/v1/openapi.json'), 200);
    const idFor = (path: string): string => {
      if (path.startsWith('/api/v1/contacts/')) return contactId;
      if (path.startsWith('/api/v1/donations/')) return donationId;
      if (path.startsWith('/api/v1/campaigns/')) return campaignId;
      if (path.startsWith('/api/v1/donation-accounts/')) return donationAccountId;
      if (path.startsWith('/api/v1/custom-fields/')) return customFieldId;
      if (path.startsWith('/api/v1/flags/')) return flagId;
      if (path.startsWith('/api/v1/api-keys/')) return s.keyId;
      if (path.startsWith('/api/v1/batches/')) return batchId;
      return 'x_01JD0000000000000000000000';
    };
    // Bodies that would succeed for this key's own account: the accountId alone makes them fail.
    const bodies: Record<string, Record<string, unknown>> = {
      'POST /api/v1/contacts': { firstName: 'Cross', lastName: 'Account' },
      'PUT /api/v1/contacts/{id}': { firstName: 'Changed' },
      'POST /api/v1/donations': giftBody(s, contactId, { campaignId }),
      'POST /api/v1/campaigns': { name: 'Cross' },
      'PUT /api/v1/campaigns/{id}': { name: 'Renamed', donationAccountIds: [] },
      'POST /api/v1/committees': { name: 'Cross' },
      'PUT /api/v1/committees/{id}': { name: 'Renamed' },
      'POST /api/v1/donation-accounts': { name: 'Cross', limits: { perYear: 10 } },
      'PUT /api/v1/donation-accounts/{id}': { name: 'Renamed', limits: { perElection: 1 } },
      'POST /api/v1/custom-fields': { name: 'Cross', type: 'text' },
      'POST /api/v1/custom-fields/{id}/actions': { action: 'archive' },
      'POST /api/v1/elections': {
        electionType: 'general',
        electionYear: 2026,
        electionDate: '2026-11-03',
        isDefault: true,
      },
      'PUT /api/v1/elections/default': { electionType: 'general', electionYear: 2030 },
      'POST /api/v1/flags/{id}/actions': { action: 'refund' },
      'POST /api/v1/api-keys': { label: 'cross' },
      'POST /api/v1/batches': { name: 'Cross' },
      'PUT /api/v1/batches/{id}': { name: 'Renamed', closed: true },
      'POST /api/v1/batches/{id}/donations': giftBody(s, contactId, { campaignId }),
      'POST /api/v1/batches/{id}/count': {
        countedBy: 'Cross',
        counted: [{ paymentMethod: 'cash', total: 10 }],
        acceptDifference: true,
      },
      'PATCH /api/v1/donations/{id}': { donationAmount: 12 },
      'POST /api/v1/donations/{id}/void': { reason: 'cross' },
      'PUT /api/v1/sync/settings': {
        baseUrl: 'http://127.0.0.1:9',
        keyId: 'gdk_x',
        secret: 'gds_x',
        remoteAccountId: 'acct_hq',
      },
      'POST /api/v1/sync/items/{entityType}/{id}/retry': {},
      'POST /api/v1/sync/items/{entityType}/{id}/discard': {},
      'POST /api/v1/sync/run': {},
      'POST /api/v1/sync/pull': {},
      'POST /api/v1/sync/links': { kind: 'campaign', localId: 'x', remoteId: 'y' },
      'POST /api/v1/event/join': {
        url: 'https://127.0.0.1:9',
        code: 'ABCD-EFGH',
        fingerprint: `sha256:${'ab'.repeat(32)}`,
        name: 'Cross',
      },
      'POST /api/v1/event/notices/{id}/seen': {},
      'POST /api/v1/event/notices/seen-all': {},
      'PUT /api/v1/letters/settings': { orgKind: 'charity' },
      'POST /api/v1/letters/runs': { kind: 'thank-you' },
      'POST /api/v1/letters/runs/{id}/mark-sent': {},
      'POST /api/v1/donations/thank-you': { donations: [{ id: donationId, thankYouSentDate: '2026-12-01' }] },
      'POST /api/v1/users': { email: 'cross@example.org', name: 'Cross', role: 'volunteer' },
      'PATCH /api/v1/users/{id}': { role: 'administrator' },
      'POST /api/v1/users/{id}/password-link': {},
      'POST /api/v1/sign-out': {},
      'POST /api/v1/history': {
        entries: [
          {
            id: 'cross:1',
            record: 'donation',
            recordId: donationId,
            action: 'corrected',
            at: '2026-12-01T19:00:00.000Z',
            note: null,
            by: { name: 'Cross', stationName: 'Table A', keyId: null },
            fields: ['donationAmount'],
            changes: [{ field: 'donationAmount', before: 19.99, after: 29.99 }],
          },
        ],
      },
    };
    // Public routes whose credential is not a key (a password, a one-time link): no key's account to refuse.
    const publicRoutes = ['/api/v1/sign-in', '/api/v1/set-password'];
    const before = await snapshot(s, { contacts: [contactId] });
    const tried: string[] = [];
    const uncovered: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      if (publicRoutes.includes(path)) continue;
      for (const method of Object.keys(ops).map((m) => m.toUpperCase())) {
        if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
        const url = path
          .replace(/\{id\}/g, idFor(path))
          .replace('{entityType}', 'donation')
          .replace('{part}', '1');
        let res: ApiResponse;
        if (method === 'GET' || method === 'DELETE') {
          // A preview needs its kind too, or it is a 400 before the account is looked at.
          const more = path === '/api/v1/letters/preview' ? '&kind=thank-you' : '';
          res = await s.request(method, `${url}?accountId=${other.accountId}${more}`);
        } else if (method === 'POST' && path === '/api/v1/imports') {
          // a file upload: accountId is in the query, the body is the CSV
          res = await s.request(
            method,
            `${url}?accountId=${other.accountId}&kind=contacts`,
            'firstName,lastName\nCross,Account\n',
            { 'content-type': 'text/csv' },
          );
        } else {
          const body = bodies[`${method} ${path}`];
          if (!body) {
            uncovered.push(`${method} ${path}`);
            continue;
          }
          res = await s.request(method, url, { ...body, accountId: other.accountId });
        }
        tried.push(`${method} ${path}`);
        expectError(res, 403, { code: 'account_forbidden', field: 'accountId' });
      }
    }
    expect(uncovered, 'every writing route needs a body in this table so its 403 is proven').toEqual([]);
    for (const spec of [
      'GET /api/v1/donations',
      'POST /api/v1/donations',
      'GET /api/v1/contacts',
      'POST /api/v1/contacts',
      'GET /api/v1/contacts/{id}',
      'PUT /api/v1/contacts/{id}',
      'DELETE /api/v1/contacts/{id}',
    ]) {
      expect(tried).toContain(spec);
    }
    await expectUnchanged(s, before);
    // the other account's key still sees its own (empty) account untouched
    const theirs = await rawRequest(
      `${s.url}/api/v1/contacts?accountId=${other.accountId}`,
      'GET',
      undefined,
      { 'x-api-key': other.keyId, authorization: `Bearer ${other.secret}` },
    );
    expect(expectStatus(theirs, 200)).toEqual({ data: [], total: 0, limit: 20, offset: 0 });
  });

  it('refuses an accountId that names no account at all', async () => {
    await expectRejected(
      s,
      () => s.request('GET', '/api/v1/contacts?accountId=acct_01JD0000000000000000000000'),
      403,
      { code: 'account_forbidden', field: 'accountId' },
    );
  });

  it("answers 404 for another account's contact read with the other account's own key", async () => {
    const theirs = { 'x-api-key': other.keyId, authorization: `Bearer ${other.secret}` };
    const before = await snapshot(s, { contacts: [contactId] });
    const get = await send('GET', `/api/v1/contacts/${contactId}?accountId=${other.accountId}`, theirs);
    expectError(get, 404, { code: 'contact_not_found' });
    const missing = await s.request(
      'GET',
      `/api/v1/contacts/cnt_01JD0000000000000000000000?accountId=${s.accountId}`,
    );
    expectError(missing, 404, { code: 'contact_not_found' });
    expect(Object.keys(get.body).sort()).toEqual(Object.keys(missing.body).sort());
    expectError(await send('PUT', `/api/v1/contacts/${contactId}`, theirs, { firstName: 'Mallory' }), 404, {
      code: 'contact_not_found',
    });
    expectError(
      await send('DELETE', `/api/v1/contacts/${contactId}?accountId=${other.accountId}`, theirs),
      404,
      { code: 'contact_not_found' },
    );
    await expectUnchanged(s, before);
  });
});

describe('400: accountId missing', () => {
  it.each([
    ['GET', '/api/v1/contacts'],
    ['GET', '/api/v1/donations'],
    ['GET', '/api/v1/contacts/{contact}'],
    ['DELETE', '/api/v1/contacts/{contact}'],
    ['GET', '/api/v1/contacts?limit=5'],
    ['GET', '/api/v1/contacts?accountId='],
  ])('%s %s without accountId in the query → 400 naming accountId', async (method, path) => {
    await expectRejected(s, () => s.request(method, path.replace('{contact}', contactId)), 400, {
      code: 'validation_failed',
      field: 'accountId',
      contacts: [contactId],
    });
  });

  it('POST /contacts and POST /donations without accountId in the body → 400 naming accountId', async () => {
    await expectRejected(
      s,
      () => s.request('POST', '/api/v1/contacts', { firstName: 'No', lastName: 'Account' }),
      400,
      { code: 'validation_failed', field: 'accountId' },
    );
    const { accountId: _omit, ...gift } = giftBody(s, contactId, { campaignId });
    await expectRejected(s, () => s.request('POST', '/api/v1/donations', gift), 400, {
      code: 'validation_failed',
      field: 'accountId',
      contacts: [contactId],
    });
  });
});

describe('C5: PUT and accountId', () => {
  it("without accountId, updates the contact in the key's own account", async () => {
    const c = await makeContact(s, { firstName: 'Katherine', lastName: 'Johnson' });
    const res = await s.request('PUT', `/api/v1/contacts/${c.id}`, { occupation: 'Mathematician' });
    const body = expectStatus(res, 200);
    expect(body.occupation).toBe('Mathematician');
    expect(
      (await s.request('GET', `/api/v1/contacts/${c.id}?accountId=${s.accountId}`)).body.occupation,
    ).toBe('Mathematician');
  });

  it('with its own accountId, updates too', async () => {
    const c = await makeContact(s, { firstName: 'Dorothy', lastName: 'Vaughan' });
    expect(
      expectStatus(
        await s.request('PUT', `/api/v1/contacts/${c.id}`, { accountId: s.accountId, title: 'Supervisor' }),
        200,
      ).title,
    ).toBe('Supervisor');
  });

  it("with another account's accountId → 403, and the contact is unchanged", async () => {
    await expectRejected(
      s,
      () =>
        s.request('PUT', `/api/v1/contacts/${contactId}`, {
          accountId: other.accountId,
          firstName: 'Changed',
        }),
      403,
      {
        code: 'account_forbidden',
        field: 'accountId',
        contacts: [contactId],
      },
    );
  });
});
