/**
 * A contact's recorded details on the contact page: its profile, custom fields (archived
 * ones hidden) and sub-records, in the page's Section and Facts layout.
 */
import type { ReactNode } from 'react';
import type { Contact } from '#shared/schemas/contacts.ts';
import { day, enumLabel } from './format.ts';
import { liveFields, type CustomFieldDef } from './form-model.ts';

export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <section className="panel contact-section" aria-labelledby={id}>
      <h2 className="panel-title" id={id}>
        {title}
      </h2>
      {children}
    </section>
  );
}

export function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
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

export function Profile({ c }: { c: Contact }) {
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

export function CustomFields({ c, defs }: { c: Contact; defs: readonly CustomFieldDef[] }) {
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

export function SubRecords({ c }: { c: Contact }) {
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
