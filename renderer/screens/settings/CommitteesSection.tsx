/** Committees: who a gift was raised through. Added in the form at the top; renamed in place. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { CommitteeCreate, CommitteeUpdate, type Committee } from '../../../shared/schemas/extensions.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, Dialog, EmptyState, TextField, useToast } from '../../ui/index.ts';
import { sentenceResolver, showApiError } from './forms.ts';
import { SectionHeader } from './SectionHeader.tsx';

const CreateForm = CommitteeCreate.omit({ accountId: true });
const EditForm = CommitteeUpdate.omit({ accountId: true }).required({ name: true });
type Row = z.infer<typeof Committee>;
const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

export function CommitteesSection() {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  const committees = useQuery({ queryKey: qk.committees, queryFn: () => api.committees.list() });
  const [formError, setFormError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Row | null>(null);
  const form = useForm<z.input<typeof CreateForm>, unknown, z.output<typeof CreateForm>>({
    resolver: sentenceResolver(zodResolver(CreateForm)),
    defaultValues: { name: '' },
  });
  const create = useMutation({
    mutationFn: (body: z.output<typeof CreateForm>) => api.committees.create(body),
    onSuccess: async (c) => {
      form.reset({ name: '' });
      setFormError(null);
      toast.show({ message: `Committee “${c.name}” added.`, tone: 'success', duration: 3500 });
      await qc.invalidateQueries({ queryKey: qk.committees });
      form.setFocus('name');
    },
    onError: (err) => setFormError(showApiError(err, form.setError, ['name'])),
  });
  const rows = committees.data?.data ?? [];
  const onSubmit = form.handleSubmit((body) => {
    if (rows.some((c) => sameName(c.name, body.name))) {
      form.setError(
        'name',
        { type: 'duplicate', message: 'A committee with this name already exists.' },
        { shouldFocus: true },
      );
      return;
    }
    create.mutate(body);
  });

  return (
    <section aria-labelledby="settings-committees" className="settings-section">
      <SectionHeader id="settings-committees" title="Committees">
        The committees gifts are raised through (host committees, boards, chapters).
      </SectionHeader>
      <form
        className="panel settings-form"
        onSubmit={onSubmit}
        noValidate
        aria-labelledby="new-committee-title"
      >
        <h3 id="new-committee-title" className="panel-title">
          New committee
        </h3>
        <div className="settings-form-row">
          <TextField
            label="Committee name"
            autoComplete="off"
            data-autofocus
            error={form.formState.errors.name?.message}
            {...form.register('name')}
          />
          <Button type="submit" tone="primary" busy={create.isPending}>
            Add committee
          </Button>
        </div>
        {formError ? (
          <p className="notice notice-error" role="alert">
            {formError}
          </p>
        ) : null}
      </form>
      {committees.isError ? (
        <p className="notice notice-error" role="alert">
          The committees could not be loaded: {committees.error.message}
        </p>
      ) : committees.isPending ? (
        <p className="muted">Loading committees…</p>
      ) : rows.length === 0 ? (
        <EmptyState title="No committees yet.">
          Add one above if gifts are raised through committees; otherwise nothing is needed here.
        </EmptyState>
      ) : (
        <table className="table settings-table">
          <caption className="visually-hidden">Committees</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id}>
                <th scope="row">{c.name}</th>
                <td>{new Date(c.createdAt).toLocaleDateString()}</td>
                <td className="settings-row-actions">
                  <Button tone="quiet" onClick={() => setEditing(c)} aria-label={`Rename ${c.name}`}>
                    Rename
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <RenameDialog
          committee={editing}
          others={rows.filter((r) => r.id !== editing.id)}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

function RenameDialog({
  committee,
  others,
  onClose,
}: {
  committee: Row;
  others: Row[];
  onClose: () => void;
}) {
  const api = useApi();
  const qc = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<z.input<typeof EditForm>, unknown, z.output<typeof EditForm>>({
    resolver: sentenceResolver(zodResolver(EditForm)),
    defaultValues: { name: committee.name },
  });
  const save = useMutation({
    mutationFn: (body: z.output<typeof EditForm>) => api.committees.update(committee.id, body),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: qk.committees });
      onClose();
    },
    onError: (err) => setFormError(showApiError(err, form.setError, ['name'])),
  });
  const onSubmit = form.handleSubmit((body) => {
    if (others.some((c) => sameName(c.name, body.name))) {
      form.setError(
        'name',
        { type: 'duplicate', message: 'A committee with this name already exists.' },
        { shouldFocus: true },
      );
      return;
    }
    save.mutate(body);
  });
  return (
    <Dialog
      open
      title={`Rename committee “${committee.name}”`}
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button tone="primary" type="submit" form="rename-committee" busy={save.isPending}>
            Save
          </Button>
        </>
      }
    >
      <form id="rename-committee" onSubmit={onSubmit} noValidate className="settings-dialog-form">
        <TextField
          label="Committee name"
          autoFocus
          autoComplete="off"
          error={form.formState.errors.name?.message}
          {...form.register('name')}
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
