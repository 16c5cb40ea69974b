/** Committees: who a gift was raised through. Added in the form at the top; renamed in place. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { CommitteeCreate, type Committee } from '../../../shared/schemas/extensions.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, EmptyState, TextField } from '../../ui/index.ts';
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

const CreateForm = CommitteeCreate.omit({ accountId: true });
type Row = z.infer<typeof Committee>;
const TAKEN = 'A committee with this name already exists.';

export function CommitteesSection() {
  const api = useApi();
  const committees = useQuery({ queryKey: qk.committees, queryFn: () => api.committees.list() });
  const [editing, setEditing] = useState<Row | null>(null);
  const f = useSettingsForm(CreateForm, { name: '' }, ['name']);
  const create = useSave(f, {
    mutationFn: (body: z.output<typeof CreateForm>) => api.committees.create(body),
    invalidate: [qk.committees],
    done: (c) => `Committee “${c.name}” added.`,
    onSaved: () => f.form.reset({ name: '' }),
    afterRefresh: () => f.form.setFocus('name'),
  });
  const rows = committees.data?.data ?? [];
  const onSubmit = f.form.handleSubmit((body) => {
    if (!refuseTakenName(f.form, 'name', body.name, rows, TAKEN)) create.mutate(body);
  });

  return (
    <section aria-labelledby="settings-committees" className="settings-section">
      <SectionHeader id="settings-committees" title="Committees">
        The committees gifts are raised through (host committees, boards, chapters).
      </SectionHeader>
      <NewItemForm
        titleId="new-committee-title"
        title="New committee"
        onSubmit={onSubmit}
        formError={f.formError}
      >
        <div className="settings-form-row">
          <TextField
            label="Committee name"
            autoComplete="off"
            data-autofocus
            error={f.form.formState.errors.name?.message}
            {...f.form.register('name')}
          />
          <Button type="submit" tone="primary" busy={create.isPending}>
            Add committee
          </Button>
        </div>
      </NewItemForm>
      <Loaded
        query={committees}
        noun="committees"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState title="No committees yet.">
            Add one above if gifts are raised through committees; otherwise nothing is needed here.
          </EmptyState>
        }
      >
        <SettingsTable caption="Committees" columns={['Name', 'Added']} actions="Actions">
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
        </SettingsTable>
      </Loaded>
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
  const f = useSettingsForm(CreateForm, { name: committee.name }, ['name']);
  const save = useSave(f, {
    mutationFn: (body: z.output<typeof CreateForm>) => api.committees.update(committee.id, body),
    invalidate: [qk.committees],
    done: (c) => `Committee “${c.name}” saved.`,
    afterRefresh: onClose,
  });
  const onSubmit = f.form.handleSubmit((body) => {
    if (!refuseTakenName(f.form, 'name', body.name, others, TAKEN)) save.mutate(body);
  });
  return (
    <EditDialog
      title={`Rename committee “${committee.name}”`}
      formId="rename-committee"
      busy={save.isPending}
      onClose={onClose}
      onSubmit={onSubmit}
      formError={f.formError}
    >
      <TextField
        label="Committee name"
        autoFocus
        autoComplete="off"
        error={f.form.formState.errors.name?.message}
        {...f.form.register('name')}
      />
    </EditDialog>
  );
}
