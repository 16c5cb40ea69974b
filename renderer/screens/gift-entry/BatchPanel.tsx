/**
 * The batch: its name and defaults, and its count and total against the expected ones —
 * said plainly when they do not match. Batches live on the server (/api/v1/batches), so a
 * closed lid or a crash loses none; the one in use is remembered per window.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useForm } from 'react-hook-form';
import { formatCents, parseAmountCents, wireCents } from '#shared/money.ts';
import { BatchCreate, type Batch } from '#shared/schemas/batches.ts';
import { DESIGNATION_FORM_ISSUE } from '#shared/schemas/donations.ts';
import { isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { humanIssue, localToday, orNull, schemaIssues, showIssues } from '../../forms.ts';
import { Button, Dialog, Select, TextField, type SelectOption } from '../../ui/index.ts';
import { BatchBalance } from './deposit/BatchBalance.tsx';
import { entryRowFocus } from './entry-focus.ts';
import { METHOD_LABEL, METHOD_OPTIONS, useReferenceData } from './reference.ts';

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

interface BatchForm {
  name: string;
  batchDate: string;
  campaignId: string;
  committeeId: string;
  donationAccountId: string;
  paymentMethod: string;
  expectedCount: string;
  expectedTotal: string;
}

const FIELD_MAP: Record<string, keyof BatchForm> = {
  name: 'name',
  batchDate: 'batchDate',
  campaignId: 'campaignId',
  committeeId: 'committeeId',
  donationAccountId: 'donationAccountId',
  paymentMethod: 'paymentMethod',
  expectedCount: 'expectedCount',
  expectedTotal: 'expectedTotal',
};

export function NewBatchDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (b: Batch) => void;
}) {
  const api = useApi();
  const client = useQueryClient();
  const ref = useReferenceData();
  const [topError, setTopError] = useState<string | null>(null);
  const form = useForm<BatchForm>({
    defaultValues: {
      name: `Gifts ${localToday()}`,
      batchDate: localToday(),
      campaignId: '',
      committeeId: '',
      donationAccountId: '',
      paymentMethod: 'check',
      expectedCount: '',
      expectedTotal: '',
    },
  });
  const errors = form.formState.errors;
  const create = useMutation({
    mutationFn: (body: Omit<BatchCreate, 'accountId'>) => api.batches.create(body),
  });

  const submit = form.handleSubmit(async (v) => {
    setTopError(null);
    const expectedTotalCents = v.expectedTotal.trim() ? parseAmountCents(v.expectedTotal) : null;
    if (v.expectedTotal.trim() && expectedTotalCents === null) {
      form.setError('expectedTotal', { message: 'must be an amount in dollars, like 1250 or 1250.50' });
      return;
    }
    const body = {
      name: v.name,
      batchDate: orNull(v.batchDate),
      campaignId: orNull(v.campaignId),
      committeeId: orNull(v.committeeId),
      donationAccountId: orNull(v.donationAccountId),
      paymentMethod: (orNull(v.paymentMethod) as BatchCreate['paymentMethod']) ?? null,
      expectedCount: v.expectedCount.trim() ? Number(v.expectedCount) : null,
      expectedTotal: expectedTotalCents === null ? null : expectedTotalCents / 100,
    };
    const issues = schemaIssues(BatchCreate, { accountId: api.accountId, ...body });
    const show = (list: typeof issues) => {
      const { rest } = showIssues(list, form.setError, FIELD_MAP, { words: humanIssue, focus: false });
      if (rest.length) setTopError(rest.map((r) => `${r.field} ${r.issue}`).join('; '));
    };
    // Every gift needs a campaign, committee or donation account (the server refuses it
    // otherwise): a batch giving none would start with its first gift refused. Said once, at
    // the campaign, as the entry row says it.
    const undesignated = !body.campaignId && !body.committeeId && !body.donationAccountId;
    if (undesignated) form.setError('campaignId', { message: DESIGNATION_FORM_ISSUE });
    if (issues.length) return show(issues);
    if (undesignated) {
      form.setFocus('campaignId');
      return;
    }
    try {
      const b = await create.mutateAsync(body);
      await client.invalidateQueries({ queryKey: qk.batches });
      onCreated(b);
    } catch (err) {
      if (isApiError(err) && err.details.length) show(err.details);
      else setTopError(err instanceof Error ? err.message : String(err));
    }
  });

  const opts = (xs: SelectOption[]) => xs;
  return (
    <Dialog
      open={open}
      title="Start a batch"
      onClose={onClose}
      focusAfter={entryRowFocus}
      wide
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button tone="primary" type="submit" form="new-batch-form" busy={create.isPending}>
            Start batch
          </Button>
        </>
      }
    >
      <form id="new-batch-form" className="grid-form" onSubmit={submit} noValidate>
        {topError ? <div className="notice notice-error span-all">{topError}</div> : null}
        <TextField
          label="Batch name"
          autoFocus
          {...form.register('name')}
          error={errors.name?.message}
          fieldClassName="span-2"
        />
        <TextField
          label="Gift date"
          type="date"
          {...form.register('batchDate')}
          error={errors.batchDate?.message}
        />
        <Select
          label="Payment method"
          options={METHOD_OPTIONS}
          placeholder="— none —"
          {...form.register('paymentMethod')}
          error={errors.paymentMethod?.message}
        />
        <Select
          label="Campaign"
          options={opts(ref.campaigns)}
          placeholder="— none —"
          hint="Each gift needs a campaign, committee or donation account"
          {...form.register('campaignId')}
          error={errors.campaignId?.message}
        />
        <Select
          label="Committee"
          options={opts(ref.committees)}
          placeholder="— none —"
          {...form.register('committeeId')}
          error={errors.committeeId?.message}
        />
        <Select
          label="Donation account"
          options={opts(ref.donationAccounts)}
          placeholder="— none —"
          {...form.register('donationAccountId')}
          error={errors.donationAccountId?.message}
        />
        <TextField
          label="Expected number of gifts"
          inputMode="numeric"
          hint="Optional: from the stack of checks or envelopes"
          {...form.register('expectedCount')}
          error={errors.expectedCount?.message}
        />
        <TextField
          label="Expected total ($)"
          inputMode="decimal"
          hint="Optional: the adding-machine tape"
          {...form.register('expectedTotal')}
          error={errors.expectedTotal?.message}
        />
      </form>
    </Dialog>
  );
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
