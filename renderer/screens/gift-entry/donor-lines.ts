/**
 * How a donor reads in a list of matches (the donor box, the new-donor hint): name, and a
 * detail line that tells namesakes apart; and, in the list of saved gifts, what tells
 * namesakes apart alone (namesakeTells). Pure, so it is tested without a browser.
 */
import { foldText } from '#shared/fold.ts';
import { formatDollars } from '#shared/money.ts';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';

export function donorLine(c: ContactSummary): string {
  const parts = [
    c.email,
    c.city,
    c.lastDonationDate ? `last gift ${c.lastDonationDate.slice(0, 10)}` : 'no gifts yet',
    c.totalDonations > 0 ? `${formatDollars(c.totalDonations)} given` : null,
  ];
  return parts.filter(Boolean).join(' · ');
}

export const donorName = (c: { firstName: string; lastName: string }) =>
  `${c.firstName} ${c.lastName}`.trim();

/** A name as namesakes share it: accents, case and spacing aside ("zoe  walker" is Zoë Walker). */
export const nameKey = (name: string) => foldText(name.trim()).replace(/\s+/g, ' ');

const foldName = (c: { firstName: string; lastName: string }) => nameKey(donorName(c));

/**
 * The detail line of each contact in a list of matches. A contact whose name another shown
 * contact shares (accents and case aside) gets what tells namesakes apart: email (or "no
 * email"), organisation, city, phone, last gift, total; when two namesakes still read the
 * same, the day each was added, then the end of their id.
 */
export function donorLines(list: readonly ContactSummary[]): string[] {
  const seen = new Map<string, number>();
  for (const c of list) seen.set(foldName(c), (seen.get(foldName(c)) ?? 0) + 1);
  const lines = list.map((c) => {
    if ((seen.get(foldName(c)) ?? 0) < 2) return donorLine(c);
    const gift = c.lastDonationDate ? `last gift ${c.lastDonationDate.slice(0, 10)}` : 'no gifts yet';
    const total = c.totalDonations > 0 ? `${formatDollars(c.totalDonations)} given` : null;
    return [c.email ?? 'no email', c.organization, c.city, c.phone, gift, total].filter(Boolean).join(' · ');
  });
  return untie(list, lines);
}

/**
 * What tells each of a list of namesakes apart where the name is already shown (a saved gift's
 * row): email (or "no email"), organisation, city, phone; when two still read the same, the day
 * each was added, then the end of their id. Nothing that changes with a gift (last gift, total).
 */
export function namesakeTells(list: readonly ContactSummary[]): string[] {
  return untie(
    list,
    list.map((c) => [c.email ?? 'no email', c.organization, c.city, c.phone].filter(Boolean).join(' · ')),
  );
}

/** Adds the day added, then the end of the id, to the lines of namesakes that still read the same. */
function untie(list: readonly ContactSummary[], lines: string[]): string[] {
  for (const extra of [
    (c: ContactSummary) => `added ${c.createdAt.slice(0, 10)}`,
    (c: ContactSummary) => `ref …${c.id.slice(-6)}`,
  ]) {
    const key = (i: number) => `${foldName(list[i]!)}\u0000${lines[i]}`;
    const counts = new Map<string, number>();
    lines.forEach((_, i) => counts.set(key(i), (counts.get(key(i)) ?? 0) + 1));
    const same = lines.map((_, i) => (counts.get(key(i)) ?? 0) > 1);
    same.forEach((dup, i) => {
      if (dup) lines[i] = `${lines[i]} · ${extra(list[i]!)}`;
    });
  }
  return lines;
}
