/**
 * Balancing a batch over real HTTP and SQLite: a night's batch of 40 gifts (cash, checks,
 * cards; twin $19.99 cash gifts from one donor, two Robert Browns each paying by check, a
 * voided check) gives a deposit summary whose figures agree with the batch's own gift list —
 * every check once, with the number its notes give — and a count $20 short in cash is
 * refused until the difference is accepted, then recorded with who counted and the batch
 * closed. Bad counts are 4xx naming the field, and write nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  expectRejected,
  expectStatus,
  makeCampaign,
  makeContact,
} from '../helpers/api-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let campaignId: string;
const donors: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer();
  campaignId = (await makeCampaign(s, 'Spring Gala')).id;
  for (const [key, firstName, lastName, primaryEmail] of [
    ['rob1', 'Robert', 'Brown', 'rob.brown@example.org'],
    ['rob2', 'Robert', 'Brown', 'bob@brownfamily.example'],
    ['zoe', 'Zoë', 'Núñez', 'zoe@example.org'],
    ['jose', 'José', 'García', null],
    ['ann', 'Ann', 'Lee', 'ann@example.org'],
  ] as const)
    donors[key] = (await makeContact(s, { firstName, lastName, primaryEmail })).id;
});
afterAll(async () => {
  await s?.close();
});

const q = (path: string) => `${path}?accountId=${s.accountId}`;
const post = async (path: string, body: Record<string, unknown>, status = 201) =>
  expectStatus(await s.request('POST', path, { accountId: s.accountId, ...body }), status);
const cents = (dollars: number) => Math.round(dollars * 100);

interface Gift {
  donor: string;
  amount: number;
  method: 'cash' | 'check' | 'credit_card';
  notes?: string;
}

/** The night: 12 cash (twins among them), 16 checks (namesakes, numbers in the notes or not), 12 cards. */
function night(): Gift[] {
  const keys = ['rob1', 'rob2', 'zoe', 'jose', 'ann'];
  const gifts: Gift[] = [
    { donor: 'zoe', amount: 19.99, method: 'cash', notes: 'table 4' },
    { donor: 'zoe', amount: 19.99, method: 'cash', notes: 'table 4' },
    { donor: 'rob1', amount: 100, method: 'check', notes: 'check 1021' },
    { donor: 'rob2', amount: 100, method: 'check', notes: 'ck #388' },
    {
      donor: 'jose',
      amount: 250.5,
      method: 'check',
      notes: 'Pledge card 114, matching gift letter to follow',
    },
  ];
  for (let i = 0; gifts.length < 40; i++) {
    const method = (['cash', 'check', 'credit_card'] as const)[i % 3]!;
    if (gifts.filter((g) => g.method === method).length >= { cash: 12, check: 16, credit_card: 12 }[method])
      continue;
    gifts.push({
      donor: keys[i % keys.length]!,
      amount: [25, 50, 75.25, 100, 10.01][i % 5]!,
      method,
      ...(method === 'check' && i % 2 === 0 ? { notes: `check no. ${2000 + i}` } : {}),
    });
  }
  return gifts;
}

async function batchOf(gifts: Gift[], name: string): Promise<{ batchId: string; ids: string[] }> {
  const batchId = (await post('/api/v1/batches', { name, campaignId, paymentMethod: 'check' })).id as string;
  const ids: string[] = [];
  for (const g of gifts) {
    const saved = await post(`/api/v1/batches/${batchId}/donations`, {
      contactId: donors[g.donor],
      donationAmount: g.amount,
      donationDate: '2026-11-27',
      paymentMethod: g.method,
      campaignId,
      notes: g.notes ?? null,
    });
    ids.push(saved.donation.id as string);
  }
  return { batchId, ids };
}

/** The batch's gifts as its own list reads them (every page). */
async function listed(batchId: string) {
  const out: Array<{ id: string; donationAmount: number; paymentMethod: string; status: string }> = [];
  for (let offset = 0; ; offset += 100) {
    const page = expectStatus(
      await s.request('GET', `${q(`/api/v1/batches/${batchId}/donations`)}&limit=100&offset=${offset}`),
      200,
    );
    out.push(...page.data);
    if (page.data.length < 100) return out;
  }
}

describe('a batch of 40 gifts balanced against the count', () => {
  it('lists every check once with the right total, shows a $20 difference, and records it at the close', async () => {
    const gifts = night();
    expect(gifts).toHaveLength(40);
    const { batchId, ids } = await batchOf(gifts, 'Gala night');
    // A check voided after it was typed: out of the deposit.
    const extra = await post(`/api/v1/batches/${batchId}/donations`, {
      contactId: donors.ann,
      donationAmount: 500,
      donationDate: '2026-11-27',
      paymentMethod: 'check',
      campaignId,
      notes: 'check 7777',
    });
    await post(`/api/v1/donations/${extra.donation.id}/void`, { reason: 'typed twice' }, 200);

    const summary = expectStatus(await s.request('GET', q(`/api/v1/batches/${batchId}/deposit`)), 200);
    const completed = (await listed(batchId)).filter((d) => d.status === 'completed');
    expect(completed).toHaveLength(40);
    const sumOf = (m: string) =>
      completed.filter((d) => d.paymentMethod === m).reduce((a, d) => a + cents(d.donationAmount), 0);
    const countOf = (m: string) => completed.filter((d) => d.paymentMethod === m).length;
    expect(summary.count).toBe(40);
    expect(cents(summary.total)).toBe(completed.reduce((a, d) => a + cents(d.donationAmount), 0));
    expect(summary.byMethod.map((m: { paymentMethod: string }) => m.paymentMethod)).toEqual([
      'cash',
      'check',
      'credit_card',
    ]);
    for (const m of summary.byMethod) {
      expect(m.count).toBe(countOf(m.paymentMethod));
      expect(cents(m.total)).toBe(sumOf(m.paymentMethod));
    }
    expect(cents(summary.cashTotal)).toBe(sumOf('cash'));

    // Every check once: the completed check gifts, each listed one time, in the order typed.
    const checkIds = ids.filter((_, i) => gifts[i]!.method === 'check');
    expect(summary.checks.map((c: { donationId: string }) => c.donationId)).toEqual(checkIds);
    expect(new Set(checkIds).size).toBe(16);
    expect(cents(summary.checksTotal)).toBe(sumOf('check'));
    expect(summary.checks.reduce((a: number, c: { amount: number }) => a + cents(c.amount), 0)).toBe(
      cents(summary.checksTotal),
    );
    // Namesakes are told apart; the number is the one the notes give, none for a pledge card's.
    const byId = new Map(summary.checks.map((c: { donationId: string }) => [c.donationId, c]));
    expect(byId.get(ids[2])).toMatchObject({
      contactName: 'Robert Brown',
      contactEmail: 'rob.brown@example.org',
      amount: 100,
      checkNumber: '1021',
    });
    expect(byId.get(ids[3])).toMatchObject({
      contactName: 'Robert Brown',
      contactEmail: 'bob@brownfamily.example',
      amount: 100,
      checkNumber: '388',
    });
    expect(byId.get(ids[4])).toMatchObject({ contactName: 'José García', checkNumber: null });
    expect(summary.lastCount).toBeNull();

    // The count: the cash box is $20 short; checks and cards as entered.
    const counted = [
      { paymentMethod: 'cash', total: (sumOf('cash') - 2000) / 100 },
      { paymentMethod: 'check', count: 16, total: sumOf('check') / 100 },
      { paymentMethod: 'credit_card', count: countOf('credit_card'), total: sumOf('credit_card') / 100 },
    ];
    const countPath = `/api/v1/batches/${batchId}/count`;
    const refused = await expectRejected(
      s,
      () => s.request('POST', countPath, { accountId: s.accountId, countedBy: 'Pat (treasurer)', counted }),
      409,
      { code: 'count_differs', field: 'acceptDifference' },
    );
    expect(refused.text).toContain('$20.00 short');
    const still = expectStatus(await s.request('GET', q(`/api/v1/batches/${batchId}/deposit`)), 200);
    expect(still.closedAt).toBeNull();
    expect(still.lastCount).toBeNull();

    const closed = await post(
      `/api/v1/batches/${batchId}/count`,
      { countedBy: 'Pat (treasurer)', note: 'recounted twice', counted, acceptDifference: true },
      200,
    );
    expect(closed.closedAt).not.toBeNull();
    expect(closed.lastCount).toMatchObject({
      countedBy: 'Pat (treasurer)',
      note: 'recounted twice',
      enteredCount: 40,
      enteredTotal: summary.total,
      difference: -20,
    });
    expect(cents(closed.lastCount.countedTotal)).toBe(cents(summary.total) - 2000);
    expect(closed.lastCount.lines).toEqual([
      {
        paymentMethod: 'cash',
        enteredCount: 12,
        enteredTotal: sumOf('cash') / 100,
        countedCount: null,
        countedTotal: (sumOf('cash') - 2000) / 100,
        difference: -20,
      },
      {
        paymentMethod: 'check',
        enteredCount: 16,
        enteredTotal: sumOf('check') / 100,
        countedCount: 16,
        countedTotal: sumOf('check') / 100,
        difference: 0,
      },
      {
        paymentMethod: 'credit_card',
        enteredCount: 12,
        enteredTotal: sumOf('credit_card') / 100,
        countedCount: 12,
        countedTotal: sumOf('credit_card') / 100,
        difference: 0,
      },
    ]);
    // Recorded: a later read shows it; the batch takes no more gifts and no second count.
    const later = expectStatus(await s.request('GET', q(`/api/v1/batches/${batchId}/deposit`)), 200);
    expect(later.lastCount).toEqual(closed.lastCount);
    const batch = expectStatus(await s.request('GET', q(`/api/v1/batches/${batchId}`)), 200);
    expect(batch.closedAt).toBe(closed.closedAt);
    // The same count sent again (its answer lost on the hub's Wi-Fi, Pat presses again): the
    // count that closed the batch, answered again, nothing written a second time.
    const again = await post(
      countPath,
      { countedBy: 'Pat (treasurer)', note: 'recounted twice', counted, acceptDifference: true },
      200,
    );
    expect(again).toEqual(closed);
    // Another count of the closed batch is refused, saying who counted it.
    const other = await s.request('POST', countPath, {
      accountId: s.accountId,
      countedBy: 'Sam',
      counted,
      acceptDifference: true,
    });
    expectError(other, 409, { code: 'batch_closed' });
    expect(other.text).toContain('counted by Pat (treasurer)');
    // So is Pat's own count with one figure changed.
    expectError(
      await s.request('POST', countPath, {
        accountId: s.accountId,
        countedBy: 'Pat (treasurer)',
        note: 'recounted twice',
        counted: counted.map((c) => (c.paymentMethod === 'cash' ? { ...c, total: c.total + 20 } : c)),
        acceptDifference: true,
      }),
      409,
      { code: 'batch_closed' },
    );
    const after = expectStatus(await s.request('GET', q(`/api/v1/batches/${batchId}/deposit`)), 200);
    expect(after.lastCount).toEqual(closed.lastCount);
  });

  it('a count that balances closes without asking; a check short in number is a difference too', async () => {
    const { batchId } = await batchOf(
      [
        { donor: 'ann', amount: 40, method: 'cash' },
        { donor: 'rob1', amount: 60, method: 'check', notes: 'CHK# 5512' },
      ],
      'Door',
    );
    const summary = expectStatus(await s.request('GET', q(`/api/v1/batches/${batchId}/deposit`)), 200);
    expect(summary.checks).toMatchObject([{ checkNumber: '5512', amount: 60 }]);
    // Right total, but two checks counted where one was entered.
    expectError(
      await s.request('POST', `/api/v1/batches/${batchId}/count`, {
        accountId: s.accountId,
        countedBy: 'Pat',
        counted: [
          { paymentMethod: 'cash', total: 40 },
          { paymentMethod: 'check', count: 2, total: 60 },
        ],
      }),
      409,
      { code: 'count_differs', field: 'acceptDifference' },
    );
    const closed = await post(
      `/api/v1/batches/${batchId}/count`,
      {
        countedBy: 'Pat',
        counted: [
          { paymentMethod: 'cash', total: 40 },
          { paymentMethod: 'check', count: 1, total: 60 },
        ],
      },
      200,
    );
    expect(closed.lastCount).toMatchObject({ difference: 0, countedTotal: 100, enteredTotal: 100 });
  });

  it('refuses a bad count naming the field, and closes nothing', async () => {
    const { batchId } = await batchOf([{ donor: 'zoe', amount: 19.99, method: 'cash' }], 'Bad counts');
    const send = (body: Record<string, unknown>) =>
      s.request('POST', `/api/v1/batches/${batchId}/count`, {
        accountId: s.accountId,
        countedBy: 'Pat',
        ...body,
      });
    const cash = { paymentMethod: 'cash', total: 19.99 };
    await expectRejected(s, () => send({ counted: [] }), 400, { field: 'counted' });
    await expectRejected(s, () => send({ counted: [cash, { paymentMethod: 'cash', total: 1 }] }), 400, {
      field: 'counted[1].paymentMethod',
    });
    await expectRejected(s, () => send({ counted: [{ paymentMethod: 'cash', total: -1 }] }), 400, {
      field: 'counted[0].total',
    });
    await expectRejected(s, () => send({ counted: [{ paymentMethod: 'cash', total: 1.005 }] }), 400, {
      field: 'counted[0].total',
    });
    await expectRejected(s, () => send({ counted: [{ paymentMethod: 'coins', total: 1 }] }), 400, {
      field: 'counted[0].paymentMethod',
    });
    await expectRejected(s, () => send({ counted: [{ ...cash, count: 1.5 }] }), 400, {
      field: 'counted[0].count',
    });
    await expectRejected(s, () => send({ countedBy: ' ', counted: [cash] }), 400, { field: 'countedBy' });
    await expectRejected(s, () => send({ counted: 'all of it' }), 400, { field: 'counted' });
    await expectRejected(s, () => send({ counted: [cash], acceptDifference: 'yes' }), 400, {
      field: 'acceptDifference',
    });
    expectError(
      await s.request('POST', `/api/v1/batches/bat_01J00000000000000000000000/count`, {
        accountId: s.accountId,
        countedBy: 'Pat',
        counted: [cash],
      }),
      404,
    );
    expectError(await s.request('GET', q(`/api/v1/batches/bat_01J00000000000000000000000/deposit`)), 404);
    const after = expectStatus(await s.request('GET', q(`/api/v1/batches/${batchId}/deposit`)), 200);
    expect(after.closedAt).toBeNull();
    expect(after.lastCount).toBeNull();
  });
});
