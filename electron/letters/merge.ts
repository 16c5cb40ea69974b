/**
 * A template and a document → the letter to draw: the merge fields (`{{donor.name}}`…)
 * filled in, the body cut into paragraphs at blank lines, and `{{gifts}}` a table of the
 * gifts with their total. A line that held only fields with nothing in them (a signer with no
 * title) is left out; a field name GiftDesk does not know stays as typed, so it shows.
 */
import { paymentMethodLabel, type PaymentMethod } from '#shared/enums.ts';
import { formatCents } from '#shared/money.ts';
import type { LetterSettings } from '#shared/schemas/letters.ts';
import type { TemplateText } from './defaults.ts';
import type { LetterBlock, LetterPage } from './render/pages.ts';
import type { LetterDocument, LetterSet } from './select.ts';

const FIELD = /\{\{\s*([a-zA-Z.]+)\s*\}\}/g;
const GIFTS = /\{\{\s*gifts\s*\}\}/;

const DATE = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});
const SHORT_DATE = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** A stored instant or a YYYY-MM-DD date as a letter writes it: "March 1, 2026". */
export function letterDate(isoOrDate: string): string {
  const d = new Date(isoOrDate.length === 10 ? `${isoOrDate}T00:00:00.000Z` : isoOrDate);
  return Number.isNaN(d.getTime()) ? isoOrDate : DATE.format(d);
}

/** A gift's date in the table: "Mar 1, 2026". */
export function tableDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : SHORT_DATE.format(d);
}

/** A payment method as the letter names it: the app's one wording (ACH, Credit card, In kind). */
export function paymentLabel(m: PaymentMethod): string {
  return paymentMethodLabel(m);
}

export const GIFT_COLUMNS = ['Date', 'Campaign', 'Payment', 'Amount'];

/** The gifts table of a document. */
export function giftsTable(doc: LetterDocument): Extract<LetterBlock, { kind: 'table' }> {
  return {
    kind: 'table',
    columns: GIFT_COLUMNS,
    rows: doc.gifts.map((g) => [
      tableDate(g.date),
      g.campaignName ?? '',
      paymentLabel(g.paymentMethod),
      formatCents(g.amountCents),
    ]),
    footer: [
      'Total',
      doc.gifts.length === 1 ? '1 gift' : `${doc.gifts.length} gifts`,
      '',
      formatCents(doc.totalCents),
    ],
  };
}

function periodText(set: LetterSet): string {
  const { from, to, year } = set.period;
  if (set.kind === 'year-end' && year !== null) return String(year);
  if (from && to) return `${letterDate(from)} – ${letterDate(to)}`;
  if (from) return `since ${letterDate(from)}`;
  if (to) return `until ${letterDate(to)}`;
  return '';
}

export interface MergeContext {
  settings: Pick<LetterSettings, 'organizationName' | 'organizationAddress' | 'signerName' | 'signerTitle'>;
  set: Pick<LetterSet, 'kind' | 'period'>;
  /** The letter's date (an ISO instant). */
  today: string;
}

/** Every merge field's value for one document. */
export function fieldValues(doc: LetterDocument, ctx: MergeContext): Record<string, string> {
  const first = doc.gifts[0];
  const campaigns = [...new Set(doc.gifts.map((g) => g.campaignName).filter((c): c is string => !!c))];
  return {
    date: letterDate(ctx.today),
    'donor.name': doc.donor.name,
    'donor.salutation': doc.donor.salutation,
    'donor.address': doc.donor.addressLines.join('\n'),
    total: formatCents(doc.totalCents),
    'gift.count': String(doc.gifts.length),
    'gift.amount': first ? formatCents(first.amountCents) : '',
    'gift.date': first ? letterDate(first.date) : '',
    period: periodText(ctx.set as LetterSet),
    year: ctx.set.period.year !== null ? String(ctx.set.period.year) : '',
    campaign: campaigns.join(', '),
    'organization.name': ctx.settings.organizationName ?? '',
    'organization.address': ctx.settings.organizationAddress ?? '',
    'signer.name': ctx.settings.signerName ?? '',
    'signer.title': ctx.settings.signerTitle ?? '',
  };
}

/** Fills the fields of `text`; lines that held only empty fields go. */
export function fillFields(text: string, values: Record<string, string>): string {
  return text
    .split('\n')
    .flatMap((line) => {
      let any = false;
      let allEmpty = true;
      const filled = line.replace(FIELD, (whole, name: string) => {
        const v = values[name];
        if (v === undefined) return whole;
        any = true;
        if (v !== '') allEmpty = false;
        return v;
      });
      return any && allEmpty && line.replace(FIELD, '').trim() === '' ? [] : [filled];
    })
    .join('\n');
}

function slug(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[Łł]/g, (c) => (c === 'Ł' ? 'L' : 'l'))
    .replace(/[Đđ]/g, (c) => (c === 'Đ' ? 'D' : 'd'))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return s || 'donor';
}

/** The file name of one donor's letter when a run writes one PDF per donor. */
export function perDonorFileName(index: number, doc: LetterDocument): string {
  return `${String(index + 1).padStart(5, '0')}-${slug(doc.donor.name)}.pdf`;
}

/** One document's letter: letterhead, heading, the body's paragraphs with the gifts table. */
export function mergeLetter(
  template: TemplateText,
  doc: LetterDocument,
  ctx: MergeContext,
  index = 0,
): LetterPage {
  const values = fieldValues(doc, ctx);
  const blocks: LetterBlock[] = [];
  const org = ctx.settings.organizationName?.trim();
  if (org) {
    const address = (ctx.settings.organizationAddress ?? '').split('\n').filter((l) => l.trim() !== '');
    blocks.push({ kind: 'letterhead', lines: [org, ...address] });
  }
  const heading = fillFields(template.heading, values).trim();
  if (heading) blocks.push({ kind: 'heading', text: heading });
  for (const raw of template.body.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/)) {
    const parts = raw.split(GIFTS);
    parts.forEach((part, i) => {
      if (i > 0) blocks.push(giftsTable(doc));
      const text = fillFields(part, values).replace(/^\n+|\n+$/g, '');
      if (text.trim() !== '') blocks.push({ kind: 'paragraph', text });
    });
  }
  return { blocks, fileName: perDonorFileName(index, doc) };
}
