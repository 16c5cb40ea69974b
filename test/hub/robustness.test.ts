/**
 * The hub's routes under random and hostile input, over real HTTPS: near-valid bodies with a
 * field swapped for anything JSON can hold, garbage bodies, odd query strings and path ids.
 * Never a 5xx; every refusal has the API's error shape and names a field when it is about one.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '#shared/schemas/common.ts';
import type { ApiResponse } from '../helpers/server.ts';
import { type Hub, type Station, startHub } from './hub-rig.ts';

let hub: Hub;
let st: Station;
beforeAll(async () => {
  hub = await startHub();
  st = await hub.join('Table A');
});
afterAll(async () => {
  await hub?.close();
});

function expectNoServerError(res: ApiResponse, what: string): void {
  expect(res.status, `${what} → ${res.status} ${res.text}`).toBeLessThan(500);
  if (res.status >= 400) {
    const body = ErrorBody.parse(res.body);
    expect(body.statusCode).toBe(res.status);
    if (res.status === 400) expect(body.details?.length ?? 0, `${what}: ${res.text}`).toBeGreaterThan(0);
  }
}

const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string(), { maxKeys: 3 }),
);

/** A valid body with one field replaced (or removed, or an unknown one added). */
function nearValid(valid: Record<string, unknown>) {
  const keys = Object.keys(valid);
  return fc.oneof(
    fc.tuple(fc.constantFrom(...keys), anyJson).map(([k, v]) => ({ ...valid, [k]: v })),
    fc.constantFrom(...keys).map((k) => {
      const { [k]: _gone, ...rest } = valid;
      return rest;
    }),
    fc.tuple(fc.string({ maxLength: 12 }), anyJson).map(([k, v]) => ({ ...valid, [k]: v })),
    anyJson,
  );
}

const RUNS = Number(process.env.GIFTDESK_FC_RUNS ?? 60);

describe("the hub's routes under hostile input", () => {
  it('bodies: never a 5xx, every refusal in the error shape', async () => {
    const routes: Array<[string, string, Record<string, unknown>, Hub | Station]> = [
      ['POST', '/api/v1/hub/join', { code: 'ABCD-EFGH', name: 'Table Z' }, hub],
      ['POST', '/api/v1/hub/report', { entered: 1, lastSeq: 2, waiting: 0 }, st],
      ['POST', '/api/v1/hub/host', { accountId: hub.accountId, host: '127.0.0.1', port: 0 }, hub],
      ['POST', '/api/v1/hub/codes', { accountId: hub.accountId }, hub],
      ['POST', `/api/v1/hub/stations/${st.stationId}/revoke`, { accountId: `${hub.accountId}x` }, hub],
    ];
    for (const [method, path, valid, who] of routes) {
      await fc.assert(
        fc.asyncProperty(nearValid(valid), async (body) => {
          expectNoServerError(
            await who.request(method, path, body),
            `${method} ${path} ${JSON.stringify(body)}`,
          );
        }),
        { numRuns: RUNS },
      );
      for (const raw of ['', '{', '[]', '"x"', '{"code":', '\u0000', '{"__proto__":{"x":1}}'])
        expectNoServerError(await who.request(method, path, raw), `${method} ${path} ${JSON.stringify(raw)}`);
    }
  });

  it('queries and path ids: never a 5xx', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom('', '-1', '1e3', '9'.repeat(40), '0.5', '%ZZ'),
    );
    await fc.assert(
      fc.asyncProperty(text, text, text, async (after, limit, accountId) => {
        const q = (v: string) => encodeURIComponent(v);
        // `wait` only ever invalid here: a valid one may hold the answer for its seconds.
        for (const [who, path] of [
          [st, `/api/v1/hub/changes?after=${q(after)}&limit=${q(limit)}&wait=${q(`${limit}x`)}`],
          [hub, `/api/v1/hub?accountId=${q(accountId)}`],
          [hub, `/api/v1/hub/stations?accountId=${q(accountId)}`],
          [hub, `/api/v1/hub/close-out?accountId=${q(accountId)}`],
          [hub, `/api/v1/hub/stations/${q(accountId || 'x')}/revoke`],
        ] as const)
          expectNoServerError(
            await who.request(
              path.includes('revoke') ? 'POST' : 'GET',
              path,
              path.includes('revoke') ? { accountId: hub.accountId } : undefined,
            ),
            path,
          );
      }),
      { numRuns: RUNS },
    );
  });
});
