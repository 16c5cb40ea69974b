/**
 * People (administrators): who signs in to GiftDesk at this address, each with a role. Add a
 * person (name, email, role): their one-time set-password link is shown once, with a Copy
 * button, to send them (PeopleDialogs.tsx); change a role; disable someone (asked first: their
 * open sessions end at once) or enable them again; make a new link when one was lost. The
 * server refuses to demote or disable the last administrator, and says so in words.
 *
 * The link is a secret: it lives in this section's state while its dialog is open and nowhere
 * else (the requests' results are kept by the query library without it), and is gone once the
 * dialog closes.
 */
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type RefObject } from 'react';
import type { z } from 'zod';
import { UserCreate, type User } from '#shared/schemas/people.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, EmptyState, Loaded, Select, Table, TextField } from '../../ui/index.ts';
import { dateTime } from '../../ui/format.ts';
import {
  DisableDialog,
  ROLE_LABEL,
  ROLE_OPTIONS,
  RoleDialog,
  SetPasswordLinkDialog,
  submitOnEnter,
  type ShownLink,
} from './PeopleDialogs.tsx';
import { NewItemForm } from './row-forms.tsx';
import { useAction, useSave, useSettingsForm } from './saving.ts';
import { SectionHeader } from './SectionHeader.tsx';

const AddForm = UserCreate.omit({ accountId: true });
type AddBody = z.output<typeof AddForm>;

/** The address a person opens to set their password, at this window's address. */
const linkFor = (token: string) => `${window.location.origin}/#set-password=${token}`;

export function PeopleSection() {
  const api = useApi();
  const users = useQuery({ queryKey: qk.users, queryFn: () => api.users.list() });
  const me = useQuery({ queryKey: qk.me, queryFn: () => api.users.me() });
  const [link, setLink] = useState<ShownLink | null>(null);
  const [changing, setChanging] = useState<User | null>(null);
  const [disabling, setDisabling] = useState<User | null>(null);
  const nameRef = useRef<HTMLInputElement | null>(null);
  const rows = users.data?.data ?? [];
  const myId = me.data?.user?.id ?? null;
  const others = rows.filter((u) => u.id !== myId);

  const enable = useAction({
    mutationFn: (u: User) => api.users.update(u.id, { disabled: false }),
    invalidate: [qk.users],
    done: (u) => `${u.name} can sign in again (with their password, or a new link).`,
  });
  const newLink = useAction({
    // The token goes to the dialog's state only; the mutation keeps the person without it.
    mutationFn: async (u: User) => {
      const issued = await api.users.passwordLink(u.id);
      setLink({ name: u.name, email: issued.email, url: linkFor(issued.setPasswordToken), fresh: false });
      return u;
    },
    invalidate: [],
  });

  return (
    <section aria-labelledby="settings-people" className="settings-section">
      <SectionHeader id="settings-people" title="People">
        The people who sign in to GiftDesk at this address, and what each may do. A new person gets a link to
        set their own password; you send it to them.
      </SectionHeader>
      <AddPersonForm nameRef={nameRef} onAdded={setLink} />
      <Loaded query={users} noun="people">
        {rows.length > 0 ? (
          <Table
            className="settings-table"
            caption="People"
            columns={['Name', 'Email', 'Role', 'Status', 'Last signed in']}
            actions="Actions"
          >
            {rows.map((u) => (
              <tr key={u.id} className={u.disabledAt ? 'muted' : undefined}>
                <th scope="row">
                  {u.name}
                  {u.id === myId ? (
                    <>
                      {' '}
                      <span className="badge">You</span>
                    </>
                  ) : null}
                </th>
                <td>{u.email}</td>
                <td>{ROLE_LABEL[u.role]}</td>
                <td>{statusOf(u)}</td>
                <td>
                  {u.lastSignInAt ? dateTime(u.lastSignInAt) : <span className="muted">not known</span>}
                </td>
                <td className="settings-row-actions">
                  <Button
                    tone="quiet"
                    onClick={() => setChanging(u)}
                    aria-label={`Change role: ${u.name} (${u.email})`}
                  >
                    Change role
                  </Button>
                  <Button
                    tone="quiet"
                    busy={newLink.isPending && newLink.variables?.id === u.id}
                    onClick={() => newLink.mutate(u)}
                    aria-label={`New link for ${u.name} (${u.email})`}
                  >
                    New link
                  </Button>
                  {u.id === myId ? null : u.disabledAt ? (
                    <Button
                      tone="quiet"
                      onClick={() => enable.mutate(u)}
                      aria-label={`Enable ${u.name} (${u.email})`}
                    >
                      Enable
                    </Button>
                  ) : (
                    <Button
                      tone="quiet"
                      className="btn-quiet-danger"
                      onClick={() => setDisabling(u)}
                      aria-label={`Disable ${u.name} (${u.email})`}
                    >
                      Disable
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        ) : null}
        {others.length === 0 ? (
          <EmptyState title={myId ? 'Only you so far.' : 'No one signs in here yet.'}>
            Add the people who will use GiftDesk above — volunteers at the gift table, coordinators, the
            treasurer. Each gets a link to set their own password.
          </EmptyState>
        ) : null}
      </Loaded>
      {link ? (
        <SetPasswordLinkDialog
          link={link}
          onClose={() => setLink(null)}
          focusAfter={link.fresh ? () => nameRef.current : undefined}
        />
      ) : null}
      {changing ? <RoleDialog person={changing} onClose={() => setChanging(null)} /> : null}
      <DisableDialog person={disabling} onDone={() => setDisabling(null)} />
    </section>
  );
}

function statusOf(u: User): string {
  if (u.disabledAt) return `Disabled ${dateTime(u.disabledAt)}`;
  return u.passwordSet ? 'Active' : 'No password yet';
}

/** The form that adds a person; the person added and their link go to `onAdded` (its dialog says it). */
function AddPersonForm({
  nameRef,
  onAdded,
}: {
  nameRef: RefObject<HTMLInputElement | null>;
  onAdded: (link: ShownLink) => void;
}) {
  const api = useApi();
  const empty = { name: '', email: '', role: 'volunteer' as const };
  const f = useSettingsForm(AddForm, empty, ['name', 'email', 'role']);
  const add = useSave(f, {
    // The token goes to the dialog's state only; the mutation keeps the person without it.
    mutationFn: async (body: AddBody) => {
      const { setPasswordToken, setPasswordExpiresAt: _expires, ...person } = await api.users.create(body);
      onAdded({ name: person.name, email: person.email, url: linkFor(setPasswordToken), fresh: true });
      return person;
    },
    invalidate: [qk.users],
    onSaved: () => f.form.reset(empty),
  });
  const name = f.form.register('name');
  return (
    <NewItemForm
      titleId="new-person-title"
      title="Add a person"
      onSubmit={f.form.handleSubmit((b) => add.mutate(b))}
      formError={f.formError}
    >
      <div className="settings-form-row">
        <TextField
          label="Name"
          autoComplete="off"
          data-autofocus
          error={f.form.formState.errors.name?.message}
          {...name}
          ref={(el) => {
            name.ref(el);
            nameRef.current = el;
          }}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          spellCheck={false}
          error={f.form.formState.errors.email?.message}
          {...f.form.register('email')}
        />
        <Select
          label="Role"
          options={ROLE_OPTIONS}
          typeToChoose
          onKeyDown={submitOnEnter}
          error={f.form.formState.errors.role?.message}
          {...f.form.register('role')}
        />
        <Button type="submit" tone="primary" busy={add.isPending}>
          Add person
        </Button>
      </div>
    </NewItemForm>
  );
}
