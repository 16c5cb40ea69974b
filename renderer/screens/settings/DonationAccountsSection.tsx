/**
 * Donation accounts and their contribution limits (D6): per election, per two-year cycle,
 * per calendar year, per donor. A gift over a limit is still saved and goes to the Review
 * queue. Limits are dollars; an empty box is no limit.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import type { z } from 'zod';
import {
  DonationAccountCreate,
  DonationAccountUpdate,
  type DonationAccount,
} from '../../../shared/schemas/extensions.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, Dialog, EmptyState, TextField, useToast } from '../../ui/index.ts';
import { formatDollars, limitFromInput, sentenceResolver, showApiError } from './forms.ts';
import { SectionHeader } from './SectionHeader.tsx';

const CreateForm = DonationAccountCreate.omit({ accountId: true });
type FormIn = z.input<typeof CreateForm>;
type FormOut = z.output<typeof CreateForm>;
type Row = z.infer<typeof DonationAccount>;
type EditBody = Omit<z.input<typeof DonationAccountUpdate>, 'accountId'>;

export const LIMIT_FIELDS = [
  { key: 'perElection', label: 'Per election' },
  { key: 'perCycle', label: 'Per two-year cycle' },
  { key: 'perYear', label: 'Per calendar year' },
  { key: 'perDonor', label: 'Per donor, lifetime' },
] as const;
const FIELDS = ['name', 'limits', ...LIMIT_FIELDS.map((l) => `limits.${l.key}` as const)] as const;
const noLimits = { perElection: null, perCycle: null, perYear: null, perDonor: null };
const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

function LimitInputs({
  register,
  errors,
  idPrefix,
}: {
  register: UseFormRegister<FormIn>;
  errors: FieldErrors<FormIn>;
  idPrefix: string;
}) {
  return (
    <fieldset className="settings-limits">
      <legend>Contribution limits per donor (dollars; leave empty for none)</legend>
      <div className="settings-limits-grid">
        {LIMIT_FIELDS.map((l) => (
          <TextField
            key={l.key}
            id={`${idPrefix}-${l.key}`}
            label={l.label}
            inputMode="decimal"
            autoComplete="off"
            placeholder="no limit"
            error={errors.limits?.[l.key]?.message}
            {...register(`limits.${l.key}`, { setValueAs: limitFromInput })}
          />
        ))}
      </div>
    </fieldset>
  );
}

const limitText = (n: number | null) => (n === null ? <span className="muted">none</span> : formatDollars(n));

export function DonationAccountsSection() {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  const list = useQuery({ queryKey: qk.donationAccounts, queryFn: () => api.donationAccounts.list() });
  const [formError, setFormError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Row | null>(null);
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: sentenceResolver(zodResolver(CreateForm)),
    defaultValues: { name: '', limits: noLimits },
  });
  const create = useMutation({
    mutationFn: (body: FormOut) => api.donationAccounts.create(body),
    onSuccess: async (a) => {
      form.reset({ name: '', limits: noLimits });
      setFormError(null);
      toast.show({ message: `Donation account “${a.name}” added.`, tone: 'success', duration: 3500 });
      await qc.invalidateQueries({ queryKey: qk.donationAccounts });
      form.setFocus('name');
    },
    onError: (err) => setFormError(showApiError(err, form.setError, FIELDS)),
  });
  const rows = list.data?.data ?? [];
  const onSubmit = form.handleSubmit((body) => {
    if (rows.some((a) => sameName(a.name, body.name))) {
      form.setError(
        'name',
        { type: 'duplicate', message: 'A donation account with this name already exists.' },
        { shouldFocus: true },
      );
      return;
    }
    create.mutate(body);
  });

  return (
    <section aria-labelledby="settings-donation-accounts" className="settings-section">
      <SectionHeader id="settings-donation-accounts" title="Donation accounts & limits">
        Where gifts are deposited, and the most one donor may give to each. A gift over a limit is still
        saved, and waits in Review.
      </SectionHeader>
      <form className="panel settings-form" onSubmit={onSubmit} noValidate aria-labelledby="new-dac-title">
        <h3 id="new-dac-title" className="panel-title">
          New donation account
        </h3>
        <div className="settings-form-row">
          <TextField
            label="Account name"
            autoComplete="off"
            data-autofocus
            error={form.formState.errors.name?.message}
            {...form.register('name')}
          />
        </div>
        <LimitInputs register={form.register} errors={form.formState.errors} idPrefix="new-dac" />
        <div className="settings-form-actions">
          <Button type="submit" tone="primary" busy={create.isPending}>
            Add donation account
          </Button>
        </div>
        {formError ? (
          <p className="notice notice-error" role="alert">
            {formError}
          </p>
        ) : null}
      </form>
      {list.isError ? (
        <p className="notice notice-error" role="alert">
          The donation accounts could not be loaded: {list.error.message}
        </p>
      ) : list.isPending ? (
        <p className="muted">Loading donation accounts…</p>
      ) : rows.length === 0 ? (
        <EmptyState title="No donation accounts yet.">
          Add one above to check gifts against contribution limits.
        </EmptyState>
      ) : (
        <table className="table settings-table">
          <caption className="visually-hidden">Donation accounts and their limits</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              {LIMIT_FIELDS.map((l) => (
                <th key={l.key} scope="col" className="num">
                  {l.label}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <tr key={a.id}>
                <th scope="row">{a.name}</th>
                {LIMIT_FIELDS.map((l) => (
                  <td key={l.key} className="num">
                    {limitText(a.limits[l.key])}
                  </td>
                ))}
                <td className="settings-row-actions">
                  <Button tone="quiet" onClick={() => setEditing(a)} aria-label={`Edit ${a.name}`}>
                    Edit
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <EditDialog
          account={editing}
          others={rows.filter((r) => r.id !== editing.id)}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

function EditDialog({ account, others, onClose }: { account: Row; others: Row[]; onClose: () => void }) {
  const api = useApi();
  const qc = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: sentenceResolver(zodResolver(CreateForm)),
    defaultValues: { name: account.name, limits: account.limits },
  });
  const save = useMutation({
    mutationFn: (body: EditBody) => api.donationAccounts.update(account.id, body),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: qk.donationAccounts });
      onClose();
    },
    onError: (err) => setFormError(showApiError(err, form.setError, FIELDS)),
  });
  const onSubmit = form.handleSubmit((body) => {
    if (others.some((a) => sameName(a.name, body.name))) {
      form.setError(
        'name',
        { type: 'duplicate', message: 'A donation account with this name already exists.' },
        { shouldFocus: true },
      );
      return;
    }
    // Every limit is sent: an emptied box clears that limit.
    save.mutate({ name: body.name, limits: { ...noLimits, ...body.limits } });
  });
  return (
    <Dialog
      open
      wide
      title={`Edit donation account “${account.name}”`}
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button tone="primary" type="submit" form="edit-dac" busy={save.isPending}>
            Save
          </Button>
        </>
      }
    >
      <form id="edit-dac" onSubmit={onSubmit} noValidate className="settings-dialog-form">
        <TextField
          label="Account name"
          autoFocus
          autoComplete="off"
          error={form.formState.errors.name?.message}
          {...form.register('name')}
        />
        <LimitInputs register={form.register} errors={form.formState.errors} idPrefix="edit-dac" />
        <p className="muted">
          New limits apply to gifts saved from now on; gifts already flagged stay in Review.
        </p>
        {formError ? (
          <p className="notice notice-error" role="alert">
            {formError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
