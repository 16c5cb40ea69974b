/**
 * The Dashboard's big figures, in type large enough for the event room and shown full screen
 * on request: the gifts entered today, and the batch shown (chosen here when there are
 * several) against the count and total it expects, saying by how much it is off.
 */
import type { Ref } from 'react';
import type { Batch } from '#shared/schemas/batches.ts';
import { hrefFor } from '../../router.ts';
import { count, money, whole } from '../../ui/format.ts';
import { Select } from '../../ui/index.ts';
import type { DashboardData } from './use-dashboard-data.ts';

/** Today and the batch, and when they were last updated: the part a big screen shows. */
export function BigFigures({ ref, data }: { ref: Ref<HTMLElement>; data: DashboardData }) {
  const { todayStats } = data;
  const updatedAt = todayStats.dataUpdatedAt ? new Date(todayStats.dataUpdatedAt).toLocaleTimeString() : null;
  return (
    <section ref={ref} className="big-figures" aria-label="Tonight’s figures">
      <TodayFigure stats={todayStats} event={data.role !== 'none'} />
      <BatchFigure data={data} />
      <p className="big-updated muted">
        {updatedAt ? `Updated ${updatedAt} · refreshes every ${data.refreshMs / 1000} s` : ''}
      </p>
    </section>
  );
}

/** The total and count of the gifts entered today. */
function TodayFigure({ stats, event }: { stats: DashboardData['todayStats']; event: boolean }) {
  return (
    <div className="big-figure" aria-live="polite" aria-atomic="true">
      <h2 className="big-label">{event ? 'The event, entered today' : 'Entered today'}</h2>
      {stats.data ? (
        <>
          <p className="big-amount" data-testid="today-total">
            {money(stats.data.total)}
          </p>
          <p className="big-sub" data-testid="today-count">
            {count(stats.data.count, 'gift')}
          </p>
        </>
      ) : (
        <p className="big-sub">{stats.isError ? `Not available: ${stats.error.message}` : 'Loading…'}</p>
      )}
    </div>
  );
}

/** The batch shown, the menu to show another, and its figures (or why there are none). */
function BatchFigure({ data }: { data: DashboardData }) {
  const { batchList, batchId, batch } = data;
  const b = batch.data;
  return (
    <div className="big-figure">
      <div className="big-label-row">
        <h2 className="big-label" id="batch-label">
          {b ? `Batch: ${b.name}` : 'This batch'}
        </h2>
        {batchList.length > 1 ? (
          <Select
            label="Batch shown"
            hideLabel
            value={batchId ?? ''}
            onChange={(e) => data.chooseBatch(e.target.value)}
            options={batchList.map((x) => ({
              value: x.id,
              label: `${x.name}${x.closedAt ? ' (closed)' : ''}`,
            }))}
            fieldClassName="batch-pick"
          />
        ) : null}
      </div>
      {batchId === null ? (
        data.batches.isPending ? (
          <p className="big-sub">Loading…</p>
        ) : (
          <p className="big-sub">
            No batch yet. <a href={hrefFor('gifts')}>Start one in Gift entry</a>.
          </p>
        )
      ) : b ? (
        <BatchTotals b={b} />
      ) : (
        <p className="big-sub">{batch.isError ? `Not available: ${batch.error.message}` : 'Loading…'}</p>
      )}
    </div>
  );
}

/** A batch's total and count, what it expects, and whether they match yet. */
function BatchTotals({ b }: { b: Batch }) {
  const countOff = b.expectedCount !== null && b.expectedCount !== b.count;
  const totalOff = b.expectedTotal !== null && b.expectedTotal !== b.total;
  return (
    <div aria-live="polite" aria-atomic="true">
      <p className="big-amount" data-testid="batch-total">
        {money(b.total)}
      </p>
      <p className="big-sub" data-testid="batch-count">
        {count(b.count, 'gift')}
        {b.expectedCount !== null ? ` of ${whole(b.expectedCount)} expected` : ''}
        {b.expectedTotal !== null ? ` · ${money(b.expectedTotal)} expected` : ''}
      </p>
      {countOff || totalOff ? (
        <p className="batch-off">
          Does not match yet:{' '}
          {[
            countOff
              ? `${Math.abs(b.expectedCount! - b.count)} ${b.expectedCount! > b.count ? 'more' : 'fewer'} gift${Math.abs(b.expectedCount! - b.count) === 1 ? '' : 's'} expected`
              : null,
            totalOff
              ? `${money(Math.abs(b.expectedTotal! - b.total))} ${b.expectedTotal! > b.total ? 'short' : 'over'}`
              : null,
          ]
            .filter(Boolean)
            .join(', ')}
        </p>
      ) : b.expectedCount !== null || b.expectedTotal !== null ? (
        <p className="batch-ok">Matches what was expected.</p>
      ) : null}
    </div>
  );
}
