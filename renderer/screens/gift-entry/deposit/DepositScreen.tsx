/**
 * The deposit summary of a batch (#/gifts/deposit/<batch id>): what goes in the deposit bag —
 * count and total by payment method, the cash total, every check — against what the person
 * counting types; closing records who counted and the difference. Once closed, the count
 * record. Printable (window.print(); deposit.css hides the app around it).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { formatCents, wireCents } from '#shared/money.ts';
import type { BatchCount, DepositSummary } from '#shared/schemas/batch-balance.ts';
import { useApi } from '../../../api/provider.tsx';
import { qk } from '../../../api/query-keys.ts';
import { navigate } from '../../../router.ts';
import { dateTime } from '../../../ui/format.ts';
import { Button, Loaded, Screen } from '../../../ui/index.ts';
import { type LineState, countSentence, countedMethods, differenceWords, lineState } from './balance.ts';
import { CountForm } from './CountForm.tsx';
import { ChecksTable, MethodTable } from './MethodTable.tsx';
import './deposit.css';

/** The record's lines as the table shows them. */
function recordLines(summary: DepositSummary, count: BatchCount): LineState[] {
  return count.lines.map((l) => ({
    paymentMethod: l.paymentMethod,
    enteredCount: l.enteredCount,
    enteredCents: wireCents(l.enteredTotal),
    countedCents: wireCents(l.countedTotal),
    countedCount: l.countedCount,
    differenceCents: wireCents(l.difference),
    countDiffers: l.countedCount !== null && l.countedCount !== l.enteredCount,
  }));
}

/** What was counted when the batch was closed: who, when, the difference, per method. */
export function CountRecord({ summary, count }: { summary: DepositSummary; count: BatchCount }) {
  const lines = recordLines(summary, count);
  const differs = countSentence(lines)?.differs ?? false;
  const ref = useRef<HTMLElement>(null);
  // Closed just now, the form (and the button pressed) went: the focus comes to the record.
  useEffect(() => {
    if (document.activeElement === null || document.activeElement === document.body) ref.current?.focus();
  }, []);
  return (
    <section
      ref={ref}
      tabIndex={-1}
      className="deposit-record"
      aria-label="Count record"
      data-testid="count-record"
    >
      <p className={`notice ${differs ? 'notice-warn' : 'notice-ok'}`}>
        Closed {dateTime(summary.closedAt)}. Counted by <strong>{count.countedBy}</strong> at{' '}
        {dateTime(count.countedAt)}: {formatCents(wireCents(count.countedTotal))} against{' '}
        {formatCents(wireCents(count.enteredTotal))} entered —{' '}
        <strong>
          {wireCents(count.difference) === 0 && !differs
            ? 'it balanced'
            : `difference ${differenceWords(wireCents(count.difference))}`}
        </strong>
        .{count.note ? ` Note: ${count.note}` : ''}
      </p>
      <MethodTable
        summary={summary}
        lines={lines}
        counted={(m) => {
          const l = lines.find((x) => x.paymentMethod === m);
          return {
            count: l?.countedCount ?? '—',
            total: l?.countedCents === null || l === undefined ? '—' : formatCents(l.countedCents),
          };
        }}
      />
    </section>
  );
}

/** A closed batch never counted (closed before counting existed, or by a script): its figures alone. */
function Uncounted({ summary }: { summary: DepositSummary }) {
  return (
    <>
      <p className="notice">Closed {dateTime(summary.closedAt)} without a count.</p>
      <MethodTable
        summary={summary}
        lines={countedMethods(summary).map((m) => lineState(summary, m, undefined))}
        counted={() => ({ count: '—', total: '—' })}
      />
    </>
  );
}

function DepositBody({ summary }: { summary: DepositSummary }) {
  return (
    <>
      <dl className="deposit-heads">
        <div>
          <dt>Gifts</dt>
          <dd data-testid="deposit-count">{summary.count}</dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd data-testid="deposit-total">{formatCents(wireCents(summary.total))}</dd>
        </div>
        <div>
          <dt>Cash</dt>
          <dd data-testid="deposit-cash">{formatCents(wireCents(summary.cashTotal))}</dd>
        </div>
        <div>
          <dt>Checks</dt>
          <dd>
            {summary.checks.length} · {formatCents(wireCents(summary.checksTotal))}
          </dd>
        </div>
        <div>
          <dt>Date</dt>
          <dd>{summary.batchDate ?? '—'}</dd>
        </div>
      </dl>
      {summary.lastCount && summary.closedAt ? (
        <CountRecord summary={summary} count={summary.lastCount} />
      ) : summary.closedAt ? (
        <Uncounted summary={summary} />
      ) : (
        <CountForm key={summary.batchId} summary={summary} />
      )}
      <h2 className="deposit-subhead">Checks</h2>
      <ChecksTable summary={summary} />
    </>
  );
}

export function DepositScreen({ batchId }: { batchId: string }) {
  const api = useApi();
  const deposit = useQuery({
    queryKey: qk.batchDeposit(batchId),
    queryFn: () => api.batches.deposit(batchId),
  });
  const s = deposit.data;
  return (
    <Screen
      title={s ? `Deposit summary: ${s.batchName}` : 'Deposit summary'}
      className="deposit"
      actions={
        <>
          <Button onClick={() => navigate('gifts')}>Back to gift entry</Button>
          <Button onClick={() => window.print()} disabled={!s}>
            Print
          </Button>
        </>
      }
    >
      <Loaded query={deposit} noun="deposit summary">
        {s ? <DepositBody summary={s} /> : null}
      </Loaded>
    </Screen>
  );
}
