/**
 * Campaigns: the appeals gifts are credited to, each offering some donation accounts. A
 * new one is made in the form at the top (Enter saves); each row can be renamed and have its
 * donation accounts changed.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { CampaignCreate, type Campaign, type DonationAccount } from '../../../shared/schemas/extensions.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, EmptyState, TextField } from '../../ui/index.ts';
import { formatDollars } from './forms.ts';
import {
  EditDialog,
  Loaded,
  NewItemForm,
  refuseTakenName,
  SettingsTable,
  useSave,
  useSettingsForm,
} from './kit.tsx';
import { SectionHeader } from './SectionHeader.tsx';

const CreateForm = CampaignCreate.omit({ accountId: true });
type CampaignForm = UseFormReturn<z.input<typeof CreateForm>, unknown, z.output<typeof CreateForm>>;
type CampaignRow = z.infer<typeof Campaign>;
type AccountRow = z.infer<typeof DonationAccount>;
/** The donation accounts' query, as far as the choices need it. */
type AccountsQuery = { isError: boolean; isPending: boolean; error: Error | null; data?: { data: AccountRow[] } | undefined };
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
function ChosenAccounts({ form, accounts }: { form: CampaignForm; accounts: AccountsQuery }) {
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
  const f = useSettingsForm(CreateForm, { name: '', donationAccountIds: [] }, FIELDS);
  const create = useSave(f, {
    mutationFn: (body: z.output<typeof CreateForm>) => api.campaigns.create(body),
    invalidate: [qk.campaigns],
    done: (c) => `Campaign “${c.name}” added.`,
    onSaved: () => f.form.reset({ name: '', donationAccountIds: [] }),
    afterRefresh: () => f.form.setFocus('name'),
  });
  const rows = campaigns.data?.data ?? [];
  const onSubmit = f.form.handleSubmit((body) => {
    if (!refuseTakenName(f.form, 'name', body.name, rows, TAKEN)) create.mutate(body);
  });

  return (
    <section aria-labelledby="settings-campaigns" className="settings-section">
      <SectionHeader id="settings-campaigns" title="Campaigns">
        The appeals gifts are credited to. A campaign offers the donation accounts its gifts may go to.
      </SectionHeader>

      <NewItemForm
        titleId="new-campaign-title"
        title="New campaign"
        onSubmit={onSubmit}
        formError={f.formError}
      >
        <div className="settings-form-row">
          <TextField
            label="Campaign name"
            autoComplete="off"
            data-autofocus
            error={f.form.formState.errors.name?.message}
            {...f.form.register('name')}
          />
          <Button type="submit" tone="primary" busy={create.isPending}>
            Add campaign
          </Button>
        </div>
        <ChosenAccounts form={f.form} accounts={accounts} />
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
        <SettingsTable
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
              <td className="settings-row-actions">
                <Button tone="quiet" onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`}>
                  Edit
                </Button>
              </td>
            </tr>
          ))}
        </SettingsTable>
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
  // The edit form is the new one's: a name (required) and the accounts, both sent.
  const f = useSettingsForm(
    CreateForm,
    { name: campaign.name, donationAccountIds: campaign.donationAccounts.map((d) => d.id) },
    FIELDS,
  );
  const save = useSave(f, {
    mutationFn: (body: z.output<typeof CreateForm>) => api.campaigns.update(campaign.id, body),
    invalidate: [qk.campaigns],
    done: (c) => `Campaign “${c.name}” saved.`,
    afterRefresh: onClose,
  });
  const onSubmit = f.form.handleSubmit((body) => {
    if (!refuseTakenName(f.form, 'name', body.name, others, TAKEN)) save.mutate(body);
  });
  return (
    <EditDialog
      title={`Edit campaign “${campaign.name}”`}
      formId="edit-campaign"
      busy={save.isPending}
      onClose={onClose}
      onSubmit={onSubmit}
      formError={f.formError}
    >
      <TextField
        label="Campaign name"
        autoFocus
        autoComplete="off"
        error={f.form.formState.errors.name?.message}
        {...f.form.register('name')}
      />
      <ChosenAccounts form={f.form} accounts={accounts} />
    </EditDialog>
  );
}
