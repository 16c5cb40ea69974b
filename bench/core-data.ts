/**
 * The core benches' datasets as CSV: contacts with the shared names (bench/names.ts) and
 * gifts spread over three years, from fixed seeds.
 */
import fs from 'node:fs';
import { FIRST, LAST, rng } from './names.ts';

export function contactsCsv(file: string, n: number): void {
  const r = rng(1);
  const out = fs.openSync(file, 'w');
  let buf = 'externalId,firstName,lastName,primaryEmail,organization\n';
  for (let i = 0; i < n; i++) {
    const f = FIRST[Math.floor(r() * FIRST.length)]!;
    const l = LAST[Math.floor(r() * LAST.length)]!;
    const suffix = Math.floor(r() * 5000);
    const local = `${f}.${l}${i}`
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase();
    buf += `c${i},${f},${l}${suffix},${local}@example${i % 97}.org,${i % 4 === 0 ? `Org ${i % 3001}` : ''}\n`;
    if (buf.length > 1 << 20) {
      fs.writeSync(out, buf);
      buf = '';
    }
  }
  fs.writeSync(out, buf);
  fs.closeSync(out);
}

export interface DonationRowSpec {
  externalId: string;
  contact: number;
  cents: number;
  date: string;
  method: string;
}
export function* donationRows(n: number, contacts: number): Generator<DonationRowSpec> {
  const r = rng(2);
  const methods = ['cash', 'check', 'credit_card', 'ach'];
  const start = Date.UTC(2023, 0, 1);
  const span = Date.UTC(2026, 10, 21) - start;
  let previous: DonationRowSpec | null = null;
  for (let i = 0; i < n; i++) {
    const row: DonationRowSpec = {
      externalId: `d${i}`,
      contact: Math.floor(r() * contacts),
      cents: 500 + Math.floor(r() * 50_000),
      date: new Date(start + Math.floor(r() * span)).toISOString(),
      method: methods[i % methods.length]!,
    };
    // Twin gifts, as at real events: every 50th pair is the same donor, $19.99 cash, the same
    // minute, each row with its own reference (two gifts: both are imported).
    if (i % 50 === 48) Object.assign(row, { cents: 1999, method: 'cash' });
    if (i % 50 === 49 && previous) Object.assign(row, { ...previous, externalId: `d${i}` });
    previous = row;
    yield row;
  }
}

export function donationsCsv(file: string, n: number, contacts: number, campaignId: string): void {
  const out = fs.openSync(file, 'w');
  let buf = 'externalId,contactExternalId,donationAmount,donationDate,paymentMethod,campaignId\n';
  for (const d of donationRows(n, contacts)) {
    buf += `${d.externalId},c${d.contact},${(d.cents / 100).toFixed(2)},${d.date},${d.method},${campaignId}\n`;
    if (buf.length > 1 << 20) {
      fs.writeSync(out, buf);
      buf = '';
    }
  }
  fs.writeSync(out, buf);
  fs.closeSync(out);
}
