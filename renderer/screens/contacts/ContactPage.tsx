/**
 * One contact: profile, sub-records, tags, custom fields (by type; archived ones hidden),
 * giving totals with a chart by year, and the giving history page by page. Edit and delete
 * from here; delete says first how many gifts, and how much, go with the contact. The details
 * are in contact-details.tsx, the giving panel in contact-giving.tsx.
 */
import { tagsForPeople } from '#shared/sync-reference.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Contact } from '#shared/schemas/contacts.ts';
import type { ContactDeletePreview } from '#shared/schemas/contact-views.ts';
import { errorMessage, failedWrite, isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { hrefFor, navigate } from '../../router.ts';
import { OFFICE, roleSees, useRole } from '../../session/role.ts';
import { Button, ConfirmDialog, EmptyState, Screen, useToast } from '../../ui/index.ts';
import { CustomFields, Profile, SubRecords } from './contact-details.tsx';
import { Credits } from './contact-credits.tsx';
import { Giving } from './contact-giving.tsx';
import { count, enumLabel, money } from './format.ts';
import { displayName, type CustomFieldDef } from './form-model.ts';
import { fetchDeletePreview, useContact, useCustomFields } from './queries.ts';

export function ContactPage({ id }: { id: string }) {
  const contact = useContact(id);
  const fields = useCustomFields();

  // Arriving from the list: the focus goes to the contact's name.
  useEffect(() => {
    if (contact.data) document.getElementById('screen-title')?.focus();
  }, [contact.data?.id]);

  if (contact.isPending) {
    return (
      <Screen title="Contact">
        <p className="muted" role="status">
          Loading the contact…
        </p>
      </Screen>
    );
  }
  if (contact.error) {
    const missing = isApiError(contact.error) && contact.error.status === 404;
    return (
      <Screen title={missing ? 'Contact not found' : 'Contact'}>
        <EmptyState
          title={
            missing
              ? 'This contact does not exist (it may have been deleted).'
              : `The contact could not be loaded: ${errorMessage(contact.error)}`
          }
          action={
            <a className="btn" href={hrefFor('contacts')}>
              Back to contacts
            </a>
          }
        />
      </Screen>
    );
  }
  return <ContactView c={contact.data} defs={fields.data ?? []} />;
}

function ContactView({ c, defs }: { c: Contact; defs: readonly CustomFieldDef[] }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  const role = useRole();
  const [preview, setPreview] = useState<ContactDeletePreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const name = displayName(c);

  const askDelete = async () => {
    setAsking(true);
    setPreview(null);
    setPreviewError(null);
    try {
      setPreview(await fetchDeletePreview(api, c.id));
    } catch (e) {
      setPreviewError(errorMessage(e));
    }
  };

  const doDelete = async () => {
    setDeleting(true);
    try {
      await api.contacts.delete(c.id);
      setAsking(false);
      queryClient.removeQueries({ queryKey: qk.contact(c.id) });
      await Promise.all(
        [qk.contacts, qk.donations, qk.account, qk.campaigns, qk.flags, qk.sync, qk.batches].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
      toast.show({
        message: `${name} was deleted${preview && preview.donationCount > 0 ? `, with ${count(preview.donationCount, 'gift')}` : ''}.`,
        tone: 'success',
      });
      navigate('contacts');
    } catch (e) {
      setPreviewError(failedWrite('Not deleted', e));
    } finally {
      setDeleting(false);
    }
  };

  const title = (
    <>
      {name}
      {c.status !== 'ACTIVE' ? <span className="badge contact-status">{enumLabel(c.status)}</span> : null}
    </>
  );

  return (
    <Screen
      title={title}
      className="contact-page"
      actions={
        <>
          <a className="btn" href={hrefFor('contacts')}>
            Back to contacts
          </a>
          <a className="btn btn-primary" href={hrefFor('contacts', c.id, 'edit')}>
            Edit
          </a>
          {roleSees(role, OFFICE) ? (
            <a className="btn" href={hrefFor('letters', 'year-end', c.id)}>
              Year-end statement
            </a>
          ) : null}
          <Button tone="danger" onClick={() => void askDelete()}>
            Delete…
          </Button>
        </>
      }
    >
      <p className="contact-lede muted">
        {[
          enumLabel(c.contactType),
          c.title && c.organization ? `${c.title}, ${c.organization}` : (c.organization ?? c.title),
          c.address?.city,
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {tagsForPeople(c.tags).length > 0 ? (
        <ul className="tag-list" aria-label="Tags">
          {tagsForPeople(c.tags).map((t) => (
            <li key={t} className="badge badge-tag">
              {t}
            </li>
          ))}
        </ul>
      ) : null}

      <div className="contact-grid">
        <div className="contact-col">
          <Profile c={c} />
          <CustomFields c={c} defs={defs} />
          <SubRecords c={c} />
        </div>
        <div className="contact-col">
          <Giving id={c.id} donorName={name} />
          <Credits id={c.id} />
        </div>
      </div>

      <ConfirmDialog
        open={asking}
        title={`Delete ${name}?`}
        confirmLabel={
          preview && preview.donationCount > 0
            ? `Delete contact and ${count(preview.donationCount, 'gift')}`
            : 'Delete contact'
        }
        busy={deleting || (!preview && !previewError)}
        onConfirm={() => void doDelete()}
        onCancel={() => setAsking(false)}
      >
        {previewError ? (
          <p className="notice notice-error" role="alert">
            {previewError}
          </p>
        ) : !preview ? (
          <p role="status">Counting the gifts that go with this contact…</p>
        ) : preview.donationCount === 0 ? (
          <p>
            {name} has no gifts. The contact, with their phones, emails, addresses, notes and custom fields,
            is deleted for good.
          </p>
        ) : (
          <>
            <p className="notice notice-warn">
              <strong>
                This also deletes {count(preview.donationCount, 'gift')} totalling{' '}
                {money(preview.donationTotal)}
              </strong>
              {preview.completedCount !== preview.donationCount
                ? ` (${money(preview.completedTotal)} of it in ${count(preview.completedCount, 'completed gift')})`
                : ''}
              .
            </p>
            <p>They disappear from campaign totals and reports. This cannot be undone.</p>
            {preview.linkedDonationCount > 0 ? (
              <p>
                {count(preview.linkedDonationCount, 'gift')} from other donors name {name} as the person
                credited or the solicitor; those gifts stay and lose that link.
              </p>
            ) : null}
          </>
        )}
      </ConfirmDialog>
    </Screen>
  );
}
