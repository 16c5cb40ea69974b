/**
 * Every route the server documents (spec and extensions, read from /api/v1/openapi.json so a
 * new route is covered without touching this file) gets random and hostile requests:
 * near-valid bodies with fields swapped for wrong types, huge or odd unicode strings,
 * prototype-pollution keys, deep nesting, 1e400 and -0; query strings with repeated keys and
 * bad encodings; path ids with odd characters; bytes that are not UTF-8, lone surrogates and NUL
 * in bodies, queries and paths; dates outside 1900–2200 on every date field.
 *
 * For every answer: never a 5xx; every 4xx has the JSON error shape; and after every 4xx the
 * database is exactly as before (row counts of every table, the outbox's last seq, a digest
 * of every row). At least 10,000 requests in all (GIFTDESK_FC_RUNS per route overrides the
 * share each route gets). Reproduce a failure with GIFTDESK_FC_SEED=<seed printed>.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '#shared/schemas/common.ts';
import { snapshotDbIfChanged, snapshotDiff, type DbSnapshot } from '../helpers/db-snapshot.ts';
import {
  bodyArb,
  buildUrl,
  FAR_DATES,
  type Fixtures,
  idKindOf,
  listOperations,
  type OpenApiDocument,
  type Operation,
  pathIdArb,
  queryArb,
} from '../helpers/hostile.ts';
import { waitForRun } from '../../electron/letters/index.ts';
import { rawRequest, startTestServer } from '../helpers/server.ts';

const SEED = Number(process.env.GIFTDESK_FC_SEED ?? 20261122);
/** Requests in all when GIFTDESK_FC_RUNS does not set the runs per route. */
const TOTAL = 10_000;

const s = await startTestServer();
afterAll(async () => {
  await s.close();
});

/* ---------------- fixtures: one of everything, so near-valid requests reach the rules ---------------- */

async function ok<T = { id: string }>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await s.request(method, path, body);
  if (r.status >= 300) throw new Error(`fixture ${method} ${path}: ${r.status} ${r.text}`);
  return r.body as T;
}

const accountId = s.accountId;
const other = await s.otherAccount();
const dac = await ok('POST', '/api/v1/donation-accounts', {
  accountId,
  name: 'Federal',
  limits: { perDonor: 100, perElection: 3300 },
});
const campaign = await ok('POST', '/api/v1/campaigns', {
  accountId,
  name: 'Gala 2026',
  donationAccountIds: [dac.id],
});
const committee = await ok('POST', '/api/v1/committees', { accountId, name: 'Friends PAC' });
const contacts = await Promise.all(
  [
    { firstName: 'Ada', lastName: 'Lovelace', primaryEmail: 'ada@example.org' },
    { firstName: 'Zoë', lastName: 'Ñúñez', tags: ['vip'] },
  ].map((c) => ok('POST', '/api/v1/contacts', { accountId, ...c })),
);
const otherContact = await (async () => {
  const r = await rawRequest(
    `${s.url}/api/v1/contacts`,
    'POST',
    { accountId: other.accountId, firstName: 'Other', lastName: 'Org' },
    { 'x-api-key': other.keyId, authorization: `Bearer ${other.secret}` },
  );
  return r.body as { id: string };
})();
await ok('POST', '/api/v1/custom-fields', { accountId, name: 'Nickname', type: 'text' });
await ok('POST', '/api/v1/custom-fields', { accountId, name: 'Shoe Size', type: 'number' });
await ok('POST', '/api/v1/custom-fields', { accountId, name: 'Met On', type: 'date' });
const tier = await ok('POST', '/api/v1/custom-fields', {
  accountId,
  name: 'Tier',
  type: 'picklist',
  options: ['Gold', 'Silver', 'Bronze'],
});
await ok('POST', `/api/v1/custom-fields/${tier.id}/actions`, {
  accountId,
  action: 'retireOption',
  option: 'Bronze',
});
const archived = await ok('POST', '/api/v1/custom-fields', { accountId, name: 'Old Field', type: 'text' });
await ok('POST', `/api/v1/custom-fields/${archived.id}/actions`, { accountId, action: 'archive' });
const gift = await ok('POST', '/api/v1/donations', {
  accountId,
  contactId: contacts[0]!.id,
  donationAmount: 150,
  donationDate: '2026-03-01',
  paymentMethod: 'check',
  donationAccountId: dac.id,
  campaignId: campaign.id,
});
const flags = await ok<{ flagged: Array<{ id: string }> }>('GET', `/api/v1/flags?accountId=${accountId}`);
if (flags.flagged.length === 0) throw new Error('fixture: the over-limit gift was not flagged');

const fixtures: Fixtures = {
  accountId,
  otherAccountId: other.accountId,
  ids: {
    contacts: [...contacts.map((c) => c.id), otherContact.id],
    campaigns: [campaign.id],
    committees: [committee.id],
    'donation-accounts': [dac.id],
    donations: [gift.id],
    'custom-fields': [tier.id, archived.id],
    flags: flags.flagged.map((f) => f.id),
  },
  customFields: {
    Nickname: ['Ace', '', null, 42],
    'shoe size': [10.5, -0, 'ten', null],
    'Met On': ['2025-06-01', '2025-02-30', '06/01/2025', '', ...FAR_DATES.filter((d) => d.length === 10)],
    Tier: ['Gold', 'silver', 'Bronze', 'Platinum', 1],
    'Old Field': ['x'],
    Nope: ['x'],
  },
  options: ['Gold', 'Silver', 'Bronze', 'Platinum'],
};

const doc = (await s.request('GET', '/api/v1/openapi.json')).body as OpenApiDocument;
const operations = listOperations(doc);
const RUNS = Number(process.env.GIFTDESK_FC_RUNS ?? Math.ceil(TOTAL / operations.length));

/* ---------------- the property ---------------- */

interface Sent {
  method: string;
  url: string;
  contentType: string | undefined;
  body: string | undefined;
  /** Sent instead of `body` when set: bytes that are not UTF-8. */
  bytes?: Buffer;
}

const clip = (t: string, n: number) => (t.length > n ? `${t.slice(0, n)}… (${t.length} chars)` : t);
const describeSent = (r: Sent) =>
  `${r.method} ${clip(r.url, 300)}\ncontent-type: ${r.contentType}\n${r.bytes ? `(bytes, not UTF-8) ${clip(r.bytes.toString('hex'), 600)}` : clip(r.body ?? '', 600)}`;
const STACK = /\bat .+\.(ts|js|mjs):\d+/;

let current: DbSnapshot = await snapshotDbIfChanged(s.store.db, null);
const answered = new Map<string, Map<number, number>>();
let sentInAll = 0;
/** True when a JSON value holds a string (or key) with NUL or a lone surrogate anywhere. */
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
function holdsBadText(value: unknown): boolean {
  const stack: unknown[] = [value]; // iterative: bodies nest 5,000 deep
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string' && BAD_TEXT.test(v)) return true;
    if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (BAD_TEXT.test(k)) return true;
        stack.push(x);
      }
    }
  }
  return false;
}
/** JSON bodies holding NUL or a lone surrogate: how many, and which were accepted (none may be). */
const badText = { sent: 0, accepted: [] as string[] };

/** Requests whose body held bytes that are not UTF-8: how many, and which were accepted (none may be). */
const notUtf8 = { sent: 0, accepted: [] as string[] };

/**
 * Waits until a background import job is no longer running (its worker may take a while to
 * start; the test's timeout bounds the wait). Marking the job done or failed is its last write
 * (finishImportJob), so the database is still from then on.
 */
async function importFinished(id: string): Promise<void> {
  for (;;) {
    const job = await s.request('GET', `/api/v1/imports/${id}?accountId=${s.accountId}`);
    if (job.status !== 200 || job.body.status !== 'running') return;
    await new Promise((r) => setTimeout(r, 10)); // the next look, not a guess at how long it takes
  }
}

/** A request whose body is raw bytes (fetch would encode a string as UTF-8). */
async function sendBytes(
  r: Sent,
  headers: Record<string, string>,
): Promise<Awaited<ReturnType<typeof s.request>>> {
  const res = await fetch(`${s.url}${r.url}`, {
    method: r.method,
    headers: { ...headers, 'x-api-key': s.keyId, authorization: `Bearer ${s.secret}` },
    body: new Uint8Array(r.bytes!),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

async function send(op: Operation, r: Sent): Promise<void> {
  const headers: Record<string, string> = {};
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  const res = r.bytes ? await sendBytes(r, headers) : await s.request(r.method, r.url, r.body, headers);
  sentInAll++;
  if (!r.bytes && r.body !== undefined && /^application\/json$/i.test(r.contentType ?? '')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(r.body);
    } catch {
      parsed = undefined;
    }
    if (holdsBadText(parsed)) {
      badText.sent++;
      if (res.status < 300)
        badText.accepted.push(`${describeSent(r)}\n--- answer ${res.status} ---\n${clip(res.text, 300)}`);
    }
  }
  if (r.bytes) {
    notUtf8.sent++;
    // A CSV import is taken as a job (202); its rows holding such bytes are rejected one by one.
    if (res.status < 300 && res.status !== 202)
      notUtf8.accepted.push(`${describeSent(r)}\n--- answer ${res.status} ---\n${clip(res.text, 300)}`);
  }
  const key = `${op.method} ${op.path}`;
  const counts = answered.get(key) ?? new Map<number, number>();
  counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
  answered.set(key, counts);

  const before = current;
  // An accepted request may go on writing after its answer (202: a background import):
  // wait until it is done, so its writes are not blamed on the next request.
  if (res.status === 202 && typeof res.body?.id === 'string') await importFinished(res.body.id);
  // A print run (201) renders after its answer, and marks its gifts when asked: wait for both.
  if (res.status === 201 && op.path === '/api/v1/letters/runs' && typeof res.body?.id === 'string')
    await waitForRun(s.ctx, s.accountId, res.body.id);
  const after = await snapshotDbIfChanged(s.store.db, before);
  current = after; // one failure is reported once, not again by every later request

  const where = `\n--- request ---\n${describeSent(r)}\n--- answer ${res.status} ---\n${clip(res.text, 600)}`;
  expect(res.status, `a 5xx${where}`).toBeLessThan(500);
  expect(res.headers.get('x-request-id') ?? '', `no X-Request-Id${where}`).toMatch(/^req_/);
  expect(res.text, `a stack trace${where}`).not.toMatch(STACK);
  if (res.status >= 400) {
    const shape = ErrorBody.safeParse(res.body);
    expect(shape.success, `not the error shape${where}`).toBe(true);
    expect(res.body.statusCode, where).toBe(res.status);
    expect(res.body.code, where).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(res.body.message.length, where).toBeGreaterThan(0);
    for (const d of res.body.details ?? []) expect(d.field.length, where).toBeGreaterThan(0);
    expect(snapshotDiff(before, after), `a refused request changed the database${where}`).toEqual([]);
  } else {
    // Learn the ids of what was created (an import job, a contact…) for the routes that read them.
    const kind = op.method === 'POST' ? idKindOf(op) : null;
    if (res.status < 300 && kind && typeof res.body?.id === 'string' && !op.path.includes('{'))
      (fixtures.ids[kind] ??= []).push(res.body.id);
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('json'))
      expect(res.body, `a ${res.status} whose JSON does not parse${where}`).toBeDefined();
    else expect(type, `a ${res.status} with no content type${where}`).not.toBe('');
  }
}

function requestArb(op: Operation): fc.Arbitrary<Sent> {
  const kind = idKindOf(op);
  const ids = kind ? (fixtures.ids[kind] ?? []) : [];
  const pathId = op.pathParams.length > 0 ? pathIdArb(ids) : fc.constant(null);
  return fc
    .tuple(pathId, queryArb(op, fixtures, doc), bodyArb(op, fixtures, doc))
    .map(([id, query, body]) => {
      const sent: Sent = {
        method: op.method,
        url: buildUrl(op, id, query),
        contentType: op.method === 'GET' ? undefined : body.contentType,
        body: op.method === 'GET' ? undefined : body.text, // fetch sends no body with a GET
        ...(op.method !== 'GET' && body.bytes ? { bytes: body.bytes } : {}),
      };
      // fast-check prints counterexamples with this: keep megabyte bodies out of the report
      return Object.assign(sent, { [fc.toStringMethod]: () => describeSent(sent) });
    });
}

describe(`hostile requests to every documented route (seed ${SEED}, ${RUNS} runs each)`, () => {
  it('finds the spec routes and the extensions in the OpenAPI document', () => {
    const found = new Set(operations.map((o) => `${o.method} ${o.path}`));
    for (const r of [
      'GET /api/v1/donations',
      'POST /api/v1/donations',
      'GET /api/v1/contacts',
      'POST /api/v1/contacts',
      'GET /api/v1/contacts/{id}',
      'PUT /api/v1/contacts/{id}',
      'DELETE /api/v1/contacts/{id}',
      'POST /api/v1/campaigns',
      'POST /api/v1/custom-fields',
      'POST /api/v1/flags/{id}/actions',
    ]) {
      expect(found).toContain(r);
    }
  });

  for (const op of operations) {
    it(`${op.method} ${op.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(requestArb(op), (r) => send(op, r)),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  }

  it('polluted no prototype (the server runs in this process)', () => {
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  it.runIf(process.env.GIFTDESK_FC_RUNS === undefined)(
    `sent at least ${TOTAL} requests in all, none answered 5xx`,
    () => {
      expect(sentInAll).toBeGreaterThanOrEqual(TOTAL);
      const fiveHundreds = [...answered.values()].flatMap((c) => [...c].filter(([st]) => st >= 500)).length;
      expect(fiveHundreds).toBe(0);
    },
  );

  it('refused every body holding bytes that are not UTF-8 (never stored as U+FFFD)', () => {
    expect(notUtf8.sent).toBeGreaterThan(50);
    expect(notUtf8.accepted).toEqual([]);
  });

  it('refused every JSON body holding NUL or a lone surrogate (never stored as given or as U+FFFD)', () => {
    expect(badText.sent).toBeGreaterThan(20);
    expect(badText.accepted).toEqual([]);
  });

  it('got past validation: near-valid requests were accepted on the main write routes', () => {
    const accepted = (key: string) =>
      [...(answered.get(key) ?? new Map<number, number>()).entries()]
        .filter(([st]) => st < 300)
        .reduce((n, [, c]) => n + c, 0);
    expect(accepted('POST /api/v1/contacts')).toBeGreaterThan(0);
    expect(accepted('POST /api/v1/donations')).toBeGreaterThan(0);
    expect(accepted('PUT /api/v1/contacts/{id}')).toBeGreaterThan(0);
  });
});

afterAll(() => {
  if (!process.env.GIFTDESK_FC_VERBOSE) return;
  for (const [route, counts] of answered)
    process.stdout.write(
      `${route}: ${[...counts]
        .sort(([a], [b]) => a - b)
        .map(([st, n]) => `${st}×${n}`)
        .join(' ')}\n`,
    );
});
