/**
 * One contact: profile, sub-records, tags, custom fields (by type; archived ones hidden),
 * giving totals with a chart by year, and the giving history page by page. Edit and delete
 * from here; delete says first how many gifts, and how much, go with the contact.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { Contact } from '#shared/schemas/contacts.ts';
import type { ContactDeletePreview } from '#shared/schemas/contact-views.ts';
import { errorMessage, isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { hrefFor, navigate } from '../../router.ts';
import { Button, ConfirmDialog, EmptyState, Screen, useToast } from '../../ui/index.ts';
import { count, day, enumLabel, money } from './format.ts';
import { displayName, liveFields, type CustomFieldDef } from './form-model.ts';
import { GivingChart } from './GivingChart.tsx';
import { fetchDeletePreview, GIVING_PAGE_SIZE, useContact, useCustomFields, useGiving } from './queries.ts';

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
      setPreviewError(`Not deleted: ${errorMessage(e)}`);
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
      {c.tags.length > 0 ? (
        <ul className="tag-list" aria-label="Tags">
          {c.tags.map((t) => (
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
          <Giving id={c.id} />
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

function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <section className="panel contact-section" aria-labelledby={id}>
      <h2 className="panel-title" id={id}>
        {title}
      </h2>
      {children}
    </section>
  );
}

function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  const shown = rows.filter(([, v]) => v !== null && v !== undefined && v !== '');
  if (shown.length === 0) return <p className="muted">Nothing recorded.</p>;
  return (
    <dl className="facts">
      {shown.map(([k, v]) => (
        <div key={k} className="fact">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function Profile({ c }: { c: Contact }) {
  const fullName = [c.prefix, c.firstName, c.middleName, c.lastName, c.suffix].filter(Boolean).join(' ');
  return (
    <Section title="Profile" id="contact-profile">
      <Facts
        rows={[
          ['Full name', fullName],
          ['Email', c.email ? <a href={`mailto:${c.email}`}>{c.email}</a> : null],
          ['Phone', c.phone],
          ['Address', c.address ? formatAddress(c.address) : null],
          ['Preferred contact', enumLabel(c.preferredContactMethod)],
          ['Organization', c.organization],
          ['Job title', c.title],
          ['Employer', c.employer],
          ['Occupation', c.occupation],
          ['Industry', c.industry],
          ['Salutation', c.salutation],
          ['Formal salutation', c.formalSalutation],
          ['Spouse', c.spouse],
          ['Birth date', day(c.birthDate)],
          ['Gender', enumLabel(c.gender)],
          ['Political party', c.politicalParty],
          ['Giving capacity', c.capacity],
          ['Source', c.source],
          ['Added', day(c.createdAt)],
        ]}
      />
      {c.quickNotes ? (
        <div className="quick-notes">
          <h3>Quick notes</h3>
          <p>{c.quickNotes}</p>
        </div>
      ) : null}
    </Section>
  );
}

function formatAddress(a: NonNullable<Contact['address']>): string {
  return [a.street1, a.street2, [a.city, a.state].filter(Boolean).join(', '), a.postalCode, a.country]
    .filter(Boolean)
    .join(', ');
}

function CustomFields({ c, defs }: { c: Contact; defs: readonly CustomFieldDef[] }) {
  const live = liveFields(defs);
  if (live.length === 0) return null;
  const byName = new Map(Object.entries(c.customFields).map(([k, v]) => [k.toLowerCase(), v]));
  return (
    <Section title="Custom fields" id="contact-custom">
      <Facts
        rows={live.map((d): [string, ReactNode] => {
          const v = byName.get(d.name.toLowerCase());
          if (v === undefined) return [d.name, <span className="muted">—</span>];
          if (d.type === 'date') return [d.name, day(String(v))];
          if (d.type === 'number')
            return [d.name, typeof v === 'number' ? v.toLocaleString('en-US') : String(v)];
          return [d.name, String(v)];
        })}
      />
    </Section>
  );
}

function SubRecords({ c }: { c: Contact }) {
  const primary = (p: boolean) => (p ? <span className="badge">primary</span> : null);
  return (
    <Section title="Phones, emails, addresses" id="contact-subrecords">
      <SubList
        title="Phone numbers"
        empty="No phone numbers."
        items={c.phoneNumbers.map((p) => ({
          id: p.id,
          body: (
            <>
              {p.phoneNumber} {p.phoneType ? <span className="muted">({p.phoneType})</span> : null}{' '}
              {primary(p.isPrimary)}
            </>
          ),
        }))}
      />
      <SubList
        title="Email addresses"
        empty="No email addresses."
        items={c.emailAddresses.map((e) => ({
          id: e.id,
          body: (
            <>
              {e.emailAddress} {e.emailType ? <span className="muted">({e.emailType})</span> : null}{' '}
              {primary(e.isPrimary)}
            </>
          ),
        }))}
      />
      <SubList
        title="Addresses"
        empty="No addresses."
        items={c.addresses.map((a) => ({
          id: a.id,
          body: (
            <>
              {formatAddress(a)} {a.addressType ? <span className="muted">({a.addressType})</span> : null}{' '}
              {primary(a.isPrimary)}
            </>
          ),
        }))}
      />
      <SubList
        title="Education"
        empty="No education recorded."
        items={c.education.map((e) => ({
          id: e.id,
          body: (
            <>
              {[e.institution, e.degree, e.fieldOfStudy].filter(Boolean).join(', ')}
              {e.graduationYear ? ` (${e.graduationYear})` : ''}
            </>
          ),
        }))}
      />
      <SubList
        title="Employment"
        empty="No employment recorded."
        items={c.employment.map((e) => ({
          id: e.id,
          body: (
            <>
              {[e.title, e.employer].filter(Boolean).join(' at ')}
              {e.occupation ? <span className="muted"> · {e.occupation}</span> : null}
              {e.startDate || e.endDate || e.isCurrent ? (
                <span className="muted">
                  {' '}
                  · {day(e.startDate) || '?'} – {e.isCurrent ? 'now' : day(e.endDate) || '?'}
                </span>
              ) : null}
            </>
          ),
        }))}
      />
      <SubList
        title="Notes"
        empty="No notes."
        items={c.notes.map((n) => ({
          id: n.id,
          body: (
            <>
              {n.noteType ? <span className="badge">{n.noteType}</span> : null}{' '}
              <span className="note-text">{n.content}</span> <span className="muted">{day(n.createdAt)}</span>
            </>
          ),
        }))}
      />
    </Section>
  );
}

function SubList({
  title,
  items,
  empty,
}: {
  title: string;
  items: Array<{ id: string; body: ReactNode }>;
  empty: string;
}) {
  return (
    <div className="sublist">
      <h3>{title}</h3>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul>
          {items.map((i) => (
            <li key={i.id}>{i.body}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Giving({ id }: { id: string }) {
  const [page, setPage] = useState(0);
  const giving = useGiving(id, page);
  if (giving.isPending) {
    return (
      <Section title="Giving" id="contact-giving">
        <p className="muted" role="status">
          Loading the giving history…
        </p>
      </Section>
    );
  }
  if (giving.error) {
    return (
      <Section title="Giving" id="contact-giving">
        <p className="notice notice-error" role="alert">
          The giving history could not be loaded: {errorMessage(giving.error)}
        </p>
      </Section>
    );
  }
  const { totals, donations, total } = giving.data;
  const pages = Math.max(1, Math.ceil(total / GIVING_PAGE_SIZE));
  return (
    <Section title="Giving" id="contact-giving">
      {totals.donationCount === 0 ? (
        <EmptyState title="No gifts yet.">
          Gifts entered for this contact on the Gift entry screen appear here, with their totals.
        </EmptyState>
      ) : (
        <>
          <dl className="giving-totals">
            <div className="total-big">
              <dt>Total given</dt>
              <dd>{money(totals.totalDonations)}</dd>
            </div>
            <div>
              <dt>Gifts</dt>
              <dd>{totals.completedCount.toLocaleString('en-US')}</dd>
            </div>
            <div>
              <dt>Average gift</dt>
              <dd>{totals.averageGift === null ? '—' : money(totals.averageGift)}</dd>
            </div>
            <div>
              <dt>Largest gift</dt>
              <dd>{totals.largestGift === null ? '—' : money(totals.largestGift)}</dd>
            </div>
            <div>
              <dt>First gift</dt>
              <dd>{day(totals.firstDonationDate)}</dd>
            </div>
            <div>
              <dt>Last gift</dt>
              <dd>{day(totals.lastDonationDate)}</dd>
            </div>
          </dl>
          {totals.refundedTotal > 0 || totals.disputedTotal > 0 ? (
            <p className="muted">
              Not counted in the total:{' '}
              {totals.refundedTotal > 0 ? `${money(totals.refundedTotal)} refunded` : ''}
              {totals.refundedTotal > 0 && totals.disputedTotal > 0 ? ', ' : ''}
              {totals.disputedTotal > 0 ? `${money(totals.disputedTotal)} disputed` : ''}.
            </p>
          ) : null}
          {totals.byYear.length > 0 ? <GivingChart years={totals.byYear} /> : null}
          <table className="table giving-table">
            <caption className="visually-hidden">Gifts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Method</th>
                <th scope="col">Credited to</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {donations.map((d) => (
                <tr key={d.id}>
                  <td>{day(d.donationDate)}</td>
                  <td className="num">{money(d.donationAmount)}</td>
                  <td>{enumLabel(d.paymentMethod)}</td>
                  <td>
                    {[d.campaignName, d.committeeName, d.donationAccountName].filter(Boolean).join(' · ')}
                    {d.isAnonymous ? <span className="badge">anonymous</span> : null}
                    {d.isRecurring ? <span className="badge">recurring</span> : null}
                    {d.notes ? <div className="muted giving-note">{d.notes}</div> : null}
                  </td>
                  <td>
                    {d.status === 'completed' ? (
                      'Completed'
                    ) : (
                      <span className="badge badge-warn">{enumLabel(d.status)}</span>
                    )}
                    {d.flagged ? (
                      <span className="badge badge-warn" title="Over a contribution limit: see Review">
                        over limit
                      </span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {pages > 1 ? (
            <nav className="pager" aria-label="Gift pages">
              <Button disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
                Newer gifts
              </Button>
              <span aria-live="polite">
                Page {page + 1} of {pages}
              </span>
              <Button disabled={page >= pages - 1} onClick={() => setPage((p) => p + 1)}>
                Older gifts
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </Section>
  );
}
