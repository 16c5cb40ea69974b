/**
 * Input refused at entry, not changed or stored as given: impossible years on every stored
 * date (a gift dated 9026 would be accepted here and refused by HQ days later), invalid UTF-8
 * bytes, lone surrogates and NUL characters in text. Each is a 400 naming the field, and
 * nothing in the database changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectRejected,
  expectStatus,
  giftBody,
  makeCampaign,
  makeContact,
  makeDonation,
} from '../helpers/api-fixtures.ts';
import { type ApiResponse, startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let contactId: string;
let donationId: string;
let campaignId: string;
/** A valid gift for Robert Brown at the gala, with `fields` on top. */
const gift = (fields: Record<string, unknown> = {}) => giftBody(s, contactId, { campaignId, ...fields });

beforeAll(async () => {
  s = await startTestServer();
  contactId = (await makeContact(s, { firstName: 'Robert', lastName: 'Brown' })).id;
  campaignId = (await makeCampaign(s)).id;
  donationId = (
    await makeDonation(s, contactId, { campaignId, donationAmount: 19.99, paymentMethod: 'cash' })
  ).id;
});
afterAll(async () => {
  await s?.close();
});

/** POST/PUT with the body as raw bytes (what fetch with a string cannot send: invalid UTF-8). */
async function sendBytes(method: string, path: string, bytes: Buffer): Promise<ApiResponse> {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: {
      'x-api-key': s.keyId,
      authorization: `Bearer ${s.secret}`,
      'content-type': 'application/json',
    },
    body: bytes,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as unknown, text };
}

describe('dates outside 1900–2200 are refused where they are entered', () => {
  it.each([
    '9026-03-01',
    '0026-03-01',
    '1899-12-31',
    '2201-01-01',
    '9999-12-31T23:59:59Z',
    '0001-01-01T00:00:00Z',
  ])('POST /donations with donationDate %s: 400 naming donationDate, nothing saved', async (date) => {
    await expectRejected(s, () => s.request('POST', '/api/v1/donations', gift({ donationDate: date })), 400, {
      field: 'donationDate',
      contacts: [contactId],
    });
  });

  it('keeps the years at the edges: 1900-01-01 and 2200-12-31 are taken', async () => {
    for (const date of ['1900-01-01', '2200-12-31']) {
      const d = expectStatus(await s.request('POST', '/api/v1/donations', gift({ donationDate: date })), 201);
      expect(d.donationDate.slice(0, 10)).toBe(date);
    }
  });

  it('refuses a far date on every other stored date field, naming it', async () => {
    const cases: Array<[string, string, Record<string, unknown> | undefined, string]> = [
      [
        'PATCH',
        `/api/v1/donations/${donationId}`,
        { accountId: s.accountId, donationDate: '9026-03-01' },
        'donationDate',
      ],
      [
        'POST',
        '/api/v1/donations',
        gift({ thankYouSent: true, thankYouSentDate: '0026-03-01' }),
        'thankYouSentDate',
      ],
      [
        'POST',
        '/api/v1/contacts',
        { accountId: s.accountId, firstName: 'Ana', lastName: 'Lopez', birthDate: '0026-03-01' },
        'birthDate',
      ],
      [
        'POST',
        '/api/v1/contacts',
        {
          accountId: s.accountId,
          firstName: 'Ana',
          lastName: 'Lopez',
          employment: [{ employer: 'Acme', startDate: '9026-01-01' }],
        },
        'employment[0].startDate',
      ],
      [
        'POST',
        '/api/v1/batches',
        { accountId: s.accountId, name: 'Table 9', batchDate: '9026-03-01' },
        'batchDate',
      ],
      [
        'POST',
        '/api/v1/elections',
        { accountId: s.accountId, electionType: 'general', electionYear: 2026, electionDate: '9026-11-03' },
        'electionDate',
      ],
      [
        'GET',
        `/api/v1/contacts/${contactId}/gift-check?accountId=${s.accountId}&donationDate=9026-03-01`,
        undefined,
        'donationDate',
      ],
    ];
    const metOn = expectStatus(
      await s.request('POST', '/api/v1/custom-fields', {
        accountId: s.accountId,
        name: 'Met On',
        type: 'date',
      }),
      201,
    );
    expect(metOn.name).toBe('Met On');
    cases.push([
      'PUT',
      `/api/v1/contacts/${contactId}`,
      { accountId: s.accountId, customFields: { 'Met On': '0026-06-01' } },
      'customFields.Met On',
    ]);
    for (const [method, path, body, field] of cases) {
      await expectRejected(s, () => s.request(method, path, body), 400, { field, contacts: [contactId] });
    }
  });
});

describe('text that is not valid Unicode is refused, never changed', () => {
  it('refuses invalid UTF-8 bytes in a string with 400 naming the field; nothing is stored', async () => {
    const json = JSON.stringify(gift({ notes: 'caf_' }));
    const at = json.indexOf('caf_') + 3;
    const bytes = Buffer.concat([
      Buffer.from(json.slice(0, at)),
      Buffer.from([0xe9]),
      Buffer.from(json.slice(at + 1)),
    ]); // Latin-1 é
    const res = await expectRejected(s, () => sendBytes('POST', '/api/v1/donations', bytes), 400, {
      field: 'notes',
      contacts: [contactId],
    });
    expect(res.body.code).toBe('invalid_text');
    const contact = Buffer.from(JSON.stringify({ accountId: s.accountId, firstName: 'Zoe', lastName: 'X' }));
    const bad = Buffer.concat([
      contact.subarray(0, contact.length - 3),
      Buffer.from([0xc3, 0x28]),
      contact.subarray(contact.length - 3),
    ]);
    await expectRejected(s, () => sendBytes('POST', '/api/v1/contacts', bad), 400, { field: 'lastName' });
  });

  it.each([
    ['a lone high surrogate', 'Bro\ud800wn'],
    ['a lone low surrogate', '\udfffBrown'],
    ['a NUL character', 'Brown\u0000'],
  ])('refuses %s with 400 naming the field; nothing is stored', async (_label, text) => {
    await expectRejected(
      s,
      () =>
        s.request('POST', '/api/v1/contacts', {
          accountId: s.accountId,
          firstName: 'Robert',
          lastName: text,
        }),
      400,
      { field: 'lastName', code: 'invalid_text' },
    );
    await expectRejected(s, () => s.request('POST', '/api/v1/donations', gift({ notes: text })), 400, {
      field: 'notes',
      code: 'invalid_text',
      contacts: [contactId],
    });
    await expectRejected(
      s,
      () =>
        s.request('PUT', `/api/v1/contacts/${contactId}`, {
          accountId: s.accountId,
          emails: [{ email: 'rb@example.org' }],
          notes: [{ content: text }],
        }),
      400,
      { field: 'notes[0].content', contacts: [contactId] },
    );
  });

  it('answers a body nested 200,000 arrays deep with a 400, not a 500 (the check does not recurse)', async () => {
    const deep = `{"accountId":"${s.accountId}","firstName":"Deep","lastName":${'['.repeat(200_000)}"\\u0000"${']'.repeat(200_000)}}`;
    await expectRejected(s, () => s.request('POST', '/api/v1/contacts', deep), 400, { code: 'invalid_text' });
  });

  it('keeps real text: accents, emoji (a surrogate pair) and U+FFFD typed on purpose are stored as sent', async () => {
    const c = expectStatus(
      await s.request('POST', '/api/v1/contacts', {
        accountId: s.accountId,
        firstName: 'Zoë 🎉',
        lastName: 'Brown \ufffd',
      }),
      201,
    );
    const back = expectStatus(
      await s.request('GET', `/api/v1/contacts/${c.id}?accountId=${s.accountId}`),
      200,
    );
    expect(back.firstName).toBe('Zoë 🎉');
    expect(back.lastName).toBe('Brown \ufffd');
  });
});
