/**
 * Campaigns: the appeals gifts are credited to, each offering some donation accounts. A
 * new one is made in the form at the top (Enter saves); each row can be renamed and have its
 * donation accounts changed.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { formatDollars } from '#shared/money.ts';
import { CampaignCreate, type Campaign, type DonationAccount } from '#shared/schemas/extensions.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, EmptyState, FormDialog, Loaded, Table } from '../../ui/index.ts';
import { NameField, NewItemForm, RowAction, useNamedForm } from './row-forms.tsx';
import { SectionHeader } from './SectionHeader.tsx';

/** The same form makes a campaign and edits one: its name (required) and accounts, both sent. */
const CampaignForm = CampaignCreate.omit({ accountId: true });
type Body = z.output<typeof CampaignForm>;
type CampaignRow = z.infer<typeof Campaign>;
type AccountRow = z.infer<typeof DonationAccount>;
/** The donation accounts' query, as far as the choices need it. */
type AccountsQuery = {
  isError: boolean;
  isPending: boolean;
  error: Error | null;
  data?: { data: AccountRow[] } | undefined;
};
const FIELDS = ['name', 'donationAccountIds'] as const;
const TAKEN = 'A campaign with this name already exists.';

/** Checkboxes for the donation accounts a campaign offers (a fieldset with its legend). */
function DonationAccountChoices({
  value,
  onChange,
  error,
  accounts,
  legend,
}: {
  value: readonly string[];
  onChange: (ids: string[]) => void;
  error?: string | undefined;
  accounts: AccountRow[];
  legend: string;
}) {
  const chosen = new Set(value);
  if (accounts.length === 0)
    return (
      <p className="muted settings-inline-note">
        No donation accounts yet (add them under “Donation accounts &amp; limits”).
      </p>
    );
  return (
    <fieldset className="settings-choices">
      <legend>{legend}</legend>
      {accounts.map((a) => (
        <label key={a.id} className="checkbox">
          <input
            type="checkbox"
            checked={chosen.has(a.id)}
            onChange={(e) => {
              const next = new Set(chosen);
              if (e.target.checked) next.add(a.id);
              else next.delete(a.id);
              onChange(accounts.map((x) => x.id).filter((id) => next.has(id)));
            }}
          />
          {a.name}
        </label>
      ))}
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
    </fieldset>
  );
}

/**
 * The donation-account choices, as both the new-campaign form and the edit dialog show them:
 * "Loading…" until the accounts are in (never "No donation accounts yet" before that), the
 * error if they could not be read.
 */
function ChosenAccounts({
  form,
  accounts,
}: {
  form: UseFormReturn<z.input<typeof CampaignForm>, unknown, Body>;
  accounts: AccountsQuery;
}) {
  return (
    <Loaded query={accounts} noun="donation accounts">
      <DonationAccountChoices
        value={form.watch('donationAccountIds') ?? []}
        onChange={(ids) => form.setValue('donationAccountIds', ids, { shouldDirty: true })}
        error={form.formState.errors.donationAccountIds?.message}
        accounts={accounts.data?.data ?? []}
        legend="Donation accounts it offers"
      />
    </Loaded>
  );
}

export function CampaignsSection() {
  const api = useApi();
  const campaigns = useQuery({ queryKey: qk.campaigns, queryFn: () => api.campaigns.list() });
  const accounts = useQuery({ queryKey: qk.donationAccounts, queryFn: () => api.donationAccounts.list() });
  const [editing, setEditing] = useState<CampaignRow | null>(null);
  const rows = campaigns.data?.data ?? [];
  const create = useNamedForm({
    schema: CampaignForm,
    defaultValues: { name: '', donationAccountIds: [] },
    fields: FIELDS,
    others: rows,
    taken: TAKEN,
    again: true,
    mutationFn: (body: Body) => api.campaigns.create(body),
    invalidate: [qk.campaigns],
    done: (c) => `Campaign “${c.name}” added.`,
  });

  return (
    <section aria-labelledby="settings-campaigns" className="settings-section">
      <SectionHeader id="settings-campaigns" title="Campaigns">
        The appeals gifts are credited to. A campaign offers the donation accounts its gifts may go to.
      </SectionHeader>

      <NewItemForm
        titleId="new-campaign-title"
        title="New campaign"
        onSubmit={create.onSubmit}
        formError={create.formError}
      >
        <div className="settings-form-row">
          <NameField form={create.form} label="Campaign name" />
          <Button type="submit" tone="primary" busy={create.save.isPending}>
            Add campaign
          </Button>
        </div>
        <ChosenAccounts form={create.form} accounts={accounts} />
      </NewItemForm>

      <Loaded
        query={campaigns}
        noun="campaigns"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState title="No campaigns yet.">
            Add the first one above: every gift is credited to a campaign, a committee or a donation account.
          </EmptyState>
        }
      >
        <Table
          className="settings-table"
          caption="Campaigns"
          columns={[
            'Name',
            'Donation accounts',
            { label: 'Gifts', num: true },
            { label: 'Raised', num: true },
          ]}
          actions="Actions"
        >
          {rows.map((c) => (
            <tr key={c.id}>
              <th scope="row">{c.name}</th>
              <td>
                {c.donationAccounts.length ? (
                  c.donationAccounts.map((d) => d.name).join(', ')
                ) : (
                  <span className="muted">none</span>
                )}
              </td>
              <td className="num">{c.donationCount}</td>
              <td className="num">{formatDollars(c.totalRaised)}</td>
              <RowAction verb="Edit" name={c.name} onClick={() => setEditing(c)} />
            </tr>
          ))}
        </Table>
      </Loaded>

      {editing ? (
        <EditCampaignDialog
          campaign={editing}
          others={rows.filter((r) => r.id !== editing.id)}
          accounts={accounts}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

function EditCampaignDialog({
  campaign,
  others,
  accounts,
  onClose,
}: {
  campaign: CampaignRow;
  others: CampaignRow[];
  accounts: AccountsQuery;
  onClose: () => void;
}) {
  const api = useApi();
  const edit = useNamedForm({
    schema: CampaignForm,
    defaultValues: { name: campaign.name, donationAccountIds: campaign.donationAccounts.map((d) => d.id) },
    fields: FIELDS,
    others,
    taken: TAKEN,
    mutationFn: (body: Body) => api.campaigns.update(campaign.id, body),
    invalidate: [qk.campaigns],
    done: (c) => `Campaign “${c.name}” saved.`,
    afterRefresh: onClose,
  });
  return (
    <FormDialog
      title={`Edit campaign “${campaign.name}”`}
      formId="edit-campaign"
      busy={edit.save.isPending}
      onClose={onClose}
      onSubmit={edit.onSubmit}
      formError={edit.formError}
    >
      <NameField form={edit.form} label="Campaign name" inDialog />
      <ChosenAccounts form={edit.form} accounts={accounts} />
    </FormDialog>
  );
}
