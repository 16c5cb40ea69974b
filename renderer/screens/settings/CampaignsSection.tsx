/**
 * Campaigns: the appeals gifts are credited to, each offering some donation accounts. A
 * new one is made in the form at the top (Enter saves); each row can be renamed and have its
 * donation accounts changed.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  CampaignCreate,
  CampaignUpdate,
  type Campaign,
  type DonationAccount,
} from '../../../shared/schemas/extensions.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, Dialog, EmptyState, TextField, useToast } from '../../ui/index.ts';
import { formatDollars, sentenceResolver, showApiError } from './forms.ts';
import { SectionHeader } from './SectionHeader.tsx';

const CreateForm = CampaignCreate.omit({ accountId: true });
const EditForm = CampaignUpdate.omit({ accountId: true });
type CreateIn = z.input<typeof CreateForm>;
type CreateOut = z.output<typeof CreateForm>;
type CampaignRow = z.infer<typeof Campaign>;
type AccountRow = z.infer<typeof DonationAccount>;

const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

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

export function CampaignsSection() {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  const campaigns = useQuery({ queryKey: qk.campaigns, queryFn: () => api.campaigns.list() });
  const accounts = useQuery({ queryKey: qk.donationAccounts, queryFn: () => api.donationAccounts.list() });
  const [formError, setFormError] = useState<string | null>(null);
  const [editing, setEditing] = useState<CampaignRow | null>(null);

  const form = useForm<CreateIn, unknown, CreateOut>({
    resolver: sentenceResolver(zodResolver(CreateForm)),
    defaultValues: { name: '', donationAccountIds: [] },
  });
  const create = useMutation({
    mutationFn: (body: CreateOut) => api.campaigns.create(body),
    onSuccess: async (c) => {
      form.reset({ name: '', donationAccountIds: [] });
      setFormError(null);
      toast.show({ message: `Campaign “${c.name}” added.`, tone: 'success', duration: 3500 });
      await qc.invalidateQueries({ queryKey: qk.campaigns });
      form.setFocus('name');
    },
    onError: (err) => setFormError(showApiError(err, form.setError, ['name', 'donationAccountIds'])),
  });

  const onSubmit = form.handleSubmit((body) => {
    if ((campaigns.data?.data ?? []).some((c) => sameName(c.name, body.name))) {
      form.setError(
        'name',
        { type: 'duplicate', message: 'A campaign with this name already exists.' },
        { shouldFocus: true },
      );
      return;
    }
    create.mutate(body);
  });

  const rows = campaigns.data?.data ?? [];
  return (
    <section aria-labelledby="settings-campaigns" className="settings-section">
      <SectionHeader id="settings-campaigns" title="Campaigns">
        The appeals gifts are credited to. A campaign offers the donation accounts its gifts may go to.
      </SectionHeader>

      <form
        className="panel settings-form"
        onSubmit={onSubmit}
        noValidate
        aria-labelledby="new-campaign-title"
      >
        <h3 id="new-campaign-title" className="panel-title">
          New campaign
        </h3>
        <div className="settings-form-row">
          <TextField
            label="Campaign name"
            autoComplete="off"
            data-autofocus
            error={form.formState.errors.name?.message}
            {...form.register('name')}
          />
          <Button type="submit" tone="primary" busy={create.isPending}>
            Add campaign
          </Button>
        </div>
        <DonationAccountChoices
          value={form.watch('donationAccountIds') ?? []}
          onChange={(ids) => form.setValue('donationAccountIds', ids, { shouldDirty: true })}
          error={form.formState.errors.donationAccountIds?.message}
          accounts={accounts.data?.data ?? []}
          legend="Donation accounts it offers"
        />
        {formError ? (
          <p className="notice notice-error" role="alert">
            {formError}
          </p>
        ) : null}
      </form>

      {campaigns.isError ? (
        <p className="notice notice-error" role="alert">
          The campaigns could not be loaded: {campaigns.error.message}
        </p>
      ) : campaigns.isPending ? (
        <p className="muted">Loading campaigns…</p>
      ) : rows.length === 0 ? (
        <EmptyState title="No campaigns yet.">
          Add the first one above: every gift is credited to a campaign, a committee or a donation account.
        </EmptyState>
      ) : (
        <table className="table settings-table">
          <caption className="visually-hidden">Campaigns</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Donation accounts</th>
              <th scope="col" className="num">
                Gifts
              </th>
              <th scope="col" className="num">
                Raised
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      )}

      {editing ? (
        <EditCampaignDialog
          campaign={editing}
          others={rows.filter((r) => r.id !== editing.id)}
          accounts={accounts.data?.data ?? []}
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
  accounts: AccountRow[];
  onClose: () => void;
}) {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<z.input<typeof EditForm>, unknown, z.output<typeof EditForm>>({
    resolver: sentenceResolver(zodResolver(EditForm)),
    defaultValues: { name: campaign.name, donationAccountIds: campaign.donationAccounts.map((d) => d.id) },
  });
  const save = useMutation({
    mutationFn: (body: z.output<typeof EditForm>) => api.campaigns.update(campaign.id, body),
    onSuccess: async (c) => {
      toast.show({ message: `Campaign “${c.name}” saved.`, tone: 'success', duration: 3500 });
      await qc.invalidateQueries({ queryKey: qk.campaigns });
      onClose();
    },
    onError: (err) => setFormError(showApiError(err, form.setError, ['name', 'donationAccountIds'])),
  });
  const onSubmit = form.handleSubmit((body) => {
    if (body.name !== undefined && others.some((c) => sameName(c.name, body.name ?? ''))) {
      form.setError(
        'name',
        { type: 'duplicate', message: 'A campaign with this name already exists.' },
        { shouldFocus: true },
      );
      return;
    }
    save.mutate(body);
  });
  return (
    <Dialog
      open
      title={`Edit campaign “${campaign.name}”`}
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button tone="primary" type="submit" form="edit-campaign" busy={save.isPending}>
            Save
          </Button>
        </>
      }
    >
      <form id="edit-campaign" onSubmit={onSubmit} noValidate className="settings-dialog-form">
        <TextField
          label="Campaign name"
          autoFocus
          autoComplete="off"
          error={form.formState.errors.name?.message}
          {...form.register('name')}
        />
        <DonationAccountChoices
          value={form.watch('donationAccountIds') ?? []}
          onChange={(ids) => form.setValue('donationAccountIds', ids, { shouldDirty: true })}
          error={form.formState.errors.donationAccountIds?.message}
          accounts={accounts}
          legend="Donation accounts it offers"
        />
        {formError ? (
          <p className="notice notice-error" role="alert">
            {formError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
