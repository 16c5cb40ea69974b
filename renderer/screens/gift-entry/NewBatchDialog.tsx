/**
 * Starting a batch: its name (the suggestion selected, so typing replaces it), date (one field,
 * today's at first, typed 12/01/2026 or 2026-12-01), payment method (none unless chosen) and
 * designation, and what the stack should add up to (only what is typed). Filled top to bottom
 * by typing (a choice takes the typed name), Tab and Enter, from any field.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { monthDayYear, typedDateOnly } from '#shared/dates.ts';
import { parseAmountCents } from '#shared/money.ts';
import { BatchCreate, type Batch } from '#shared/schemas/batches.ts';
import { DESIGNATION_FORM_ISSUE } from '#shared/schemas/donations.ts';
import { isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import {
  humanIssue,
  localToday,
  orNull,
  schemaIssues,
  showIssues,
  submitAsEnter,
  useTryKey,
} from '../../forms.ts';
import { Button, Dialog, Select, TextField } from '../../ui/index.ts';
import { entryRowFocus } from './entry-focus.ts';
import { METHOD_OPTIONS, useReferenceData } from './reference.ts';

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

/** A new batch's form: today's date and name, nothing chosen, nothing expected. */
function freshBatch(): BatchForm {
  return {
    name: `Gifts ${localToday()}`,
    batchDate: monthDayYear(localToday()),
    campaignId: '',
    committeeId: '',
    donationAccountId: '',
    // None unless the volunteer chooses one: a method they never chose would go on every gift.
    paymentMethod: '',
    expectedCount: '',
    expectedTotal: '',
  };
}

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
  const form = useForm<BatchForm>({ defaultValues: freshBatch() });
  // Closed, it is emptied for the next batch: the last batch's method or expected total is
  // never the next one's unless typed again.
  useEffect(() => {
    if (!open) form.reset(freshBatch());
  }, [open, form]);
  const errors = form.formState.errors;
  const create = useMutation({
    mutationFn: (body: Omit<BatchCreate, 'accountId'>) => api.batches.create(body),
  });
  // The key of the batch being started (useTryKey): starting it again after a lost answer
  // answers the batch made the first time, not a second one the close-out would show as short.
  const batchTry = useTryKey();

  const submit = form.handleSubmit(async (v) => {
    setTopError(null);
    const expectedTotalCents = v.expectedTotal.trim() ? parseAmountCents(v.expectedTotal) : null;
    if (v.expectedTotal.trim() && expectedTotalCents === null) {
      form.setError('expectedTotal', { message: 'must be an amount in dollars, like 1250 or 1250.50' });
      return;
    }
    const batchDate = v.batchDate.trim() ? typedDateOnly(v.batchDate) : null;
    if (v.batchDate.trim() && batchDate === null) {
      form.setError('batchDate', { message: 'must be a date, like 12/01/2026 or 2026-12-01' });
      form.setFocus('batchDate');
      return;
    }
    const body = {
      name: v.name,
      batchDate,
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
      const b = await create.mutateAsync({ ...body, entryKey: batchTry.keyFor(body) });
      batchTry.saved();
      await client.invalidateQueries({ queryKey: qk.batches });
      onCreated(b);
    } catch (err) {
      if (isApiError(err) && err.details.length) show(err.details);
      else setTopError(err instanceof Error ? err.message : String(err));
    }
  });

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
      <form
        id="new-batch-form"
        className="grid-form"
        onSubmit={submit}
        noValidate
        onKeyDown={(e) => {
          // Enter starts the batch from a choice too (a native select does nothing with it), so the
          // dialog is filled top to bottom by typing, and Enter.
          if (e.key === 'Enter' && !e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
            if (e.target instanceof HTMLSelectElement) {
              e.preventDefault();
              submitAsEnter(e.currentTarget);
            }
          }
        }}
      >
        {topError ? <div className="notice notice-error span-all">{topError}</div> : null}
        <TextField
          label="Batch name"
          autoFocus
          // The suggested name is selected: typing replaces it instead of adding to it.
          onFocus={(e) => e.currentTarget.select()}
          {...form.register('name')}
          error={errors.name?.message}
          fieldClassName="span-2"
        />
        {/* One Tab stop (a date input's month, day and year are three): typed, or today's kept. */}
        <TextField
          label="Gift date"
          autoComplete="off"
          inputMode="numeric"
          hint="Month/day/year, or 2026-12-01"
          onFocus={(e) => e.currentTarget.select()}
          {...form.register('batchDate')}
          error={errors.batchDate?.message}
        />
        <Select
          label="Payment method"
          typeToChoose
          options={METHOD_OPTIONS}
          placeholder="— none —"
          {...form.register('paymentMethod')}
          error={errors.paymentMethod?.message}
        />
        <Select
          label="Campaign"
          typeToChoose
          options={ref.campaigns}
          placeholder="— none —"
          hint="Each gift needs a campaign, committee or donation account"
          {...form.register('campaignId')}
          error={errors.campaignId?.message}
        />
        <Select
          label="Committee"
          typeToChoose
          options={ref.committees}
          placeholder="— none —"
          {...form.register('committeeId')}
          error={errors.committeeId?.message}
        />
        <Select
          label="Donation account"
          typeToChoose
          options={ref.donationAccounts}
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
