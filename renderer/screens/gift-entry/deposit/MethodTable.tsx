/**
 * The deposit's figures: per payment method the gifts entered and their total against what was
 * counted (the inputs while counting, the record once closed) and the difference; and every
 * check, once, with its donor, number and amount.
 */
import type { ReactNode } from 'react';
import type { PaymentMethod } from '#shared/enums.ts';
import { formatCents, wireCents } from '#shared/money.ts';
import type { DepositSummary } from '#shared/schemas/batch-balance.ts';
import { Table } from '../../../ui/index.ts';
import { METHOD_LABEL } from '../reference.ts';
import { differenceWords, type LineState } from './balance.ts';

function Difference({ line }: { line: LineState }) {
  if (line.differenceCents === null) return <span className="muted">—</span>;
  const off = line.differenceCents !== 0 || line.countDiffers;
  return (
    <span className={off ? 'deposit-off' : 'deposit-even'}>
      {differenceWords(line.differenceCents)}
      {line.countDiffers ? ` · ${line.countedCount} counted, ${line.enteredCount} entered` : ''}
    </span>
  );
}

export function MethodTable({
  summary,
  lines,
  counted,
}: {
  summary: DepositSummary;
  lines: readonly LineState[];
  /** The counted cells of a method's row: inputs, or the record. */
  counted: (m: PaymentMethod, index: number) => { count: ReactNode; total: ReactNode };
}) {
  return (
    <Table
      caption="By payment method: entered against counted"
      className="deposit-methods"
      columns={[
        'Method',
        { label: 'Gifts entered', num: true },
        { label: 'Entered', num: true },
        { label: 'Number counted', num: true },
        { label: 'Counted', num: true },
        'Difference',
      ]}
    >
      {lines.map((l, i) => {
        const cells = counted(l.paymentMethod, i);
        return (
          <tr key={l.paymentMethod} data-method={l.paymentMethod}>
            <th scope="row">{METHOD_LABEL[l.paymentMethod]}</th>
            <td className="num">{l.enteredCount}</td>
            <td className="num">{formatCents(l.enteredCents)}</td>
            <td className="num">{cells.count}</td>
            <td className="num">{cells.total}</td>
            <td>
              <Difference line={l} />
            </td>
          </tr>
        );
      })}
      <tr className="deposit-total-row">
        <th scope="row">All gifts</th>
        <td className="num">{summary.count}</td>
        <td className="num">{formatCents(wireCents(summary.total))}</td>
        <td />
        <td />
        <td />
      </tr>
    </Table>
  );
}

export function ChecksTable({ summary }: { summary: DepositSummary }) {
  if (summary.checks.length === 0) return <p className="muted">No checks in this batch.</p>;
  return (
    <Table
      caption="Checks in the deposit"
      className="deposit-checks"
      columns={[{ label: 'No.', num: true }, 'Donor', 'Check number', { label: 'Amount', num: true }]}
    >
      {summary.checks.map((c, i) => (
        <tr key={c.donationId}>
          <td className="num muted">{i + 1}</td>
          <td>
            {c.contactName}
            {c.contactEmail || c.contactOrganization ? (
              <span className="muted"> · {c.contactOrganization ?? c.contactEmail}</span>
            ) : null}
          </td>
          <td>{c.checkNumber ?? <span className="muted">not written</span>}</td>
          <td className="num">{formatCents(wireCents(c.amount))}</td>
        </tr>
      ))}
      <tr className="deposit-total-row">
        <td />
        <th scope="row">
          {summary.checks.length} check{summary.checks.length === 1 ? '' : 's'}
        </th>
        <td />
        <td className="num" data-testid="checks-total">
          {formatCents(wireCents(summary.checksTotal))}
        </td>
      </tr>
    </Table>
  );
}
