/**
 * Donation accounts and their contribution limits (D6): per election, per two-year cycle,
 * per calendar year, per donor. A gift over a limit is still saved and goes to the Review
 * queue. Limits are dollars; an empty box is no limit.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { z } from 'zod';
import { formatDollars, optionalDollarsFromInput } from '#shared/money.ts';
import { DonationAccountCreate, type DonationAccount } from '#shared/schemas/extensions.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, EmptyState, FormDialog, Loaded, Table, TextField } from '../../ui/index.ts';
import { NameField, NewItemForm, RowAction, useNamedForm } from './row-forms.tsx';
import { SectionHeader } from './SectionHeader.tsx';

const CreateForm = DonationAccountCreate.omit({ accountId: true });
type FormIn = z.input<typeof CreateForm>;
type FormOut = z.output<typeof CreateForm>;
type Row = z.infer<typeof DonationAccount>;

export const LIMIT_FIELDS = [
  { key: 'perElection', label: 'Per election' },
  { key: 'perCycle', label: 'Per two-year cycle' },
  { key: 'perYear', label: 'Per calendar year' },
  { key: 'perDonor', label: 'Per donor, lifetime' },
] as const;
const FIELDS = ['name', 'limits', ...LIMIT_FIELDS.map((l) => `limits.${l.key}` as const)] as const;
const noLimits = { perElection: null, perCycle: null, perYear: null, perDonor: null };
const TAKEN = 'A donation account with this name already exists.';

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
            {...register(`limits.${l.key}`, { setValueAs: optionalDollarsFromInput })}
          />
        ))}
      </div>
    </fieldset>
  );
}

const limitText = (n: number | null) => (n === null ? <span className="muted">none</span> : formatDollars(n));

export function DonationAccountsSection() {
  const api = useApi();
  const list = useQuery({ queryKey: qk.donationAccounts, queryFn: () => api.donationAccounts.list() });
  const [editing, setEditing] = useState<Row | null>(null);
  const rows = list.data?.data ?? [];
  const create = useNamedForm({
    schema: CreateForm,
    defaultValues: { name: '', limits: noLimits },
    fields: FIELDS,
    others: rows,
    taken: TAKEN,
    again: true,
    mutationFn: (body: FormOut) => api.donationAccounts.create(body),
    invalidate: [qk.donationAccounts],
    done: (a) => `Donation account “${a.name}” added.`,
  });

  return (
    <section aria-labelledby="settings-donation-accounts" className="settings-section">
      <SectionHeader id="settings-donation-accounts" title="Donation accounts & limits">
        Where gifts are deposited, and the most one donor may give to each. A gift over a limit is still
        saved, and waits in Review.
      </SectionHeader>
      <NewItemForm
        titleId="new-dac-title"
        title="New donation account"
        onSubmit={create.onSubmit}
        formError={create.formError}
      >
        <div className="settings-form-row">
          <NameField form={create.form} label="Account name" />
        </div>
        <LimitInputs
          register={create.form.register}
          errors={create.form.formState.errors}
          idPrefix="new-dac"
        />
        <div className="settings-form-actions">
          <Button type="submit" tone="primary" busy={create.save.isPending}>
            Add donation account
          </Button>
        </div>
      </NewItemForm>
      <Loaded
        query={list}
        noun="donation accounts"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState title="No donation accounts yet.">
            Add one above to check gifts against contribution limits.
          </EmptyState>
        }
      >
        <Table
          className="settings-table"
          caption="Donation accounts and their limits"
          columns={['Name', ...LIMIT_FIELDS.map((l) => ({ label: l.label, num: true }))]}
          actions="Actions"
        >
          {rows.map((a) => (
            <tr key={a.id}>
              <th scope="row">{a.name}</th>
              {LIMIT_FIELDS.map((l) => (
                <td key={l.key} className="num">
                  {limitText(a.limits[l.key])}
                </td>
              ))}
              <RowAction verb="Edit" name={a.name} onClick={() => setEditing(a)} />
            </tr>
          ))}
        </Table>
      </Loaded>
      {editing ? (
        <EditAccountDialog
          account={editing}
          others={rows.filter((r) => r.id !== editing.id)}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

function EditAccountDialog({
  account,
  others,
  onClose,
}: {
  account: Row;
  others: Row[];
  onClose: () => void;
}) {
  const api = useApi();
  const edit = useNamedForm({
    schema: CreateForm,
    defaultValues: { name: account.name, limits: account.limits },
    fields: FIELDS,
    others,
    taken: TAKEN,
    // Every limit is sent: an emptied box clears that limit.
    mutationFn: (body: FormOut) =>
      api.donationAccounts.update(account.id, { name: body.name, limits: { ...noLimits, ...body.limits } }),
    // campaigns list the names of the accounts they offer
    invalidate: [qk.donationAccounts, qk.campaigns],
    done: (a) => `Donation account “${a.name}” saved.`,
    afterRefresh: onClose,
  });
  return (
    <FormDialog
      wide
      title={`Edit donation account “${account.name}”`}
      formId="edit-dac"
      busy={edit.save.isPending}
      onClose={onClose}
      onSubmit={edit.onSubmit}
      formError={edit.formError}
    >
      <NameField form={edit.form} label="Account name" inDialog />
      <LimitInputs register={edit.form.register} errors={edit.form.formState.errors} idPrefix="edit-dac" />
      <p className="muted">
        New limits apply to gifts saved from now on; gifts already flagged stay in Review.
      </p>
    </FormDialog>
  );
}
