/** One row of the contact list (its cells), the row shown while its page loads, and their height. */
import { tagsForPeople } from '#shared/sync-reference.ts';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { hrefFor } from '../../router.ts';
import { day, money } from './format.ts';

/** Every row's height in pixels: the list places rows, and pages through them, by it. */
export const ROW_HEIGHT = 52;

export function Row({
  row,
  tabIndex,
  onFocus,
}: {
  row: ContactSummary;
  tabIndex: number;
  onFocus: () => void;
}) {
  const name = `${row.firstName} ${row.lastName}`.trim();
  return (
    <>
      <div role="cell" className="ccell ccell-name">
        <a href={hrefFor('contacts', row.id)} tabIndex={tabIndex} onFocus={onFocus} className="crow-link">
          {name}
        </a>
        <span className="crow-sub">
          {row.organization ? <span className="muted">{row.organization}</span> : null}
          {row.status !== 'ACTIVE' ? (
            <span className="badge">{row.status.replace(/_/g, ' ').toLowerCase()}</span>
          ) : null}
          {tagsForPeople(row.tags)
            .slice(0, 3)
            .map((t) => (
              <span key={t} className="badge badge-tag">
                {t}
              </span>
            ))}
        </span>
      </div>
      <div role="cell" className="ccell ccell-email">
        {row.email ?? <span className="muted">—</span>}
      </div>
      <div role="cell" className="ccell ccell-phone">
        {row.phone ?? <span className="muted">—</span>}
      </div>
      <div role="cell" className="ccell ccell-city">
        {row.city ?? <span className="muted">—</span>}
      </div>
      <div role="cell" className="ccell ccell-date">
        {row.lastDonationDate ? day(row.lastDonationDate) : <span className="muted">never</span>}
      </div>
      <div role="cell" className="ccell ccell-money">
        {money(row.totalDonations)}
      </div>
    </>
  );
}

export function LoadingRow() {
  return (
    <>
      <div role="cell" className="ccell ccell-name">
        <span className="skeleton">Loading…</span>
      </div>
      <div role="cell" className="ccell ccell-email" />
      <div role="cell" className="ccell ccell-phone" />
      <div role="cell" className="ccell ccell-city" />
      <div role="cell" className="ccell ccell-date" />
      <div role="cell" className="ccell ccell-money" />
    </>
  );
}
