/**
 * The batch: its name and defaults, and its count and total against the expected ones —
 * said plainly when they do not match. Batches live on the server (/api/v1/batches), so a
 * closed lid or a crash loses none; the one in use is remembered per window.
 */
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { formatCents, wireCents } from '#shared/money.ts';
import { type Batch } from '#shared/schemas/batches.ts';
import { Button, Select } from '../../ui/index.ts';
import { BatchBalance } from './deposit/BatchBalance.tsx';
import { METHOD_LABEL, useReferenceData } from './reference.ts';

/** "Matches", or what is short or over, in words. */
export function batchMismatch(
  b: Pick<Batch, 'count' | 'total' | 'expectedCount' | 'expectedTotal'>,
): { matches: boolean; text: string } | null {
  if (b.expectedCount === null && b.expectedTotal === null) return null;
  const parts: string[] = [];
  if (b.expectedCount !== null && b.expectedCount !== b.count) {
    const d = b.expectedCount - b.count;
    parts.push(
      d > 0
        ? `${d} gift${d === 1 ? '' : 's'} fewer than expected`
        : `${-d} gift${d === -1 ? '' : 's'} more than expected`,
    );
  }
  if (b.expectedTotal !== null && wireCents(b.expectedTotal) !== wireCents(b.total)) {
    const d = wireCents(b.expectedTotal) - wireCents(b.total);
    parts.push(
      d > 0 ? `${formatCents(d)} short of the expected total` : `${formatCents(-d)} over the expected total`,
    );
  }
  return parts.length === 0
    ? { matches: true, text: 'Count and total match what was expected.' }
    : { matches: false, text: `Does not match yet: ${parts.join('; ')}.` };
}

/** Keys that move a closed native select's choice at once (and fire its change event). */
const MOVING_KEYS = new Set([
  'ArrowDown',
  'ArrowUp',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);

/**
 * The batch being typed into, switchable. A closed native select takes the next batch on the
 * first ArrowDown (or a typed letter) and fires its change: here that only marks a batch to
 * switch to, said under the field; Enter switches, Escape or leaving the field keeps the
 * batch. A choice made in the opened list (a click, or Enter in it) switches at once.
 */
function BatchSwitch({
  batch,
  options,
  onChoose,
}: {
  batch: Batch;
  options: Array<{ value: string; label: string }>;
  onChoose: (id: string) => void;
}) {
  const [pending, setPending] = useState<string | null>(null);
  const keyed = useRef(false);
  const marked = pending !== null && pending !== batch.id ? pending : null;
  return (
    <Select
      label="Batch"
      value={marked ?? batch.id}
      onKeyDown={(e) => {
        keyed.current =
          !e.altKey && !e.ctrlKey && !e.metaKey && (MOVING_KEYS.has(e.key) || e.key.length === 1);
        if (e.key === 'Enter' && marked) {
          e.preventDefault();
          setPending(null);
          onChoose(marked);
        } else if (e.key === 'Escape' && marked) {
          e.preventDefault();
          setPending(null);
        }
      }}
      onChange={(e) => {
        const id = e.target.value;
        if (keyed.current) setPending(id);
        else {
          setPending(null);
          onChoose(id);
        }
        keyed.current = false;
      }}
      onBlur={() => setPending(null)}
      hint={
        marked
          ? `Enter switches to ${options.find((o) => o.value === marked)?.label ?? 'this batch'}; Escape keeps ${batch.name}`
          : undefined
      }
      options={options}
      fieldClassName="batch-select"
    />
  );
}

export function BatchSummary({
  batch,
  batches,
  onChoose,
  onNew,
}: {
  batch: Batch;
  batches: Batch[];
  onChoose: (id: string) => void;
  onNew: () => void;
}) {
  const ref = useReferenceData();
  const mismatch = batchMismatch(batch);
  const open = batches.filter((b) => b.closedAt === null);
  const campaign = ref.nameOf('campaign', batch.campaignId);
  return (
    <section className="panel batch-panel" aria-label="Batch">
      <div className="batch-head">
        <BatchSwitch
          batch={batch}
          options={(open.some((b) => b.id === batch.id) ? open : [batch, ...open]).map((b) => ({
            value: b.id,
            label: b.name,
          }))}
          onChoose={onChoose}
        />
        <Button onClick={onNew}>New batch…</Button>
        {/* The defaults and the way to balance the batch share a line (a 700-pixel screen
            keeps the row to type in and the newest saved gift above the fold). */}
        <div className="batch-defaults-line">
          <dl className="batch-defaults">
            <div>
              <dt>Date</dt>
              <dd>{batch.batchDate ?? 'the day typed'}</dd>
            </div>
            <div>
              <dt>Method</dt>
              <dd>{METHOD_LABEL[batch.paymentMethod ?? 'check']}</dd>
            </div>
            <div>
              <dt>Campaign</dt>
              <dd title={campaign ?? undefined}>{campaign ?? '—'}</dd>
            </div>
          </dl>
          <BatchBalance batch={batch} />
        </div>
      </div>
      <div className="batch-figures" aria-live="polite">
        <div className="figure">
          <span className="figure-label">Gifts</span>
          <span className="figure-value" data-testid="batch-count">
            {batch.count}
            {batch.expectedCount !== null ? (
              <span className="figure-of"> of {batch.expectedCount}</span>
            ) : null}
          </span>
        </div>
        <div className="figure">
          <span className="figure-label">Total</span>
          <span className="figure-value" data-testid="batch-total">
            {formatCents(wireCents(batch.total))}
            {batch.expectedTotal !== null ? (
              <span className="figure-of"> of {formatCents(wireCents(batch.expectedTotal))}</span>
            ) : null}
          </span>
        </div>
        {mismatch ? (
          <p className={`notice ${mismatch.matches ? 'notice-ok' : 'notice-warn'} batch-mismatch`}>
            {mismatch.text}
          </p>
        ) : null}
      </div>
    </section>
  );
}

/**
 * The open batches to continue, one button each: Enter or a click chooses. The arrow keys
 * only move between them; nothing is chosen before the person chooses (a native select
 * switched batch on the first ArrowDown).
 */
export function OpenBatchList({ batches, onChoose }: { batches: Batch[]; onChoose: (id: string) => void }) {
  const labelId = useId();
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const buttons = [...e.currentTarget.querySelectorAll('button')];
    const at = buttons.findIndex((b) => b === document.activeElement);
    if (at < 0) return;
    e.preventDefault();
    buttons[(at + (e.key === 'ArrowDown' ? 1 : buttons.length - 1)) % buttons.length]?.focus();
  };
  return (
    <div className="open-batches">
      <p className="field-label" id={labelId}>
        or continue an open batch
      </p>
      <ul aria-labelledby={labelId} onKeyDown={onKeyDown}>
        {batches.map((b) => (
          <li key={b.id}>
            <Button onClick={() => onChoose(b.id)}>
              {b.name}
              <span className="open-batch-count">
                {b.count} gift{b.count === 1 ? '' : 's'}
                {b.batchDate ? ` · ${b.batchDate}` : ''}
              </span>
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
