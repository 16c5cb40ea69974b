/**
 * Roles (docs/design.md "Roles"; electron/server/route-rules.ts): every route the server
 * registered has a rule, and a key of each role, walking every route of the OpenAPI document,
 * gets exactly what the table says — through (anything but 401/403) or 403 `role_forbidden`
 * with a sentence naming the role and what it may not do, changing nothing. One server (with
 * the event hub's routes) for all four roles.
 */
import { ROLES, type Role } from '#shared/schemas/roles.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { isPublicRoute, registeredApiRoutes } from '../../electron/server/gates.ts';
import { ROUTE_RULES, rolesOf } from '../../electron/server/route-rules.ts';
import {
  expectStatus,
  expectUnchanged,
  makeCampaign,
  makeContact,
  makeDonation,
  snapshot,
} from '../helpers/api-fixtures.ts';
import { rawRequest, startTestServer, type ApiResponse, type TestServer } from '../helpers/server.ts';

let s: TestServer;
const keys = new Map<Role, { keyId: string; secret: string }>();
/** Real ids for the path parameters the walk fills (a made-up id elsewhere). */
const ids: Record<string, string> = {};
let routes: Array<{ method: string; path: string }>;

function as(role: Role, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  const k = keys.get(role)!;
  return rawRequest(`${s.url}${path}`, method, body, {
    'x-api-key': k.keyId,
    authorization: `Bearer ${k.secret}`,
  });
}

/** `/api/v1/contacts/{id}` → `/api/v1/contacts/:id`, the pattern the rules are keyed by. */
function pattern(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

/** The path with its parameters filled: a real record's id where the walk has one, else a made-up id. */
function filled(openApiPath: string): string {
  const base = openApiPath.split('/')[3] ?? '';
  return openApiPath.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    name === 'entityType' ? 'contact' : (ids[base] ?? 'x_01MADEUPID00000000000000'),
  );
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

beforeAll(async () => {
  s = await startTestServer({ hub: true });
  for (const role of ROLES) {
    const k = await createApiKey(s.ctx, s.accountId, `${role} key`, undefined, role);
    expect(k.role).toBe(role);
    keys.set(role, k);
  }
  // Three donors called Robert Brown, two identical $19.99 cash gifts from one of them.
  const roberts = [];
  for (let i = 0; i < 3; i++)
    roberts.push(
      await makeContact(s, { firstName: 'Robert', lastName: 'Brown', email: `rb${i}@example.org` }),
    );
  const campaignId = (await makeCampaign(s)).id;
  const gift = { campaignId, donationAmount: 19.99, paymentMethod: 'cash' };
  ids.donations = (await makeDonation(s, roberts[0]!.id, gift)).id;
  await makeDonation(s, roberts[0]!.id, gift);
  ids.contacts = roberts[1]!.id;
  ids.campaigns = campaignId;
  ids.batches = expectStatus(
    await s.request('POST', '/api/v1/batches', { accountId: s.accountId, name: 'Front desk' }),
    201,
  ).id;
  const doc = expectStatus(await s.request('GET', '/api/v1/openapi.json'), 200) as {
    paths: Record<string, Record<string, unknown>>;
  };
  // The public ones (pairing with a hub: its code is the credential) need no key, so no role.
  routes = Object.entries(doc.paths)
    .filter(([path]) => !isPublicRoute(path))
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path })));
});

afterAll(async () => {
  await s?.close();
});

describe('the route rules', () => {
  it('has a rule for every API route the server registered, and none for a route it does not have', () => {
    const registered = registeredApiRoutes(s.running.app);
    expect(registered.length).toBeGreaterThan(90);
    expect(registered.filter((r) => !(r in ROUTE_RULES))).toEqual([]);
    expect(Object.keys(ROUTE_RULES).filter((r) => !registered.includes(r))).toEqual([]);
    // The walk below covers them all: the OpenAPI document lists every one.
    expect(routes.map((r) => `${r.method} ${pattern(r.path)}`).sort()).toEqual(registered);
  });

  for (const role of ROLES) {
    it(`gives a ${role} key exactly the routes its rules name`, async () => {
      const refused = routes.filter((r) => !rolesOf(r.method, pattern(r.path)).includes(role));
      const allowed = routes.filter((r) => rolesOf(r.method, pattern(r.path)).includes(role));
      if (role === 'administrator') expect(refused).toEqual([]);
      else expect(refused.length).toBeGreaterThan(10);

      // Every refusal first: a 403 naming the role, and nothing changed by any of them.
      const before = await snapshot(s, { contacts: [ids.contacts!] });
      for (const r of refused) {
        const res = await as(role, r.method, filled(r.path), BODY_METHODS.has(r.method) ? {} : undefined);
        expect({ route: `${r.method} ${r.path}`, status: res.status, code: res.body?.code }).toEqual({
          route: `${r.method} ${r.path}`,
          status: 403,
          code: 'role_forbidden',
        });
        expect(res.body.message).toMatch(new RegExp(`^A ${role} cannot `));
      }
      await expectUnchanged(s, before);

      // Everything else goes through to its route: whatever it answers (a made-up id's 404, an
      // empty body's 400…), never a 401 or 403, never a 500.
      const stopped: string[] = [];
      const notOwn: string[] = [];
      for (const r of allowed) {
        const res = await as(role, r.method, filled(r.path), BODY_METHODS.has(r.method) ? {} : undefined);
        if (res.status === 403 && res.body?.code === 'not_own_record') {
          notOwn.push(`${r.method} ${pattern(r.path)}`);
          continue;
        }
        if (
          res.status === 401 ||
          res.status === 403 ||
          res.status >= 500 ||
          res.body?.code === 'route_not_found'
        )
          stopped.push(`${r.method} ${r.path}: ${res.status} ${res.body?.code ?? ''}`);
      }
      expect(stopped).toEqual([]);
      // The walk's gift and batch are the administrator's: a volunteer's key is refused each
      // route of one gift or batch (`own`), and no other role is.
      const ownRoutes = allowed
        .map((r) => `${r.method} ${pattern(r.path)}`)
        .filter((k) => ROUTE_RULES[k]?.own !== undefined && k.includes(':id'));
      expect(notOwn.sort()).toEqual(role === 'volunteer' ? ownRoutes.sort() : []);
    });
  }

  it('tells a volunteer in words what they may not do', async () => {
    const res = await as('volunteer', 'GET', `/api/v1/exports/contacts.csv?accountId=${s.accountId}`);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('A volunteer cannot export donors (allowed: treasurer, administrator)');
    const keysRes = await as('coordinator', 'POST', '/api/v1/api-keys', { accountId: s.accountId });
    expect(keysRes.status).toBe(403);
    expect(keysRes.body.message).toMatch(/^A coordinator cannot create API keys/);
  });

  it('makes a key of a role through the API, lists it with its role, and refuses a role that is not one', async () => {
    const made = expectStatus(
      await s.request('POST', '/api/v1/api-keys', {
        accountId: s.accountId,
        label: 'till',
        role: 'treasurer',
      }),
      201,
    );
    expect(made.role).toBe('treasurer');
    const listed = expectStatus(await s.request('GET', `/api/v1/api-keys?accountId=${s.accountId}`), 200);
    const roles = Object.fromEntries(
      (listed.data as Array<{ keyId: string; role: Role }>).map((k) => [k.keyId, k.role]),
    );
    expect(roles[made.keyId]).toBe('treasurer');
    expect(roles[s.keyId]).toBe('administrator');
    // The new key works as a treasurer: exports yes, keys no.
    const treasurer = { 'x-api-key': made.keyId as string, authorization: `Bearer ${made.secret as string}` };
    const exp = await rawRequest(
      `${s.url}/api/v1/exports/donations.csv?accountId=${s.accountId}`,
      'GET',
      undefined,
      treasurer,
    );
    expect(exp.status).toBe(200);
    expect(exp.text).toContain('19.99');

    const before = await snapshot(s);
    const bad = await s.request('POST', '/api/v1/api-keys', { accountId: s.accountId, role: 'boss' });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field)).toContain('role');
    await expectUnchanged(s, before);
  });
});
