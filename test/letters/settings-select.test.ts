/**
 * What an account's letters say and which gifts a run covers: the defaults per kind of
 * organisation (a charity's written acknowledgment, a political committee's "not tax
 * deductible"), edits and reset, refusals naming the field, a receipt's one gift, the
 * year-end statement of last year by default (matching the gifts GET /donations lists for the
 * donor and year), and per-donor files. Real SQLite (or PostgreSQL), read back with pdf.js.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, createContext } from '../../electron/domain/index.ts';
import {
  failInterruptedRuns,
  getLetterRun,
  loadLetterSettings,
  markRunSent,
  previewFirstLetter,
  saveLetterSettings,
  selectLetters,
  startLetterRun,
  waitForRun,
} from '../../electron/letters/index.ts';
import { expectStatus, makeCampaign, makeContact, makeDonation } from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { pdfPages } from './pdf-text.ts';

let s: TestServer;
let campaignId: string;
let ana: string;
let ben: string;
const gifts: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer();
  campaignId = (await makeCampaign(s, 'Annual fund')).id;
  ana = (await makeContact(s, { firstName: 'Ana', lastName: 'Ibáñez', salutation: 'Dear Ana María' })).id;
  ben = (await makeContact(s, { firstName: 'Ben', lastName: 'Okafor' })).id;
  const gift = async (key: string, contactId: string, donationAmount: number, donationDate: string) => {
    gifts[key] = (await makeDonation(s, contactId, { donationAmount, donationDate, campaignId })).id;
  };
  await gift('ana2025', ana, 10, '2025-12-31');
  await gift('ana2026a', ana, 100.1, '2026-01-01');
  await gift('ana2026b', ana, 0.99, '2026-12-31T23:30:00Z');
  await gift('ana2027', ana, 5, '2027-01-01');
  await gift('ben2026', ben, 250, '2026-06-15');
  await gift('benVoided', ben, 999, '2026-06-16');
  expectStatus(
    await s.request('POST', `/api/v1/donations/${gifts.benVoided}/void`, {
      accountId: s.accountId,
      reason: 'test',
    }),
    200,
  );
}, 120_000);

afterAll(async () => {
  await s?.close();
});

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe('letter settings', () => {
  it("default to a charity's wording, follow the organisation's kind, keep edits until reset", async () => {
    const fresh = await loadLetterSettings(s.store.db, s.accountId);
    expect(fresh.orgKind).toBe('charity');
    expect(fresh.templates.map((t) => [t.kind, t.isDefault])).toEqual([
      ['receipt', true],
      ['thank-you', true],
      ['year-end', true],
    ]);
    for (const t of fresh.templates) expect(t.body).toContain('No goods or services were provided in return');
    expect(fresh.mergeFields.map((f) => f.name)).toEqual(
      expect.arrayContaining(['donor.name', 'gifts', 'total']),
    );

    const political = await saveLetterSettings(s.ctx, {
      accountId: s.accountId,
      orgKind: 'political',
      organizationName: 'Friends of Maria Lopez',
      signerName: 'Sam Treasurer',
      templates: [{ kind: 'thank-you', heading: 'Thank you, {{donor.salutation}}!' }],
    });
    const ty = political.templates.find((t) => t.kind === 'thank-you')!;
    expect(ty).toMatchObject({ heading: 'Thank you, {{donor.salutation}}!', isDefault: false });
    expect(ty.body).toContain('not tax deductible');
    const receipt = political.templates.find((t) => t.kind === 'receipt')!;
    expect(receipt.isDefault).toBe(true);
    expect(receipt.body).toContain('not tax deductible');
    expect(receipt.body).not.toContain('No goods or services');

    const { pdf } = await previewFirstLetter(s.ctx, s.accountId, { kind: 'thank-you', contactId: ana });
    const [page] = await pdfPages(pdf);
    expect(page).toContain('Thank you, Ana María!');
    expect(page!.join(' ')).toContain(
      'Contributions to Friends of Maria Lopez are not tax deductible for federal income tax purposes.',
    );
    expect(page).toContain('Sam Treasurer');

    const reset = await saveLetterSettings(s.ctx, {
      accountId: s.accountId,
      orgKind: 'charity',
      templates: [{ kind: 'thank-you', reset: true }],
    });
    expect(reset.templates.find((t) => t.kind === 'thank-you')).toMatchObject({
      heading: 'Thank you',
      isDefault: true,
    });
    expect(reset.organizationName).toBe('Friends of Maria Lopez');
  });
});

describe('which gifts a run covers', () => {
  it('refuses a choice that does not fit its kind, naming the field', async () => {
    const cases: [Parameters<typeof selectLetters>[2], number, string][] = [
      [{ kind: 'receipt' }, 400, 'donationId'],
      [{ kind: 'receipt', donationId: 'don_nope' }, 404, 'donationId'],
      [{ kind: 'receipt', donationId: gifts.benVoided }, 409, 'donationId'],
      [{ kind: 'thank-you', campaignId: 'cmp_nope' }, 404, 'campaignId'],
      [{ kind: 'thank-you', batchId: 'bat_nope' }, 404, 'batchId'],
      [{ kind: 'thank-you', year: 2026 }, 400, 'year'],
      [{ kind: 'thank-you', from: '2026-05-01', to: '2026-04-01' }, 400, 'to'],
      [{ kind: 'year-end', campaignId }, 400, 'campaignId'],
    ];
    for (const [choice, status, field] of cases) {
      const err = await refusal(selectLetters(s.store.db, s.accountId, choice));
      expect([err.status, err.details?.[0]?.field], JSON.stringify(choice)).toEqual([status, field]);
    }
  });

  it("a receipt is the one gift; a year-end statement is last year's by default and matches GET /donations", async () => {
    const receipt = await selectLetters(s.store.db, s.accountId, {
      kind: 'receipt',
      donationId: gifts.ben2026,
    });
    expect(receipt.documents).toHaveLength(1);
    expect(receipt.documents[0]!.gifts.map((g) => [g.id, g.amountCents])).toEqual([[gifts.ben2026, 25000]]);

    const in2027 = createContext(s.store, () => '2027-02-01T10:00:00.000Z');
    const run = await waitForRun(
      in2027,
      s.accountId,
      (await startLetterRun(in2027, s.dataDir, { accountId: s.accountId, kind: 'year-end', perDonor: true }))
        .id,
    );
    expect(run).toMatchObject({ status: 'done', documents: 2, gifts: 3, total: 351.09 });
    expect(run.choice.year).toBe(2026);
    const listed = expectStatus(
      await s.request(
        'GET',
        `/api/v1/donations?accountId=${s.accountId}&startDate=2026-01-01&endDate=2026-12-31&limit=100`,
      ),
      200,
    ) as { donations: { id: string; contactId: string; donationAmount: number }[] };
    const set = await selectLetters(in2027.store.db, s.accountId, { kind: 'year-end' }, in2027.now());
    for (const doc of set.documents) {
      const fromApi = listed.donations.filter(
        (d) => d.contactId === doc.donor.id && d.id !== gifts.benVoided,
      );
      expect(doc.gifts.map((g) => g.id).sort()).toEqual(fromApi.map((d) => d.id).sort());
      expect(doc.totalCents).toBe(fromApi.reduce((sum, d) => sum + Math.round(d.donationAmount * 100), 0));
    }
    const folder = path.join(s.dataDir, 'letters', run.id);
    expect(fs.readdirSync(folder).sort()).toEqual(['00001-ana-ibanez.pdf', '00002-ben-okafor.pdf']);
    const [anaPage] = await pdfPages(path.join(folder, '00001-ana-ibanez.pdf'));
    expect(anaPage).toEqual(
      expect.arrayContaining(['Ana Ibáñez', 'Dear Ana María,', 'Your giving in 2026', '$101.09']),
    );
  });
});

describe('a run left printing by a GiftDesk that stopped', () => {
  it('is marked failed at the next start, and cannot be marked sent', async () => {
    const at = '2026-11-01T10:00:00.000Z';
    await s.store.write((trx) =>
      trx
        .insertInto('letterRuns')
        .values({
          id: 'ltr_cutshort',
          accountId: s.accountId,
          kind: 'thank-you',
          filters: JSON.stringify({ kind: 'thank-you' }),
          status: 'rendering',
          documents: 2,
          rendered: 1,
          gifts: 2,
          totalCents: 100,
          createdAt: at,
        })
        .execute(),
    );
    const refused = await refusal(markRunSent(s.ctx, s.accountId, 'ltr_cutshort'));
    expect([refused.status, refused.code]).toEqual([409, 'run_not_done']);
    expect(await failInterruptedRuns(s.ctx)).toBe(1);
    expect(await getLetterRun(s.ctx, s.accountId, 'ltr_cutshort')).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('start the run again'),
      pdfUrl: null,
    });
    expect(await failInterruptedRuns(s.ctx)).toBe(0);
  });
});
