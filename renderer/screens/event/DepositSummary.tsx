/**
 * The deposit summary the treasurer takes to the bank: the organisation, the night's date,
 * the cash total and every check (number, donor, amount, station), their total, what each
 * station's treasurer counted per batch beside what was entered, and lines to sign.
 * It lives outside the app's page (a portal on the body) and only the printer sees it: the
 * print stylesheet (event-print.css) shows it alone.
 */
import { useQuery } from '@tanstack/react-query';
import { createPortal } from 'react-dom';
import type { z } from 'zod';
import type { CloseOut } from '#shared/schemas/hub.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { count, money } from '../../ui/format.ts';
import { clockTime } from './event-words.ts';
import './event-print.css';

type Close = z.infer<typeof CloseOut>;

export function DepositSummary({ c }: { c: Close }) {
  const api = useApi();
  const account = useQuery({ queryKey: qk.account, queryFn: () => api.account() });
  const names = new Map(c.stations.map((s) => [s.id, s.name]));
  const checksCents = c.checks.reduce((sum, k) => sum + Math.round(k.amount * 100), 0);
  const printed = new Date().toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' });
  return createPortal(
    <div className="deposit-print" data-testid="deposit-summary">
      <h1>Deposit summary</h1>
      <p>
        {account.data?.name ?? ''}
        {account.data ? ' · ' : ''}printed {printed}
      </p>
      <h2>Cash</h2>
      <p className="deposit-cash">
        Cash total: <strong data-testid="deposit-cash">{money(c.cashTotal)}</strong>
      </p>
      <h2>Checks ({count(c.checks.length, 'check')})</h2>
      {c.checks.length === 0 ? (
        <p>No checks.</p>
      ) : (
        <table className="deposit-checks">
          <thead>
            <tr>
              <th scope="col">Check no.</th>
              <th scope="col">Donor</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col">Station</th>
            </tr>
          </thead>
          <tbody>
            {c.checks.map((k) => (
              <tr key={k.donationId} data-testid="deposit-check">
                <td>{k.checkNumber ?? '—'}</td>
                <td>{k.donor}</td>
                <td className="num">{money(k.amount)}</td>
                <td>{k.stationId === null ? 'the hub' : (names.get(k.stationId) ?? k.stationId)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td />
              <th scope="row">Checks total</th>
              <td className="num" data-testid="deposit-checks-total">
                {money(checksCents / 100)}
              </td>
              <td />
            </tr>
          </tfoot>
        </table>
      )}
      <p className="deposit-total">
        Cash and checks: <strong>{money((Math.round(c.cashTotal * 100) + checksCents) / 100)}</strong>
      </p>
      <StationCounts c={c} />
      <div className="deposit-sign">
        <p>Counted by: ______________________________</p>
        <p>Checked by: ______________________________</p>
      </div>
    </div>,
    document.body,
  );
}

/** Each station's counted batches: entered against counted per payment method, who counted. */
function StationCounts({ c }: { c: Close }) {
  const rows = c.stations.flatMap((s) => s.batches.map((b) => ({ station: s.name, b })));
  if (rows.length === 0) return null;
  return (
    <>
      <h2>Counted at the stations</h2>
      <table className="deposit-checks">
        <thead>
          <tr>
            <th scope="col">Station, batch</th>
            <th scope="col">Method</th>
            <th scope="col" className="num">
              Entered
            </th>
            <th scope="col" className="num">
              Counted
            </th>
            <th scope="col" className="num">
              Difference
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.flatMap(({ station, b }) =>
            b.lines.map((l, i) => (
              <tr key={`${station}:${b.batchId}:${l.paymentMethod}`} data-testid="deposit-count">
                <td>
                  {i === 0
                    ? `${station}, ${b.batchName} (counted by ${b.countedBy} at ${clockTime(b.countedAt)})`
                    : ''}
                </td>
                <td>{l.paymentMethod}</td>
                <td className="num">{money(l.enteredTotal)}</td>
                <td className="num">{money(l.countedTotal)}</td>
                <td className="num">{money(l.difference)}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </>
  );
}
