/**
 * What stays from one gift to the next (date, payment method, designation, the host a gift
 * was raised by), said in the entry
 * row right under the amount, where the eye is while typing. A value that is not the batch's
 * own is marked, with a button that puts the batch's back and says which field it resets
 * ("Campaign: back to none"): one cash gift in a batch of checks is plain to see, and one press
 * from undone for the gifts after it.
 */
import type { ReactNode } from 'react';
import { Button } from '../../ui/index.ts';
import { METHOD_LABEL } from './reference.ts';

export type StickyField =
  'date' | 'method' | 'campaignId' | 'committeeId' | 'donationAccountId' | 'facilitatedByContactId';
export type StickyValuesOf = Record<StickyField, string>;

const LABEL: Record<StickyField, string> = {
  date: 'Date',
  method: 'Method',
  campaignId: 'Campaign',
  committeeId: 'Committee',
  donationAccountId: 'Donation account',
  facilitatedByContactId: 'Raised by',
};
const ORDER: StickyField[] = [
  'method',
  'date',
  'campaignId',
  'committeeId',
  'donationAccountId',
  'facilitatedByContactId',
];

/** "Wed, Nov 25, 2026" for a yyyy-mm-dd date (what was typed, while it is not one yet). */
const DAY = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
});

export function dayName(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date || '—';
  const d = new Date(`${date}T00:00:00`);
  // One formatter for every render (toLocaleDateString builds one per call).
  return Number.isNaN(d.getTime()) ? date : DAY.format(d);
}

export function StickyValues({
  id,
  values,
  batch,
  nameOf,
  onRevert,
  thisGift,
  more,
}: {
  id: string;
  values: StickyValuesOf;
  /** The batch's own values: what every gift starts with. */
  batch: StickyValuesOf;
  nameOf: (field: Exclude<StickyField, 'date' | 'method'>, id: string) => string | null;
  onRevert: (field: StickyField) => void;
  /** What this gift alone has (a credit, sustainer), said after the kept values; none when empty. */
  thisGift?: string[];
  /** A button after the line's own (the credit and host boxes, while they are not on screen). */
  more?: ReactNode;
}) {
  const shown = (f: StickyField, v: string): string => {
    if (f === 'method') return METHOD_LABEL[v as keyof typeof METHOD_LABEL] ?? (v || '—');
    if (f === 'date') return dayName(v);
    return v ? (nameOf(f, v) ?? '…') : 'none';
  };
  // The method and the date always; a designation when there is one, or when it was changed.
  const items = ORDER.filter((f) => f === 'method' || f === 'date' || values[f] !== '' || batch[f] !== '');
  return (
    <div className="gift-sticky" data-testid="gift-sticky">
      <span className="gift-sticky-title" id={id}>
        Each gift until changed:{' '}
        {items.map((f, i) => (
          <span
            key={f}
            className={values[f] !== batch[f] ? 'sticky-value sticky-changed' : 'sticky-value'}
            data-sticky={f}
          >
            {i > 0 ? ' · ' : null}
            {f === 'method' || f === 'date' ? null : `${LABEL[f]} `}
            <b>{shown(f, values[f])}</b>
            {values[f] !== batch[f] ? (
              <span className="sticky-was"> (this batch: {shown(f, batch[f])})</span>
            ) : null}
          </span>
        ))}
        {thisGift && thisGift.length > 0 ? (
          <span className="sticky-value sticky-this-gift" data-sticky="this-gift">
            {' · This gift: '}
            <b>{thisGift.join(' · ')}</b>
          </span>
        ) : null}
      </span>
      {items
        .filter((f) => values[f] !== batch[f])
        .map((f) => (
          <Button
            key={f}
            tone="quiet"
            className="sticky-revert"
            onClick={() => onRevert(f)}
            title={`Back to this batch’s ${LABEL[f].toLowerCase()} for the next gifts`}
          >
            {f === 'facilitatedByContactId'
              ? `${LABEL[f]}: clear`
              : `${LABEL[f]}: back to ${shown(f, batch[f])}`}
          </Button>
        ))}
      {more}
    </div>
  );
}
