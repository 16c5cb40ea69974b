/**
 * The donor box's detail lines (renderer/screens/gift-entry/donor-lines.ts): namesakes among
 * the shown matches never read the same — email (or "no email"), organisation, city, phone and
 * last gift first, then the day each was added, then the end of their id — while a donor with
 * a name of their own keeps the short line. The saved gifts' tells (namesakeTells) say the same
 * without what changes with each gift.
 */
import { describe, expect, it } from 'vitest';
import { donorLine, donorLines, namesakeTells } from '../../renderer/screens/gift-entry/donor-lines.ts';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';

const base: ContactSummary = {
  id: 'cnt_000000000001',
  contactType: 'INDIVIDUAL',
  status: 'ACTIVE',
  firstName: 'Robert',
  lastName: 'Brown',
  organization: null,
  email: null,
  phone: null,
  city: null,
  tags: [],
  totalDonations: 0,
  lastDonationDate: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};
const c = (over: Partial<ContactSummary>): ContactSummary => ({ ...base, ...over });

describe('donor lines', () => {
  it('gives namesakes what tells them apart, and keeps the short line for everyone else', () => {
    const list = [
      c({
        id: 'cnt_a',
        email: 'rbrown@pine.example',
        city: 'Akron',
        lastDonationDate: '2025-05-01',
        totalDonations: 19.99,
      }),
      c({
        id: 'cnt_b',
        firstName: 'ROBERT',
        lastName: 'Brówn',
        organization: 'Oak Trust',
        phone: '555-0101',
      }),
      c({ id: 'cnt_c', firstName: 'Roberta', lastName: 'Browning', email: 'roberta@browning.example' }),
    ];
    const lines = donorLines(list);
    expect(lines[0]).toBe('rbrown@pine.example · Akron · last gift 2025-05-01 · $19.99 given');
    expect(lines[1]).toBe('no email · Oak Trust · 555-0101 · no gifts yet');
    expect(lines[2]).toBe(donorLine(list[2]!));
  });

  it('tells apart namesakes with nothing else on file by the day they were added, then by their id', () => {
    const lines = donorLines([
      c({ id: 'cnt_x1', createdAt: '2026-01-05T09:00:00.000Z' }),
      c({ id: 'cnt_x2', createdAt: '2026-02-07T09:00:00.000Z' }),
      c({ id: 'cnt_y3', createdAt: '2026-02-07T11:00:00.000Z' }),
    ]);
    expect(new Set(lines).size).toBe(3);
    expect(lines[0]).toBe('no email · no gifts yet · added 2026-01-05');
    expect(lines[1]).toBe('no email · no gifts yet · added 2026-02-07 · ref …cnt_x2');
    expect(lines[2]).toBe('no email · no gifts yet · added 2026-02-07 · ref …cnt_y3');
  });
});

describe('namesake tells (the saved gifts)', () => {
  it('says what tells namesakes apart, never what changes with a gift, and unties the ones that read the same', () => {
    const list = [
      c({ id: 'cnt_a', firstName: 'Zoë', lastName: 'Walker', email: 'zw@example.org', totalDonations: 25 }),
      c({
        id: 'cnt_b',
        firstName: 'zoe',
        lastName: 'WALKER',
        city: 'Portland',
        lastDonationDate: '2026-11-27',
      }),
      c({ id: 'cnt_c', firstName: 'Zoë', lastName: 'Walker', createdAt: '2026-04-01T10:00:00.000Z' }),
      c({ id: 'cnt_d', firstName: 'Zoë', lastName: 'Walker', createdAt: '2026-05-01T10:00:00.000Z' }),
    ];
    expect(namesakeTells(list)).toEqual([
      'zw@example.org',
      'no email · Portland',
      'no email · added 2026-04-01',
      'no email · added 2026-05-01',
    ]);
  });
});
