/**
 * The contact page's credits panel: gifts credited to this contact while another contact is
 * the legal donor (a spouse's check, a gift in their name), each marked as a credit and never
 * in the totals above (those are their own money); and, for a host, what they raised (the
 * gifts naming them as "raised by"). Shows nothing when there is neither.
 */
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Section } from './contact-details.tsx';
import { count, day, enumLabel, money } from './format.ts';

export function Credits({ id }: { id: string }) {
  const api = useApi();
  const credits = useQuery({ queryKey: qk.credits(id), queryFn: () => api.reports.credits(id) });
  if (credits.isPending) return null;
  if (credits.error) {
    return (
      <Section title="Credits" id="contact-credits">
        <p className="notice notice-error" role="alert">
          The credits could not be loaded: {errorMessage(credits.error)}
        </p>
      </Section>
    );
  }
  const { credits: list, creditCount, creditTotal, raised } = credits.data;
  if (creditCount === 0 && raised.count === 0) return null;
  return (
    <Section title="Credits" id="contact-credits">
      {raised.count > 0 ? (
        <dl className="giving-totals" data-testid="raised-by-totals">
          <div className="total-big">
            <dt>Raised as host</dt>
            <dd>{money(raised.total)}</dd>
          </div>
          <div>
            <dt>Gifts raised</dt>
            <dd>{raised.count.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>Donors</dt>
            <dd>{raised.donors.toLocaleString('en-US')}</dd>
          </div>
        </dl>
      ) : null}
      {creditCount > 0 ? (
        <>
          <p className="muted">
            Credited to this contact, given by someone else: {money(creditTotal)} in{' '}
            {count(creditCount, 'gift')}. Not counted in the total given above, nor in this contact’s
            contribution limits.
          </p>
          <table className="table giving-table" data-testid="soft-credits">
            <caption className="visually-hidden">Gifts credited to this contact, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Given by</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {list.map((d) => (
                <tr key={d.donationId}>
                  <td>{day(d.donationDate)}</td>
                  <td className="num">{money(d.donationAmount)}</td>
                  <td>
                    <span className="badge">credit</span> {d.donorName}
                    {d.isRecurring ? <span className="badge">sustainer</span> : null}
                  </td>
                  <td>{d.status === 'completed' ? 'Completed' : enumLabel(d.status)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </Section>
  );
}
