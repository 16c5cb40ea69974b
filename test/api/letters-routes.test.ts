/**
 * The letters routes over real HTTP against a real server on a SQLite file: settings, print
 * runs from start to PDF to "mark as sent", the first letter's preview, what bad input gets
 * (4xx naming the field, never a 500), the OpenAPI document — and the year-end statement read
 * back from its PDF against `GET /api/v1/donations` for that donor and year.
 */
import { formatCents, dollarsToCents } from '#shared/money.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableDate } from '../../electron/letters/index.ts';
import {
  asNewAccount,
  expectError,
  expectStatus,
  getDonation,
  makeCampaign,
  makeContact,
  makeDonation,
} from '../helpers/api-fixtures.ts';
import { rawRequest, startTestServer, type TestServer } from '../helpers/server.ts';
import { amountsOn, pdfPages } from '../letters/pdf-text.ts';

let s: TestServer;
let spring: { id: string };
let autumn: { id: string };
beforeAll(async () => {
  s = await startTestServer();
  spring = await makeCampaign(s, 'Spring appeal');
  autumn = await makeCampaign(s, 'Autumn appeal');
});
afterAll(async () => {
  await s.close();
});

const q = (t: TestServer, extra: Record<string, string> = {}) =>
  new URLSearchParams({ accountId: t.accountId, ...extra }).toString();

/** A run's state, read until it is no longer rendering. */
async function finished(t: TestServer, runId: string) {
  await expect
    .poll(
      async () => expectStatus(await t.request('GET', `/api/v1/letters/runs/${runId}?${q(t)}`), 200).status,
    )
    .not.toBe('rendering');
  return expectStatus(await t.request('GET', `/api/v1/letters/runs/${runId}?${q(t)}`), 200);
}

/** The PDF's bytes over HTTP, checked to be a PDF. */
async function pdfOf(t: TestServer, pathAndQuery: string): Promise<{ bytes: Uint8Array; headers: Headers }> {
  const res = await fetch(`${t.url}${pathAndQuery}`, {
    headers: { 'x-api-key': t.keyId, authorization: `Bearer ${t.secret}` },
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(res.status, new TextDecoder().decode(bytes.slice(0, 300))).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
  return { bytes, headers: res.headers };
}

describe('letter settings', () => {
  it('reads the defaults, saves a change and a kind’s wording, and resets it', async () => {
    const t = await asNewAccount(s);
    const first = expectStatus(await t.request('GET', `/api/v1/letters/settings?${q(t)}`), 200);
    expect(first.orgKind).toBe('charity');
    expect(first.templates.map((x: { kind: string }) => x.kind).sort()).toEqual([
      'receipt',
      'thank-you',
      'year-end',
    ]);
    expect(first.templates.every((x: { isDefault: boolean }) => x.isDefault)).toBe(true);

    const saved = expectStatus(
      await t.request('PUT', '/api/v1/letters/settings', {
        accountId: t.accountId,
        orgKind: 'political',
        organizationName: 'Friends of Nguyễn Thị Minh Khai',
        signerName: 'Siobhán O’Brien',
        templates: [{ kind: 'receipt', heading: 'Receipt for {{donor.name}}' }],
      }),
      200,
    );
    expect(saved).toMatchObject({
      orgKind: 'political',
      organizationName: 'Friends of Nguyễn Thị Minh Khai',
    });
    const receipt = saved.templates.find((x: { kind: string }) => x.kind === 'receipt');
    expect(receipt).toMatchObject({ heading: 'Receipt for {{donor.name}}', isDefault: false });
    expect(expectStatus(await t.request('GET', `/api/v1/letters/settings?${q(t)}`), 200)).toEqual(saved);

    const reset = expectStatus(
      await t.request('PUT', '/api/v1/letters/settings', {
        accountId: t.accountId,
        templates: [{ kind: 'receipt', reset: true }],
      }),
      200,
    );
    expect(reset.templates.find((x: { kind: string }) => x.kind === 'receipt').isDefault).toBe(true);
    expect(reset.organizationName).toBe('Friends of Nguyễn Thị Minh Khai');
  });

  it('bad settings are a 400 naming the field', async () => {
    expectError(
      await s.request('PUT', '/api/v1/letters/settings', { accountId: s.accountId, orgKind: 'church' }),
      400,
      { field: 'orgKind' },
    );
    expectError(
      await s.request('PUT', '/api/v1/letters/settings', {
        accountId: s.accountId,
        templates: [{ kind: 'postcard', body: 'Hi' }],
      }),
      400,
      { field: 'templates[0].kind' },
    );
    expectError(await s.request('GET', '/api/v1/letters/settings'), 400, { field: 'accountId' });
  });
});

describe('a print run over HTTP', () => {
  it('starts (201), renders, lists, gives its PDF with the donors as typed, and marks exactly its gifts sent, once', async () => {
    const t = await asNewAccount(s);
    const camp = await makeCampaign(t, 'Winter appeal');
    const zoe = await makeContact(t, { firstName: 'Zoë', lastName: 'Núñez' });
    const lukasz = await makeContact(t, { firstName: 'Łukasz', lastName: 'Żółć' });
    const g1 = await makeDonation(t, zoe.id, {
      campaignId: camp.id,
      donationAmount: 40,
      donationDate: '2026-01-10',
    });
    const g2 = await makeDonation(t, lukasz.id, {
      campaignId: camp.id,
      donationAmount: 12.5,
      donationDate: '2026-01-11',
    });
    const outside = await makeDonation(t, lukasz.id, { campaignId: camp.id, donationDate: '2025-12-01' });

    const started = expectStatus(
      await t.request('POST', '/api/v1/letters/runs', {
        accountId: t.accountId,
        kind: 'thank-you',
        from: '2026-01-01',
        to: '2026-01-31',
        notThanked: true,
      }),
      201,
    );
    expect(started).toMatchObject({
      kind: 'thank-you',
      documents: 2,
      gifts: 2,
      total: 52.5,
      markedSentAt: null,
    });
    const run = await finished(t, started.id);
    expect(run).toMatchObject({
      status: 'done',
      rendered: 2,
      pdfUrl: `/api/v1/letters/runs/${started.id}/pdf`,
    });

    const list = expectStatus(await t.request('GET', `/api/v1/letters/runs?${q(t)}`), 200);
    expect(list.runs.map((x: { id: string }) => x.id)).toEqual([started.id]);

    const { bytes } = await pdfOf(t, `${run.pdfUrl}?${q(t)}`);
    const pages = await pdfPages(bytes);
    expect(pages).toHaveLength(2);
    const text = pages.map((p) => p.join('\n')).join('\n');
    expect(text).toContain('Zoë Núñez');
    expect(text).toContain('Łukasz Żółć');

    const marked = expectStatus(
      await t.request('POST', `/api/v1/letters/runs/${started.id}/mark-sent`, { accountId: t.accountId }),
      200,
    );
    expect(marked).toMatchObject({ id: started.id, marked: 2 });
    expect(await getDonation(t, g1.id)).toMatchObject({
      thankYouSent: true,
      thankYouSentDate: marked.markedSentAt,
    });
    expect(await getDonation(t, g2.id)).toMatchObject({ thankYouSent: true });
    expect(await getDonation(t, outside.id)).toMatchObject({ thankYouSent: false });
    const again = expectStatus(
      await t.request('POST', `/api/v1/letters/runs/${started.id}/mark-sent`, { accountId: t.accountId }),
      200,
    );
    expect(again).toEqual({ id: started.id, marked: 0, markedSentAt: marked.markedSentAt, marksNote: null });

    // A second not-thanked run of the same month finds nothing: done at once, no PDF.
    const second = expectStatus(
      await t.request('POST', '/api/v1/letters/runs', {
        accountId: t.accountId,
        kind: 'thank-you',
        from: '2026-01-01',
        to: '2026-01-31',
        notThanked: true,
      }),
      201,
    );
    expect(second).toMatchObject({ status: 'done', documents: 0, gifts: 0, pdfUrl: null });
    expectError(await t.request('GET', `/api/v1/letters/runs/${second.id}/pdf?${q(t)}`), 404, {
      code: 'no_letters',
    });
  });

  it('a start tried again with its key, its answer lost, is the same run: 200, nothing started; another key starts another', async () => {
    const t = await asNewAccount(s);
    const camp = await makeCampaign(t, 'Door appeal');
    // Three Robert Browns, each with a $19.99 cash gift: three letters.
    for (const email of ['rb1@example.org', 'rb2@example.org', 'rb3@example.org']) {
      const rb = await makeContact(t, { firstName: 'Robert', lastName: 'Brown', primaryEmail: email });
      await makeDonation(t, rb.id, {
        campaignId: camp.id,
        donationAmount: 19.99,
        donationDate: '2026-02-03',
      });
    }
    const choice = { accountId: t.accountId, kind: 'thank-you', from: '2026-02-01', to: '2026-02-28' };
    const runs = async () =>
      (expectStatus(await t.request('GET', `/api/v1/letters/runs?${q(t)}`), 200).runs as unknown[]).length;
    const first = expectStatus(
      await t.request('POST', '/api/v1/letters/runs', { ...choice, entryKey: 'ent_run_try_1' }),
      201,
    );
    expect(first).toMatchObject({ documents: 3, gifts: 3 });
    await finished(t, first.id as string);
    // The same try again (the answer never reached the window): that run, as it is now.
    const again = expectStatus(
      await t.request('POST', '/api/v1/letters/runs', { ...choice, entryKey: 'ent_run_try_1' }),
      200,
    );
    expect(again).toMatchObject({ id: first.id, status: 'done', documents: 3 });
    expect(await runs()).toBe(1);
    // Ten tries of another start at once: one run, and each answers it.
    const racing = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.request('POST', '/api/v1/letters/runs', { ...choice, entryKey: 'ent_run_raced' }),
      ),
    );
    expect(new Set(racing.map((r) => expectStatus(r, r.status === 201 ? 201 : 200).id)).size).toBe(1);
    expect(racing.filter((r) => r.status === 201)).toHaveLength(1);
    await finished(t, racing[0]!.body.id as string);
    expect(await runs()).toBe(2);
    // A key that is not one: refused naming it, nothing started.
    expectError(await t.request('POST', '/api/v1/letters/runs', { ...choice, entryKey: 'x' }), 400, {
      field: 'entryKey',
    });
    expect(await runs()).toBe(2);
  });

  it('previews the first letter of a choice as a PDF, recording nothing', async () => {
    const t = await asNewAccount(s);
    const camp = await makeCampaign(t, 'Gala');
    const donor = await makeContact(t, { firstName: 'Siobhán', lastName: "O'Brien" });
    const gift = await makeDonation(t, donor.id, { campaignId: camp.id, donationAmount: 250 });
    const { bytes, headers } = await pdfOf(
      t,
      `/api/v1/letters/preview?${q(t, { kind: 'receipt', donationId: gift.id })}`,
    );
    expect(headers.get('x-letter-documents')).toBe('1');
    expect(headers.get('x-letter-gifts')).toBe('1');
    const [page] = await pdfPages(bytes);
    expect(page).toContain("Siobhán O'Brien");
    expect(amountsOn(page!)).toContain('$250.00');
    expect(expectStatus(await t.request('GET', `/api/v1/letters/runs?${q(t)}`), 200).runs).toEqual([]);
    const thanked = await pdfOf(
      t,
      `/api/v1/letters/preview?${q(t, { kind: 'thank-you', notThanked: 'true', campaignId: camp.id })}`,
    );
    expect(thanked.headers.get('x-letter-documents')).toBe('1');
  });
});

describe('the organisation’s kind follows its own records', () => {
  it('an account with elections gets a political committee’s wording until someone chooses, and a charity’s is printed only when confirmed', async () => {
    const t = await asNewAccount(s);
    const camp = await makeCampaign(t, 'Primary push');
    // Three Robert Browns and twin $19.99 cash gifts: one letter per donor, every gift on it.
    const browns = [];
    for (const street of ['1 Elm St', '2 Oak Ave', '3 Pine Rd'])
      browns.push(
        await makeContact(t, { firstName: 'Robert', lastName: 'Brown', addresses: [{ street1: street }] }),
      );
    for (const b of browns)
      await makeDonation(t, b.id, { campaignId: camp.id, donationAmount: 19.99, paymentMethod: 'cash' });
    await makeDonation(t, browns[0]!.id, {
      campaignId: camp.id,
      donationAmount: 19.99,
      paymentMethod: 'cash',
    });
    const run = (extra: Record<string, unknown> = {}) =>
      t.request('POST', '/api/v1/letters/runs', {
        accountId: t.accountId,
        kind: 'thank-you',
        campaignId: camp.id,
        ...extra,
      });

    // Nothing speaks of elections yet: a charity, suggested and not chosen.
    const before = expectStatus(await t.request('GET', `/api/v1/letters/settings?${q(t)}`), 200);
    expect(before).toMatchObject({
      orgKind: 'charity',
      orgKindSuggested: 'charity',
      orgKindChosen: false,
      politicalSigns: null,
    });

    expectStatus(
      await t.request('POST', '/api/v1/elections', {
        accountId: t.accountId,
        electionType: 'primary',
        electionYear: 2028,
        electionDate: '2028-03-07',
      }),
      201,
    );
    const suggested = expectStatus(await t.request('GET', `/api/v1/letters/settings?${q(t)}`), 200);
    expect(suggested).toMatchObject({
      orgKind: 'political',
      orgKindSuggested: 'political',
      orgKindChosen: false,
    });
    expect(suggested.politicalSigns).toContain('Primary 2028');
    expect(suggested.templates.find((x: { kind: string }) => x.kind === 'thank-you').body).toContain(
      'not tax deductible',
    );

    // The suggestion prints without a question: the letter never says "tax records".
    const political = await finished(t, expectStatus(await run(), 201).id);
    const politicalText = (await pdfPages((await pdfOf(t, `${political.pdfUrl}?${q(t)}`)).bytes))
      .flat()
      .join(' ');
    expect(politicalText).toContain('not tax deductible');
    expect(politicalText).not.toContain('tax records');

    // Someone chooses a charity's wording: a run is refused until confirmed, and nothing is recorded.
    const chosen = expectStatus(
      await t.request('PUT', '/api/v1/letters/settings', { accountId: t.accountId, orgKind: 'charity' }),
      200,
    );
    expect(chosen).toMatchObject({ orgKind: 'charity', orgKindSuggested: 'political', orgKindChosen: true });
    const runsBefore = expectStatus(await t.request('GET', `/api/v1/letters/runs?${q(t)}`), 200).runs.length;
    const refused = await run();
    expectError(refused, 409, { code: 'charity_wording_political', field: 'confirmWording' });
    expect(refused.body.message).toContain('Primary 2028');
    expect(expectStatus(await t.request('GET', `/api/v1/letters/runs?${q(t)}`), 200).runs).toHaveLength(
      runsBefore,
    );
    const confirmed = await finished(t, expectStatus(await run({ confirmWording: true }), 201).id);
    expect(confirmed).toMatchObject({ status: 'done', documents: 3, gifts: 4 });
    const charityText = (await pdfPages((await pdfOf(t, `${confirmed.pdfUrl}?${q(t)}`)).bytes))
      .flat()
      .join(' ');
    expect(charityText).toContain('tax records');

    // A per-election limit alone also says political.
    const u = await asNewAccount(s);
    expectStatus(
      await u.request('POST', '/api/v1/donation-accounts', {
        accountId: u.accountId,
        name: 'Federal',
        limits: { perElection: 3300 },
      }),
      201,
    );
    const limited = expectStatus(await u.request('GET', `/api/v1/letters/settings?${q(u)}`), 200);
    expect(limited).toMatchObject({ orgKind: 'political', orgKindChosen: false });
    expect(limited.politicalSigns).toContain('per-election limit on Federal');
  });
});

describe('bad input: a 4xx naming the field, never a 500', () => {
  it('refuses a bad run, a bad preview and an unknown run', async () => {
    const donor = await makeContact(s, { firstName: 'Ana', lastName: 'Ålund' });
    const voided = await makeDonation(s, donor.id, { campaignId: spring.id });
    expectStatus(
      await s.request('POST', `/api/v1/donations/${voided.id}/void`, {
        accountId: s.accountId,
        reason: 'typo',
      }),
      200,
    );
    const run = (body: Record<string, unknown>) =>
      s.request('POST', '/api/v1/letters/runs', { accountId: s.accountId, ...body });
    expectError(await run({ kind: 'postcard' }), 400, { field: 'kind' });
    expectError(await run({}), 400, { field: 'kind' });
    expectError(await run({ kind: 'thank-you', from: '2026-02-30' }), 400, { field: 'from' });
    expectError(await run({ kind: 'thank-you', to: 'last week' }), 400, { field: 'to' });
    expectError(await run({ kind: 'thank-you', from: '2026-03-01', to: '2026-02-01' }), 400, { field: 'to' });
    expectError(await run({ kind: 'receipt' }), 400, { field: 'donationId' });
    expectError(await run({ kind: 'year-end', year: 1066 }), 400, { field: 'year' });
    expectError(await run({ kind: 'year-end', from: '2026-01-01' }), 400, { field: 'from' });
    expectError(await run({ kind: 'thank-you', campaignId: 'cmp_nothing' }), 404, { field: 'campaignId' });
    expectError(await run({ kind: 'receipt', donationId: 'don_nothing' }), 404, { field: 'donationId' });
    expectError(await run({ kind: 'receipt', donationId: voided.id }), 409, { field: 'donationId' });
    expectError(await run({ kind: 'thank-you', notThanked: 'yes' }), 400, { field: 'notThanked' });

    const preview = (extra: Record<string, string>) =>
      s.request('GET', `/api/v1/letters/preview?${q(s, extra)}`);
    expectError(await preview({}), 400, { field: 'kind' });
    expectError(await preview({ kind: 'year-end', year: '20x6' }), 400, { field: 'year' });
    expectError(await preview({ kind: 'thank-you', notThanked: 'yes' }), 400, { field: 'notThanked' });
    expectError(await preview({ kind: 'thank-you', from: '2026-13-01' }), 400, { field: 'from' });
    expectError(await preview({ kind: 'receipt' }), 400, { field: 'donationId' });
    expectError(await preview({ kind: 'thank-you', from: '1901-01-01', to: '1901-12-31' }), 404, {
      code: 'no_letters',
    });

    for (const [method, path] of [
      ['GET', `/api/v1/letters/runs/ltr_nothing?${q(s)}`],
      ['GET', `/api/v1/letters/runs/ltr_nothing/pdf?${q(s)}`],
      ['POST', '/api/v1/letters/runs/ltr_nothing/mark-sent'],
    ] as const)
      expectError(
        await s.request(method, path, method === 'POST' ? { accountId: s.accountId } : undefined),
        404,
        {
          field: 'id',
        },
      );
    expectError(await s.request('GET', `/api/v1/letters/runs?${q(s, { limit: '500' })}`), 400, {
      field: 'limit',
    });
  });

  it('another account’s run is as missing as no run, and another accountId is a 403', async () => {
    const t = await asNewAccount(s);
    const camp = await makeCampaign(t, 'Theirs');
    const donor = await makeContact(t, { firstName: 'Farah', lastName: 'Fontaine' });
    await makeDonation(t, donor.id, { campaignId: camp.id });
    const theirs = expectStatus(
      await t.request('POST', '/api/v1/letters/runs', { accountId: t.accountId, kind: 'thank-you' }),
      201,
    );
    expectError(await s.request('GET', `/api/v1/letters/runs/${theirs.id}?${q(s)}`), 404, { field: 'id' });
    expectError(await s.request('GET', `/api/v1/letters/runs/${theirs.id}?${q(t)}`), 403);
    expectError(
      await s.request('POST', `/api/v1/letters/runs/${theirs.id}/mark-sent`, { accountId: s.accountId }),
      404,
      { field: 'id' },
    );
    await finished(t, theirs.id);
  });

  it('every letters route is in the OpenAPI document, the PDFs as application/pdf', async () => {
    const doc = expectStatus(
      await rawRequest(`${s.url}/api/v1/openapi.json`, 'GET', undefined, {
        'x-api-key': s.keyId,
        authorization: `Bearer ${s.secret}`,
      }),
      200,
    );
    const paths = doc.paths as Record<
      string,
      Record<string, { tags: string[]; responses: Record<string, unknown> }>
    >;
    for (const [path, methods] of Object.entries({
      '/api/v1/letters/settings': ['get', 'put'],
      '/api/v1/letters/runs': ['get', 'post'],
      '/api/v1/letters/runs/{id}': ['get'],
      '/api/v1/letters/runs/{id}/pdf': ['get'],
      '/api/v1/letters/preview': ['get'],
      '/api/v1/letters/runs/{id}/mark-sent': ['post'],
      '/api/v1/donations/thank-you': ['post'],
    }))
      for (const m of methods) {
        expect(paths[path]?.[m], `${m} ${path}`).toBeDefined();
        expect(paths[path]![m]!.tags).toEqual(['Extensions']);
      }
    expect(
      Object.keys(paths['/api/v1/letters/runs/{id}/pdf']!.get!.responses['200'] as object),
    ).toBeDefined();
    expect(JSON.stringify(paths['/api/v1/letters/runs/{id}/pdf']!.get!.responses['200'])).toContain(
      'application/pdf',
    );
    expect(JSON.stringify(paths['/api/v1/letters/runs']!.post!)).toContain('LetterRun');
  });
});

describe('the year-end statement', () => {
  it('lists exactly the donor’s gifts of the year that GET /donations lists, and their total to the cent', async () => {
    const donor = await makeContact(s, { firstName: 'Nguyễn Thị Minh', lastName: 'Khai' });
    const other = await makeContact(s, { firstName: 'Robert', lastName: 'Brown' });
    const gifts: Array<[string, number, string]> = [
      ['2025-01-01', 100, spring.id], // the first instant of the year
      ['2025-03-15T14:30:00Z', 19.99, spring.id],
      ['2025-03-15T14:31:00Z', 19.99, spring.id], // a twin
      ['2025-07-04', 1234.56, autumn.id], // another campaign
      ['2025-12-31T23:59:59Z', 0.01, autumn.id], // the last second of the year
    ];
    for (const [date, amount, campaignId] of gifts)
      await makeDonation(s, donor.id, { donationDate: date, donationAmount: amount, campaignId });
    await makeDonation(s, donor.id, {
      donationDate: '2024-12-31T23:59:59Z',
      donationAmount: 5,
      campaignId: spring.id,
    });
    await makeDonation(s, donor.id, { donationDate: '2026-01-01', donationAmount: 7, campaignId: spring.id });
    await makeDonation(s, other.id, {
      donationDate: '2025-06-01',
      donationAmount: 50,
      campaignId: spring.id,
    });
    const voided = await makeDonation(s, donor.id, {
      donationDate: '2025-05-05',
      donationAmount: 999,
      campaignId: spring.id,
    });
    expectStatus(
      await s.request('POST', `/api/v1/donations/${voided.id}/void`, { accountId: s.accountId }),
      200,
    );

    // What the donor API says the donor gave in 2025.
    const listed: Array<{ contactId: string; donationAmount: number; donationDate: string }> = [];
    for (let offset = 0; ; offset += 100) {
      const page = expectStatus(
        await s.request(
          'GET',
          `/api/v1/donations?${q(s, { startDate: '2025-01-01', endDate: '2025-12-31', limit: '100', offset: String(offset) })}`,
        ),
        200,
      );
      listed.push(...page.donations);
      if (page.donations.length < 100) break;
    }
    const his = listed
      .filter((d) => d.contactId === donor.id)
      .sort((a, b) => a.donationDate.localeCompare(b.donationDate));
    expect(his).toHaveLength(5);
    const totalCents = his.reduce((sum, d) => sum + dollarsToCents(d.donationAmount)!, 0);

    const started = expectStatus(
      await s.request('POST', '/api/v1/letters/runs', {
        accountId: s.accountId,
        kind: 'year-end',
        year: 2025,
        contactId: donor.id,
      }),
      201,
    );
    expect(started).toMatchObject({ documents: 1, gifts: his.length, total: totalCents / 100 });
    const run = await finished(s, started.id);
    const pages = await pdfPages((await pdfOf(s, `${run.pdfUrl}?${q(s)}`)).bytes);
    expect(pages).toHaveLength(1);
    const lines = pages[0]!;
    expect(lines).toContain('Nguyễn Thị Minh Khai');
    expect(lines).not.toContain('Robert Brown');
    // The table: each gift's date and amount in date order, then the total.
    expect(amountsOn(lines)).toEqual([
      ...his.map((d) => formatCents(dollarsToCents(d.donationAmount)!)),
      formatCents(totalCents),
    ]);
    expect(lines.filter((l) => his.some((d) => tableDate(d.donationDate) === l))).toEqual(
      his.map((d) => tableDate(d.donationDate)),
    );
    expect(lines).toContain(`${his.length} gifts`);
  });
});
