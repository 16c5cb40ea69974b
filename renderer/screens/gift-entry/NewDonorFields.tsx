/**
 * "New donor" inside the row: name, greeting, email, phone, address, employer, occupation.
 * While the name or email is typed, existing records that match are offered first, so the same
 * person is not entered twice. The name typed in the donor box is split at its first space;
 * the fieldset says the split as it will be saved and how letters will greet the donor (the
 * greeting typed, else the first name), and Alt+W swaps first and last name (a family name
 * written first, "Nguyễn Thị Minh Khai").
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type KeyboardEvent } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, TextField } from '../../ui/index.ts';
import { donorLines, donorName } from './DonorPicker.tsx';

export interface NewDonorValues {
  firstName: string;
  lastName: string;
  /** How letters greet them ("Dear …,"); empty: by first name. */
  salutation: string;
  email: string;
  phone: string;
  street1: string;
  city: string;
  state: string;
  postalCode: string;
  employer: string;
  occupation: string;
}

export const EMPTY_NEW_DONOR: NewDonorValues = {
  firstName: '',
  lastName: '',
  salutation: '',
  email: '',
  phone: '',
  street1: '',
  city: '',
  state: '',
  postalCode: '',
  employer: '',
  occupation: '',
};

/** "Jane van der Berg" → first "Jane", last "van der Berg". */
export function splitName(typed: string): { firstName: string; lastName: string } {
  const t = typed.trim().replace(/\s+/g, ' ');
  if (t.includes('@')) return { firstName: '', lastName: '' };
  const i = t.indexOf(' ');
  return i < 0 ? { firstName: t, lastName: '' } : { firstName: t.slice(0, i), lastName: t.slice(i + 1) };
}

/** The split as it will be saved, in words ("first name Nguyễn, last name Thị Minh Khai"). */
export function splitWords(n: { firstName: string; lastName: string }): string {
  return `first name “${n.firstName.trim()}”, last name “${n.lastName.trim()}”`;
}

/** "Dear …," as the letters will open: the greeting typed (its "Dear" and comma left out), else the first name. */
export function letterGreeting(n: Pick<NewDonorValues, 'firstName' | 'lastName' | 'salutation'>): string {
  const own = n.salutation
    .replace(/^dear\s+/i, '')
    .replace(/,\s*$/, '')
    .trim();
  const name = own || n.firstName.trim() || `${n.firstName} ${n.lastName}`.trim();
  return `Dear ${name},`;
}

/** Alt+W: first and last name swapped (true when handled). */
export function isSwapKey(e: KeyboardEvent): boolean {
  return e.altKey && !e.ctrlKey && !e.metaKey && (e.key.toLowerCase() === 'w' || e.code === 'KeyW');
}

const fold = (s: string | null | undefined) =>
  (s ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

export function NewDonorFields(props: {
  register: UseFormRegister<{ newDonor: NewDonorValues }>;
  errors: FieldErrors<{ newDonor: NewDonorValues }>['newDonor'];
  values: NewDonorValues;
  onUseExisting: (c: ContactSummary) => void;
  onCancel: () => void;
  /** First and last name swapped (Alt+W, or the button). */
  onSwap: () => void;
}) {
  const api = useApi();
  const { values, errors } = props;
  const name = `${values.firstName} ${values.lastName}`.trim();
  const email = values.email.trim();
  const [probe, setProbe] = useState({ name, email });
  useEffect(() => {
    const t = setTimeout(() => setProbe({ name, email }), 250);
    return () => clearTimeout(t);
  }, [name, email]);

  const byName = useQuery({
    queryKey: qk.contactList({ dupName: probe.name }),
    queryFn: () => api.contacts.summaries({ search: probe.name, limit: 5, sortBy: 'relevance' }),
    enabled: values.firstName.trim().length > 0 && values.lastName.trim().length > 0 && probe.name.length > 2,
  });
  const byEmail = useQuery({
    queryKey: qk.contactList({ dupEmail: probe.email }),
    queryFn: () => api.contacts.summaries({ search: probe.email, limit: 5, sortBy: 'relevance' }),
    enabled: /.+@.+\..+/.test(probe.email),
  });
  const same = new Map<string, ContactSummary>();
  for (const c of byName.data?.data ?? [])
    if (fold(c.firstName) === fold(values.firstName) && fold(c.lastName) === fold(values.lastName))
      same.set(c.id, c);
  for (const c of byEmail.data?.data ?? []) if (email && fold(c.email) === fold(email)) same.set(c.id, c);
  const existing = [...same.values()];
  const lines = donorLines(existing);

  const r = props.register;
  return (
    <fieldset
      className="new-donor"
      onKeyDown={(e) => {
        if (!isSwapKey(e)) return;
        e.preventDefault();
        props.onSwap();
      }}
    >
      <legend>New donor</legend>
      {existing.length > 0 ? (
        <div className="notice notice-warn existing-offer" role="status">
          <p>
            <strong>Already on file?</strong>{' '}
            {existing.length === 1
              ? 'A donor with this name or email exists:'
              : 'Donors with this name or email exist:'}
          </p>
          <ul>
            {existing.map((c, i) => (
              <li key={c.id}>
                <span>
                  <strong>{donorName(c)}</strong> <span className="muted">{lines[i]}</span>
                </span>
                <Button tone="secondary" onClick={() => props.onUseExisting(c)}>
                  Use this donor
                </Button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="new-donor-grid">
        <TextField
          label="First name"
          autoFocus
          {...r('newDonor.firstName')}
          error={errors?.firstName?.message}
        />
        <TextField label="Last name" {...r('newDonor.lastName')} error={errors?.lastName?.message} />
        <TextField
          label="Greeting"
          hint="In letters; empty: the first name"
          placeholder={values.firstName.trim()}
          {...r('newDonor.salutation')}
          error={errors?.salutation?.message}
        />
        <div className="new-donor-split">
          <p role="status" aria-live="polite" data-testid="new-donor-split">
            Saved as {splitWords(values)}. Letters open “{letterGreeting(values)}”
          </p>
          <Button tone="quiet" onClick={props.onSwap} aria-keyshortcuts="Alt+W">
            Swap first and last <kbd>Alt+W</kbd>
          </Button>
        </div>
        <TextField label="Email" type="email" {...r('newDonor.email')} error={errors?.email?.message} />
        <TextField label="Phone" type="tel" {...r('newDonor.phone')} error={errors?.phone?.message} />
        <TextField
          label="Street"
          {...r('newDonor.street1')}
          error={errors?.street1?.message}
          fieldClassName="span-2"
        />
        <TextField label="City" {...r('newDonor.city')} error={errors?.city?.message} />
        <TextField label="State" {...r('newDonor.state')} error={errors?.state?.message} />
        <TextField label="Postal code" {...r('newDonor.postalCode')} error={errors?.postalCode?.message} />
        <TextField label="Employer" {...r('newDonor.employer')} error={errors?.employer?.message} />
        <TextField label="Occupation" {...r('newDonor.occupation')} error={errors?.occupation?.message} />
        <div className="new-donor-cancel">
          <Button tone="quiet" onClick={props.onCancel}>
            Back to donor search
          </Button>
        </div>
      </div>
    </fieldset>
  );
}
