/**
 * The HTTP layer (docs/design.md "Errors", "Rate limits", loopback Host): headers on every
 * response, 429 with Retry-After, 413, invalid JSON, unknown routes, refused Host headers,
 * no stack traces, id prefixes, and the OpenAPI document.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  expectRejected,
  expectStatus,
  expectUnchanged,
  giftBody,
  looksLikeStack,
  makeCampaign,
  makeContact,
  makeDonation,
  snapshot,
} from '../helpers/api-fixtures.ts';
import { rawRequest, startTestServer, type ApiResponse, type TestServer } from '../helpers/server.ts';

/** Any reset the server sends is at or after this (Unix seconds, not seconds from now). */
const FILE_STARTED_AT = Date.now();
let s: TestServer;
let contactId: string;

beforeAll(async () => {
  s = await startTestServer();
  contactId = (await makeContact(s)).id;
});
afterAll(async () => {
  await s?.close();
});

/** A request over node:http, which (unlike fetch) lets a test choose the Host header. */
function viaHttp(
  t: TestServer,
  opts: { method?: string; path: string; host?: string; body?: string; headers?: Record<string, string> },
): Promise<ApiResponse> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: {
          'x-api-key': t.keyId,
          authorization: `Bearer ${t.secret}`,
          ...(opts.host ? { host: opts.host } : {}),
          ...(opts.body ? { 'content-type': 'application/json' } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
          resolve({ status: res.statusCode ?? 0, headers, body, text });
        });
      },
    );
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

function expectStandardHeaders(res: ApiResponse, label: string): void {
  expect(res.headers.get('x-request-id'), label).toMatch(/^req_[0-9A-Z]{26}$/);
  const limit = Number(res.headers.get('x-ratelimit-limit'));
  const remaining = Number(res.headers.get('x-ratelimit-remaining'));
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  expect(
    Number.isInteger(limit) && limit > 0,
    `${label}: X-RateLimit-Limit ${res.headers.get('x-ratelimit-limit')}`,
  ).toBe(true);
  expect(
    Number.isInteger(remaining) && remaining >= 0 && remaining <= limit,
    `${label}: X-RateLimit-Remaining`,
  ).toBe(true);
  expect(
    Number.isInteger(reset) && reset >= Math.floor(FILE_STARTED_AT / 1000) && reset < 4_102_444_800,
    `${label}: X-RateLimit-Reset is Unix seconds`,
  ).toBe(true);
}

describe('headers on every response', () => {
  it('X-Request-Id (unique) and X-RateLimit-Limit/Remaining/Reset, on successes and on every kind of error', async () => {
    const created = await s.request('POST', '/api/v1/contacts', {
      accountId: s.accountId,
      firstName: 'Head',
      lastName: 'Ers',
    });
    expectStatus(created, 201);
    const before = await snapshot(s, { contacts: [created.body.id] });
    // one after another (a request's headers never depend on another in flight); none changes anything
    const cases: Array<[string, () => Promise<ApiResponse>]> = [
      ['200 list', () => s.request('GET', `/api/v1/contacts?accountId=${s.accountId}`)],
      ['400 validation', () => s.request('POST', '/api/v1/contacts', { accountId: s.accountId })],
      ['400 invalid JSON', () => s.request('POST', '/api/v1/contacts', '{"accountId": ')],
      ['401', () => rawRequest(`${s.url}/api/v1/contacts?accountId=${s.accountId}`, 'GET')],
      ['403 account', () => s.request('GET', '/api/v1/contacts?accountId=acct_other')],
      [
        '404 contact',
        () => s.request('GET', `/api/v1/contacts/cnt_01JD0000000000000000000000?accountId=${s.accountId}`),
      ],
      ['404 route', () => s.request('GET', '/api/v1/nothing-here')],
      [
        '413',
        () =>
          s.request('POST', '/api/v1/contacts', {
            accountId: s.accountId,
            firstName: 'x',
            lastName: 'y',
            quickNotes: 'x'.repeat(1_100_000),
          }),
      ],
      [
        '415',
        () =>
          s.request('POST', '/api/v1/contacts', 'firstName=x', {
            'content-type': 'application/x-www-form-urlencoded',
          }),
      ],
      ['200 openapi', () => rawRequest(`${s.url}/api/v1/openapi.json`, 'GET')],
      [
        '403 host',
        () =>
          viaHttp(s, {
            method: 'POST',
            path: '/api/v1/contacts',
            host: 'evil.example',
            body: JSON.stringify({ accountId: s.accountId, firstName: 'a', lastName: 'b' }),
          }),
      ],
    ];
    const ids = new Set<string>([created.headers.get('x-request-id') ?? '']);
    expectStandardHeaders(created, '201 create');
    for (const [label, send] of cases) {
      const res = await send();
      expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBe(Number(label.slice(0, 3)));
      expectStandardHeaders(res, label);
      ids.add(res.headers.get('x-request-id') ?? '');
      expect(looksLikeStack(res.text), label).toBe(false);
    }
    expect(ids.size).toBe(cases.length + 1);
    await expectUnchanged(s, before);
  });
});

describe('rate limit', () => {
  it('charges failed keys to the caller too: made-up key ids cannot dodge the limit', async () => {
    const t = await startTestServer({ rateLimit: { ratePerSecond: 0.01, burst: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const made = `gdk_${String(i).padStart(26, '0')}`;
        const res = await rawRequest(`${t.url}/api/v1/contacts?accountId=${t.accountId}`, 'GET', undefined, {
          'x-api-key': made,
          authorization: 'Bearer guess',
        });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.slice(3)).toEqual([429, 429, 429]);
      // the real key keeps its own bucket
      expect((await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}`)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('a wrong secret sent with a real key id never drains that key: its holder keeps working while the guesser is refused', async () => {
    const t = await startTestServer({ rateLimit: { ratePerSecond: 0.01, burst: 3 } });
    try {
      const guesses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await rawRequest(`${t.url}/api/v1/contacts?accountId=${t.accountId}`, 'GET', undefined, {
          'x-api-key': t.keyId,
          authorization: `Bearer gds_wrong${i}`,
        });
        guesses.push(res.status);
      }
      expect(guesses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(new Set(guesses.slice(3))).toEqual(new Set([429]));
      // The holder of the key still has the whole burst: 3 of 3 answered, none 429.
      const holder: number[] = [];
      for (let i = 0; i < 3; i++)
        holder.push((await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}`)).status);
      expect(holder).toEqual([200, 200, 200]);
    } finally {
      await t.close();
    }
  });

  it('answers 429 with Retry-After and retryAfter once the bucket is empty, saving nothing; other keys are not affected', async () => {
    const t = await startTestServer({ rateLimit: { ratePerSecond: 0.01, burst: 3 } });
    try {
      const remaining: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await t.request('GET', `/api/v1/contacts?accountId=${t.accountId}`);
        expectStatus(res, 200);
        expect(res.headers.get('x-ratelimit-limit')).toBe('3');
        remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
      }
      expect(remaining).toEqual([2, 1, 0]);
      const before = await snapshot(t, { viaApi: false });
      const sentAt = Date.now(); // the server's clock reads at least this when it answers
      const res = await t.request('POST', '/api/v1/contacts', {
        accountId: t.accountId,
        firstName: 'Too',
        lastName: 'Fast',
      });
      expectError(res, 429, { code: 'rate_limited' });
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
      expect(res.body.retryAfter).toBe(retryAfter);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(
        Math.floor(sentAt / 1000) + retryAfter - 1,
      );
      await expectUnchanged(t, before);
      // another key has its own bucket
      const other = await t.otherAccount();
      const theirs = await rawRequest(
        `${t.url}/api/v1/contacts?accountId=${other.accountId}`,
        'GET',
        undefined,
        { 'x-api-key': other.keyId, authorization: `Bearer ${other.secret}` },
      );
      expectStatus(theirs, 200);
    } finally {
      await t.close();
    }
  });
});

describe('bodies', () => {
  it('refuses a body over 1 MiB with 413, saving nothing', async () => {
    const big = giftBody(s, contactId, { campaignId: 'x', notes: 'n'.repeat(1024 * 1024) });
    await expectRejected(s, () => s.request('POST', '/api/v1/donations', big), 413, {
      code: 'body_too_large',
      contacts: [contactId],
    });
  });

  it('accepts a body just under the limit (the limit is not lower than 1 MiB)', async () => {
    const contact = {
      accountId: s.accountId,
      firstName: 'Long',
      lastName: 'Notes',
      notes: Array.from({ length: 100 }, () => ({ content: 'w'.repeat(10_000) })),
    };
    expect(JSON.stringify(contact).length).toBeGreaterThan(1_000_000);
    expect(JSON.stringify(contact).length).toBeLessThan(1024 * 1024);
    expectStatus(await s.request('POST', '/api/v1/contacts', contact), 201);
  });

  it.each([
    ['truncated JSON', '{"accountId": "a", '],
    ['a trailing comma', '{"firstName": "a",}'],
    ['single quotes', "{'firstName': 'a'}"],
  ])('refuses %s with 400 invalid_json, saving nothing', async (_label, text) => {
    await expectRejected(s, () => s.request('POST', '/api/v1/contacts', text), 400, { code: 'invalid_json' });
    await expectRejected(s, () => s.request('PUT', `/api/v1/contacts/${contactId}`, text), 400, {
      code: 'invalid_json',
      contacts: [contactId],
    });
  });

  it('refuses JSON that is not an object, and an empty body, with 400', async () => {
    await expectRejected(s, () => s.request('POST', '/api/v1/contacts', '[]'), 400);
    await expectRejected(s, () => s.request('POST', '/api/v1/contacts', 'null'), 400);
    await expectRejected(s, () => s.request('POST', '/api/v1/donations', '"gift"'), 400);
    await expectRejected(
      s,
      () => s.request('POST', '/api/v1/contacts', '', { 'content-type': 'application/json' }),
      400,
    );
  });

  it('serves GET and DELETE from clients that send Content-Type: application/json on every request', async () => {
    const json = { 'content-type': 'application/json' };
    const c = await makeContact(s, { firstName: 'Header', lastName: 'Happy' });
    expectStatus(
      await s.request('GET', `/api/v1/contacts/${c.id}?accountId=${s.accountId}`, undefined, json),
      200,
    );
    expect(
      expectStatus(
        await s.request('DELETE', `/api/v1/contacts/${c.id}?accountId=${s.accountId}`, undefined, json),
        200,
      ),
    ).toEqual({ message: `Contact ${c.id} deleted` });
    expectStatus(await s.request('GET', `/api/v1/contacts/${c.id}?accountId=${s.accountId}`), 404);
  });

  it('refuses a body that is not JSON with 415', async () => {
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/contacts', `accountId=${s.accountId}&firstName=a&lastName=b`, {
          'content-type': 'application/x-www-form-urlencoded',
        }),
      415,
      { code: 'unsupported_media_type' },
    );
  });
});

describe('routes', () => {
  it('answers an unknown route with a 404 JSON body', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/gifts'],
      ['POST', '/api/v1/contacts/search'],
      ['PATCH', `/api/v1/contacts/${contactId}`],
      ['DELETE', '/api/v1/donations'],
      ['GET', '/api/v2/contacts'],
    ] as const) {
      const res = await expectRejected(
        s,
        () =>
          s.request(
            method,
            path,
            method === 'POST' || method === 'PATCH' ? { accountId: s.accountId } : undefined,
          ),
        404,
        { code: 'route_not_found' },
      );
      expect(res.body.message).toContain(path.split('?')[0]);
    }
  });
});

describe('the Host header (DNS rebinding)', () => {
  it('the server listens on 127.0.0.1 unless told otherwise', () => {
    expect(new URL(s.url).hostname).toBe('127.0.0.1');
    expect(s.running.app.server.address()).toMatchObject({ address: '127.0.0.1' });
  });

  it('refuses a request addressed to a name that is not loopback with 403, saving nothing', async () => {
    for (const host of [
      'evil.example',
      'evil.example:80',
      '127.0.0.1.evil.example',
      'localhost.evil.example',
      '192.168.1.5',
      '[2001:db8::1]:8080',
    ]) {
      const res = await expectRejected(
        s,
        () =>
          viaHttp(s, {
            method: 'POST',
            path: '/api/v1/contacts',
            host,
            body: JSON.stringify({ accountId: s.accountId, firstName: 'Rebound', lastName: 'Page' }),
          }),
        403,
        { code: 'host_not_allowed' },
      );
      expect(res.body.message).toMatch(/loopback|this machine/i);
    }
  });

  it('serves loopback names', async () => {
    const port = new URL(s.url).port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `127.1.2.3:${port}`,
      `app.localhost:${port}`,
      `[::1]:${port}`,
      'localhost',
    ]) {
      expectStatus(await viaHttp(s, { path: `/api/v1/contacts?accountId=${s.accountId}`, host }), 200);
    }
  });
});

describe('never a stack trace, never a 500 for bad input', () => {
  it.each([
    ['repeated accountId', 'GET', '/api/v1/contacts?accountId=a&accountId=b', undefined],
    ['an over-long id', 'GET', `/api/v1/contacts/${'x'.repeat(5000)}?accountId=ACCOUNT`, undefined],
    [
      'a huge number',
      'POST',
      '/api/v1/donations',
      '{"accountId":"ACCOUNT","contactId":"CONTACT","donationAmount":1e400,"donationDate":"2026-01-01","paymentMethod":"cash","campaignId":"x"}',
    ],
    [
      'an amount past the maximum',
      'POST',
      '/api/v1/donations',
      '{"accountId":"ACCOUNT","contactId":"CONTACT","donationAmount":1e300,"donationDate":"2026-01-01","paymentMethod":"cash","campaignId":"x"}',
    ],
    [
      '__proto__ keys',
      'POST',
      '/api/v1/contacts',
      '{"accountId":"ACCOUNT","firstName":"a","lastName":"b","__proto__":{"admin":true},"customFields":{"__proto__":1}}',
    ],
    [
      'deep nesting',
      'POST',
      '/api/v1/contacts',
      `{"accountId":"ACCOUNT","firstName":"a","lastName":"b","tags":${'['.repeat(2000)}${']'.repeat(2000)}}`,
    ],
    [
      'an object where a string goes',
      'POST',
      '/api/v1/contacts',
      '{"accountId":{"$ne":null},"firstName":"a","lastName":"b"}',
    ],
    [
      'a control character in a search',
      'GET',
      '/api/v1/contacts?accountId=ACCOUNT&search=%00%22*%27',
      undefined,
    ],
    [
      'an FTS operator as a search',
      'GET',
      '/api/v1/contacts?accountId=ACCOUNT&search=NEAR(a%20b)%20OR%20-c*',
      undefined,
    ],
    ['a percent sign in an id', 'GET', '/api/v1/contacts/%25?accountId=ACCOUNT', undefined],
  ])('%s', async (_label, method, path, body) => {
    const fill = (x: string) => x.replace(/ACCOUNT/g, s.accountId).replace(/CONTACT/g, contactId);
    const before = await snapshot(s, { contacts: [contactId] });
    const res = await s.request(method, fill(path), body === undefined ? undefined : fill(body));
    expect(res.status, res.text).toBeLessThan(500);
    expect(looksLikeStack(res.text), res.text).toBe(false);
    if (res.status >= 400) expectError(res, res.status);
    await expectUnchanged(s, before);
  });
});

describe('ids carry their type prefixes', () => {
  it('cnt_, don_, cmp_, acct_, gdk_', async () => {
    const c = await makeContact(s);
    const cmp = await makeCampaign(s, 'Prefixes');
    const d = await makeDonation(s, c.id, { campaignId: cmp.id });
    const key = expectStatus(await s.request('POST', '/api/v1/api-keys', { accountId: s.accountId }), 201);
    const ulid = '[0-9A-HJKMNP-TV-Z]{26}';
    expect(c.id).toMatch(new RegExp(`^cnt_${ulid}$`));
    expect(d.id).toMatch(new RegExp(`^don_${ulid}$`));
    expect(cmp.id).toMatch(new RegExp(`^cmp_${ulid}$`));
    expect(s.accountId).toMatch(new RegExp(`^acct_${ulid}$`));
    expect(key.accountId).toBe(s.accountId);
    expect(key.keyId).toMatch(new RegExp(`^gdk_${ulid}$`));
    expect(s.keyId).toMatch(new RegExp(`^gdk_${ulid}$`));
    const account = expectStatus(await s.request('GET', `/api/v1/account?accountId=${s.accountId}`), 200);
    expect(account.id).toBe(s.accountId);
  });
});

describe('GET /api/v1/openapi.json', () => {
  interface Operation {
    parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown }>;
    requestBody?: { content: Record<string, { schema: unknown }> };
    responses: Record<string, { description?: string; content?: Record<string, { schema: unknown }> }>;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an arbitrary JSON document
  let doc: any;
  beforeAll(async () => {
    const res = await rawRequest(`${s.url}/api/v1/openapi.json`, 'GET');
    doc = expectStatus(res, 200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  /** Resolves a local `$ref` (`#/a/b`) against the document, or undefined. */
  const resolve = (ref: string): unknown =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>(
        (node, key) =>
          node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined,
        doc,
      );
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- schemas are arbitrary JSON
  const deref = (schema: any): any =>
    schema && typeof schema.$ref === 'string' ? deref(resolve(schema.$ref)) : schema;

  it('is an OpenAPI 3.1 document, served without a key', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBeTypeOf('string');
    expect(doc.info.version).toBeTypeOf('string');
    expect(doc.components.securitySchemes).toMatchObject({
      apiKeyId: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      bearer: { type: 'http', scheme: 'bearer' },
    });
    expect(doc.security).toEqual([{ apiKeyId: [], bearer: [] }]);
  });

  it('lists every spec route', () => {
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, o]) =>
      Object.keys(o).map((m) => `${m.toUpperCase()} ${p}`),
    );
    for (const route of [
      'GET /api/v1/donations',
      'POST /api/v1/donations',
      'GET /api/v1/contacts',
      'POST /api/v1/contacts',
      'GET /api/v1/contacts/{id}',
      'PUT /api/v1/contacts/{id}',
      'DELETE /api/v1/contacts/{id}',
    ]) {
      expect(ops).toContain(route);
    }
  });

  it('is well formed: responses described, path parameters declared, every $ref resolving, schema ids without fragments', () => {
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      if (!path.startsWith('/')) problems.push(`path ${path} does not start with /`);
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (!op.responses || Object.keys(op.responses).length === 0) problems.push(`${where}: no responses`);
        for (const [code, r] of Object.entries(op.responses ?? {})) {
          if (!/^[1-5](\d\d|XX)$|^default$/.test(code)) problems.push(`${where}: response code ${code}`);
          if (typeof r.description !== 'string') problems.push(`${where} ${code}: no description`);
        }
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
          if (!op.parameters?.some((p) => p.in === 'path' && p.name === name && p.required === true))
            problems.push(`${where}: path parameter ${name} not declared`);
        }
        for (const p of op.parameters ?? []) {
          if (!['query', 'header', 'path', 'cookie'].includes(p.in) || !p.name || !p.schema)
            problems.push(`${where}: bad parameter ${JSON.stringify(p)}`);
        }
      }
    }
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${at}/${i}`));
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref' && typeof v === 'string' && (!v.startsWith('#/') || resolve(v) === undefined))
            problems.push(`${at}: $ref ${v} does not resolve`);
          // JSON Schema 2020-12 (OpenAPI 3.1's dialect): "$id" must not carry a non-empty fragment
          if (k === '$id' && typeof v === 'string' && /#./.test(v))
            problems.push(`${at}: $id ${v} has a fragment`);
          walk(v, `${at}/${k}`);
        }
      }
    };
    walk(doc, '#');
    expect(problems).toEqual([]);
  });

  it('describes the spec routes as they behave', () => {
    const listParams = (doc.paths['/api/v1/donations'].get as Operation).parameters ?? [];
    expect(listParams.map((p) => p.name).sort()).toEqual([
      'accountId',
      'endDate',
      'limit',
      'offset',
      'startDate',
    ]);
    expect(listParams.find((p) => p.name === 'accountId')?.required).toBe(true);
    const contactParams = (doc.paths['/api/v1/contacts'].get as Operation).parameters ?? [];
    expect(contactParams.map((p) => p.name).sort()).toEqual([
      'accountId',
      'limit',
      'offset',
      'search',
      'sortBy',
      'sortOrder',
    ]);
    // The spec's four orders, plus GiftDesk's relevance (documented in the route's description).
    expect(deref(contactParams.find((p) => p.name === 'sortBy')?.schema).enum).toEqual([
      'firstName',
      'lastName',
      'email',
      'createdAt',
      'relevance',
    ]);
    expect((doc.paths['/api/v1/contacts'].get as Operation & { description?: string }).description).toMatch(
      /createdAt \(default\).*relevance: exact matches/,
    );

    const create = deref(
      (doc.paths['/api/v1/donations'].post as Operation).requestBody?.content['application/json']?.schema,
    );
    expect([...create.required].sort()).toEqual([
      'accountId',
      'contactId',
      'donationAmount',
      'donationDate',
      'paymentMethod',
    ]);
    const created = deref(
      (doc.paths['/api/v1/donations'].post as Operation).responses['201']?.content?.['application/json']
        ?.schema,
    );
    expect(Object.keys(created.properties).sort()).toEqual([
      'campaignId',
      'contactId',
      'createdAt',
      'donationAmount',
      'donationDate',
      'id',
      'notes',
      'paymentMethod',
      'status',
    ]);
    const item = deref(
      deref(
        (doc.paths['/api/v1/donations'].get as Operation).responses['200']?.content?.['application/json']
          ?.schema,
      ).properties.donations.items,
    );
    expect(Object.keys(item.properties).sort()).toEqual([
      'campaignId',
      'campaignName',
      'contactId',
      'contactName',
      'createdAt',
      'donationAmount',
      'donationDate',
      'id',
      'notes',
      'paymentMethod',
    ]);
    const contactItem = deref(
      deref(
        (doc.paths['/api/v1/contacts'].get as Operation).responses['200']?.content?.['application/json']
          ?.schema,
      ).properties.data.items,
    );
    expect(Object.keys(contactItem.properties)).not.toContain('customFields');

    for (const [route, method] of [
      ['/api/v1/contacts/{id}', 'get'],
      ['/api/v1/donations', 'post'],
      ['/api/v1/contacts', 'post'],
    ] as const) {
      const op = doc.paths[route][method] as Operation;
      for (const code of ['400', '401', '429']) {
        const err = deref(op.responses[code]?.content?.['application/json']?.schema);
        expect(err?.required, `${method} ${route} ${code}`).toEqual(
          expect.arrayContaining(['statusCode', 'error', 'code', 'message']),
        );
      }
    }
  });
});
