/**
 * What a print run covers: the kind (thank-you letters, year-end statements, a receipt) and
 * its filters — a period, a campaign, a batch, "only gifts not yet thanked" (on by default
 * for thank-you letters), the year of a statement — and "one file per donor". Enter in any
 * field makes the letters.
 */
import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import type { LetterChoice, LetterKind } from '#shared/schemas/letters.ts';
import type { ApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { hrefFor } from '../../router.ts';
import { Button, Checkbox, Select, TextField } from '../../ui/index.ts';
import { DonorChoice, type DonorPicked } from './donor-choice.tsx';

export interface ChoiceState {
  kind: LetterKind;
  from: string;
  to: string;
  campaignId: string;
  batchId: string;
  year: string;
  notThanked: boolean;
  perDonor: boolean;
  /** One donor only (thank-you letters and year-end statements); null: every donor. */
  donor: DonorPicked | null;
}

export const KIND_LABEL: Record<LetterKind, string> = {
  'thank-you': 'Thank-you letters',
  'year-end': 'Year-end statements',
  receipt: 'Receipt for one gift',
};

export const lastYear = (): number => new Date().getFullYear() - 1;

export function initialChoice(donor: DonorPicked | null = null, kind: LetterKind = 'thank-you'): ChoiceState {
  return {
    kind,
    from: '',
    to: '',
    campaignId: '',
    batchId: '',
    year: String(lastYear()),
    notThanked: kind === 'thank-you',
    perDonor: false,
    donor,
  };
}

/** The run's choice as the API takes it: only the filters of its kind, only those set. */
export function toChoice(s: ChoiceState): LetterChoice {
  const one = s.donor ? { contactId: s.donor.id } : {};
  if (s.kind === 'year-end') return { kind: 'year-end', year: Number(s.year), ...one };
  return {
    kind: s.kind,
    ...one,
    ...(s.from ? { from: s.from } : {}),
    ...(s.to ? { to: s.to } : {}),
    ...(s.campaignId ? { campaignId: s.campaignId } : {}),
    ...(s.batchId ? { batchId: s.batchId } : {}),
    notThanked: s.notThanked,
  };
}

const KINDS: LetterKind[] = ['thank-you', 'year-end', 'receipt'];

export function ChoiceForm({
  value,
  onChange,
  onMake,
  making,
  error,
}: {
  value: ChoiceState;
  onChange: (next: ChoiceState) => void;
  onMake: () => void;
  making: boolean;
  /** The server's refusal of the last run asked for (its issues go to the fields they name). */
  error: ApiError | null;
}) {
  const api = useApi();
  const campaigns = useQuery({ queryKey: qk.campaigns, queryFn: () => api.campaigns.list() });
  const batches = useQuery({ queryKey: qk.batches, queryFn: () => api.batches.list({ limit: 100 }) });
  const set = <K extends keyof ChoiceState>(k: K, v: ChoiceState[K]) => onChange({ ...value, [k]: v });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.kind !== 'receipt') onMake();
  };
  const years = Array.from({ length: 8 }, (_, i) => String(new Date().getFullYear() - i));
  const issue = (field: string) => error?.issueFor(field) ?? undefined;
  return (
    <form className="panel letters-choice" onSubmit={submit} aria-labelledby="letters-choice-title">
      <h2 id="letters-choice-title" className="panel-title">
        What to print
      </h2>
      <fieldset className="letters-kinds">
        <legend>Kind</legend>
        {KINDS.map((k, i) => (
          <label key={k} className="checkbox">
            <input
              type="radio"
              name="letter-kind"
              value={k}
              checked={value.kind === k}
              data-autofocus={i === 0 ? true : undefined}
              onChange={() => onChange({ ...value, kind: k, notThanked: k === 'thank-you' })}
            />
            {KIND_LABEL[k]}
          </label>
        ))}
      </fieldset>
      {value.kind === 'receipt' ? (
        <p className="notice">
          A receipt is printed for one gift, at the table: in <a href={hrefFor('gifts')}>Gift entry</a>, press
          Ctrl+P on a saved gift (or its Receipt button). Receipts printed so far are in the history below.
        </p>
      ) : value.kind === 'year-end' ? (
        <Select
          label="Year"
          value={value.year}
          options={years.map((y) => ({ value: y, label: y }))}
          onChange={(e) => set('year', e.target.value)}
          error={issue('year')}
          hint="One statement per donor: every gift of the calendar year and the total."
        />
      ) : (
        <>
          <div className="letters-period">
            <TextField
              label="Gifts from"
              type="date"
              value={value.from}
              onChange={(e) => set('from', e.target.value)}
              error={issue('from')}
            />
            <TextField
              label="to"
              type="date"
              value={value.to}
              onChange={(e) => set('to', e.target.value)}
              error={issue('to')}
            />
          </div>
          <Select
            label="Campaign"
            placeholder="Any campaign"
            value={value.campaignId}
            options={(campaigns.data?.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            onChange={(e) => set('campaignId', e.target.value)}
            error={issue('campaignId')}
          />
          <Select
            label="Batch"
            placeholder="Any batch"
            value={value.batchId}
            options={(batches.data?.data ?? []).map((b) => ({ value: b.id, label: b.name }))}
            onChange={(e) => set('batchId', e.target.value)}
            error={issue('batchId')}
          />
          <Checkbox
            label="Only gifts not yet thanked"
            checked={value.notThanked}
            onChange={(e) => set('notThanked', e.target.checked)}
          />
        </>
      )}
      {value.kind !== 'receipt' ? (
        <>
          <DonorChoice value={value.donor} onChange={(donor) => set('donor', donor)} />
          <Checkbox
            label="Also one file per donor"
            checked={value.perDonor}
            onChange={(e) => set('perDonor', e.target.checked)}
          />
          {value.perDonor ? (
            <p className="field-hint">
              Saved on this computer, in GiftDesk’s data folder under letters, in a folder named after the
              run.
            </p>
          ) : null}
          <div className="letters-make">
            <Button type="submit" tone="primary" busy={making}>
              Make letters
            </Button>
          </div>
        </>
      ) : null}
    </form>
  );
}
