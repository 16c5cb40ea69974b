/**
 * The contact page's giving panel: totals, a chart by year, and the gifts page by page,
 * newest first, each completed one with Correct and Void (wherever it was typed: at an event's
 * hub, a station's gift too).
 */
import { notesForPeople } from '#shared/sync-reference.ts';
import { useState } from 'react';
import { paymentMethodLabel } from '#shared/enums.ts';
import { errorMessage } from '../../api/errors.ts';
import { Button, EmptyState } from '../../ui/index.ts';
import { GiftActions } from '../gift-entry/GiftActions.tsx';
import { Section } from './contact-details.tsx';
import { day, enumLabel, money } from './format.ts';
import { GivingChart } from './GivingChart.tsx';
import { GIVING_PAGE_SIZE, useGiving } from './queries.ts';

export function Giving({ id, donorName }: { id: string; donorName: string }) {
  const [page, setPage] = useState(0);
  const giving = useGiving(id, page);
  if (giving.isPending) {
    return (
      <Section title="Giving" id="contact-giving">
        <p className="muted" role="status">
          Loading the giving history…
        </p>
      </Section>
    );
  }
  if (giving.error) {
    return (
      <Section title="Giving" id="contact-giving">
        <p className="notice notice-error" role="alert">
          The giving history could not be loaded: {errorMessage(giving.error)}
        </p>
      </Section>
    );
  }
  const { totals, donations, total } = giving.data;
  const pages = Math.max(1, Math.ceil(total / GIVING_PAGE_SIZE));
  return (
    <Section title="Giving" id="contact-giving">
      {totals.donationCount === 0 ? (
        <EmptyState title="No gifts yet.">
          Gifts entered for this contact on the Gift entry screen appear here, with their totals.
        </EmptyState>
      ) : (
        <>
          <dl className="giving-totals">
            <div className="total-big">
              <dt>Total given</dt>
              <dd>{money(totals.totalDonations)}</dd>
            </div>
            <div>
              <dt>Gifts</dt>
              <dd>{totals.completedCount.toLocaleString('en-US')}</dd>
            </div>
            <div>
              <dt>Average gift</dt>
              <dd>{totals.averageGift === null ? '—' : money(totals.averageGift)}</dd>
            </div>
            <div>
              <dt>Largest gift</dt>
              <dd>{totals.largestGift === null ? '—' : money(totals.largestGift)}</dd>
            </div>
            <div>
              <dt>First gift</dt>
              <dd>{day(totals.firstDonationDate)}</dd>
            </div>
            <div>
              <dt>Last gift</dt>
              <dd>{day(totals.lastDonationDate)}</dd>
            </div>
          </dl>
          {totals.refundedTotal > 0 || totals.disputedTotal > 0 ? (
            <p className="muted">
              Not counted in the total:{' '}
              {totals.refundedTotal > 0 ? `${money(totals.refundedTotal)} refunded` : ''}
              {totals.refundedTotal > 0 && totals.disputedTotal > 0 ? ', ' : ''}
              {totals.disputedTotal > 0 ? `${money(totals.disputedTotal)} disputed` : ''}.
            </p>
          ) : null}
          {totals.byYear.length > 0 ? <GivingChart years={totals.byYear} /> : null}
          <table className="table giving-table">
            <caption className="visually-hidden">Gifts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Method</th>
                <th scope="col">Credited to</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {donations.map((d) => (
                <tr key={d.id}>
                  <td>{day(d.donationDate)}</td>
                  <td className="num">{money(d.donationAmount)}</td>
                  <td>{paymentMethodLabel(d.paymentMethod)}</td>
                  <td>
                    {[d.campaignName, d.committeeName, d.donationAccountName].filter(Boolean).join(' · ')}
                    {d.isAnonymous ? <span className="badge">anonymous</span> : null}
                    {d.isRecurring ? <span className="badge">recurring</span> : null}
                    {notesForPeople(d.notes) ? (
                      <div className="muted giving-note">{notesForPeople(d.notes)}</div>
                    ) : null}
                  </td>
                  <td>
                    {d.status === 'completed' ? (
                      'Completed'
                    ) : (
                      <span className="badge badge-warn">{enumLabel(d.status)}</span>
                    )}
                    {d.flagged ? (
                      <span className="badge badge-warn" title="Over a contribution limit: see Review">
                        over limit
                      </span>
                    ) : null}
                  </td>
                  <td>
                    {d.status === 'completed' ? (
                      <GiftActions donationId={d.id} amount={d.donationAmount} donorName={donorName} />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {pages > 1 ? (
            <nav className="pager" aria-label="Gift pages">
              <Button disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
                Newer gifts
              </Button>
              <span aria-live="polite">
                Page {page + 1} of {pages}
              </span>
              <Button disabled={page >= pages - 1} onClick={() => setPage((p) => p + 1)}>
                Older gifts
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </Section>
  );
}
