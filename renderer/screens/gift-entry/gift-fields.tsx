/**
 * A gift's own fields as the entry row (GiftEntryScreen) and the correction dialog
 * (CorrectGiftDialog) both hold them: the form values, the map from the API's fields to the
 * form's (where a refusal is shown), the body the API takes, the donor's gift check behind
 * the warnings, and the parts of the form both show alike.
 */
import { useQuery } from '@tanstack/react-query';
import type { KeyboardEvent } from 'react';
import type { FieldErrors, Path, UseFormRegister } from 'react-hook-form';
import type { PaymentMethod } from '#shared/enums.ts';
import { parseAmountCents } from '#shared/money.ts';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { AMOUNT_TEXT_ISSUE, positiveDollars } from '#shared/schemas/common.ts';
import type { Contact } from '#shared/schemas/contacts.ts';
import { DESIGNATION_FORM_ISSUE, DESIGNATION_ISSUE } from '#shared/schemas/donations.ts';
import type { FieldIssue } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { humanIssue, orNull, showIssues } from '../../forms.ts';
import { Checkbox, Select, TextField, type SelectOption } from '../../ui/index.ts';
import type { Warning } from './warnings.ts';

/** The gift's fields in the form (text as typed; the designation's ids, '' for none). */
export interface GiftFieldValues {
  amount: string;
  date: string;
  method: string;
  campaignId: string;
  committeeId: string;
  donationAccountId: string;
  notes: string;
  isAnonymous: boolean;
  isRecurring: boolean;
  thankYouSent: boolean;
  /** Soft credit: the contact the gift is credited to (the donor stays the legal donor); '' for none. */
  onBehalfOfContactId: string;
  /** The host (bundler) who raised the gift; '' for none. */
  facilitatedByContactId: string;
}

/** Where a gift field's error shows: a form field, or the donor box. */
export type GiftField = keyof GiftFieldValues | 'donor';

/** The API's donation fields → the form's (a refusal is shown at the field it names). */
export const DONATION_FIELDS: Record<string, GiftField> = {
  donationAmount: 'amount',
  donationDate: 'date',
  paymentMethod: 'method',
  campaignId: 'campaignId',
  committeeId: 'committeeId',
  donationAccountId: 'donationAccountId',
  notes: 'notes',
  contactId: 'donor',
  isAnonymous: 'isAnonymous',
  isRecurring: 'isRecurring',
  thankYouSent: 'thankYouSent',
  onBehalfOfContactId: 'onBehalfOfContactId',
  facilitatedByContactId: 'facilitatedByContactId',
};

/**
 * What the amount field says when what was typed is not a positive amount: nothing typed,
 * not an amount at all, or an amount the API refuses (0, over the most it takes) in the
 * shared schema's words.
 */
export function amountError(typed: string): string {
  if (!typed.trim()) return 'is required';
  const cents = parseAmountCents(typed);
  if (cents === null) return AMOUNT_TEXT_ISSUE;
  const checked = positiveDollars.safeParse(cents / 100);
  return checked.success ? AMOUNT_TEXT_ISSUE : (checked.error.issues[0]?.message ?? AMOUNT_TEXT_ISSUE);
}

/** The gift's fields as the API takes them (create and correction alike), the amount in cents. */
export function donationFields(v: GiftFieldValues, cents: number) {
  return {
    donationAmount: cents / 100,
    donationDate: v.date,
    paymentMethod: v.method as PaymentMethod,
    campaignId: orNull(v.campaignId),
    committeeId: orNull(v.committeeId),
    donationAccountId: orNull(v.donationAccountId),
    notes: orNull(v.notes),
    isAnonymous: v.isAnonymous,
    isRecurring: v.isRecurring,
    thankYouSent: v.thankYouSent,
    onBehalfOfContactId: orNull(v.onBehalfOfContactId),
    facilitatedByContactId: orNull(v.facilitatedByContactId),
  };
}

/** A contact as the donor box shows a chosen donor. */
export function summaryOf(c: Contact): ContactSummary {
  return {
    id: c.id,
    contactType: c.contactType,
    status: c.status,
    firstName: c.firstName,
    lastName: c.lastName,
    organization: c.organization,
    email: c.email,
    phone: c.phone,
    city: c.address?.city ?? null,
    tags: c.tags,
    totalDonations: c.totalDonations,
    lastDonationDate: c.lastDonationDate,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/**
 * Puts each issue at the field `map` names (the donor's at the donor box) and the others in
 * one message at the top; returns the first field named, for the focus.
 */
export function showFieldIssues<F extends string>(
  issues: FieldIssue[],
  map: Record<string, F | 'donor'>,
  show: {
    field: (name: F, message: string) => void;
    donor: (message: string) => void;
    top: (message: string) => void;
  },
): F | 'donor' | null {
  const { first, rest } = showIssues(
    issues,
    (name, { message }) => (name === 'donor' ? show.donor(message) : show.field(name as F, message)),
    map,
    { words: humanIssue, focus: false },
  );
  if (rest.length) show.top(rest.map((r) => `${r.field}: ${r.issue}`).join('; '));
  return first;
}

/** The donor's gift check for a gift on `date` to `donationAccountId` (behind the warnings). */
export function useGiftCheck(donorId: string | undefined, date: string, donationAccountId: string) {
  const api = useApi();
  const query = { contactId: donorId ?? '', donationDate: date, donationAccountId };
  return useQuery({
    queryKey: qk.giftCheck(query),
    queryFn: ({ signal }) =>
      api.contacts.giftCheck(
        query.contactId,
        {
          donationDate: query.donationDate || undefined,
          donationAccountId: query.donationAccountId || undefined,
        },
        signal,
      ),
    enabled: donorId !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(query.donationDate),
    retry: false,
  });
}

/**
 * The form's keydown handler: Enter saves from any field (not from a button, a text area, or
 * a donor box while its list is open: it handles its own Enter while choosing).
 */
export function enterSubmits(submit: () => Promise<void>) {
  return (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    const t = e.target as HTMLElement;
    const choosing = t.getAttribute('role') === 'combobox' && t.getAttribute('aria-expanded') !== 'false';
    if (t.tagName === 'BUTTON' || t.tagName === 'TEXTAREA' || choosing) return;
    e.preventDefault();
    void submit();
  };
}

/** The row's non-blocking warnings, read out politely as they change. */
export function GiftWarnings({ warnings }: { warnings: Warning[] }) {
  return (
    <div className="gift-warnings" role="status" aria-live="polite">
      {warnings.map((w) => (
        <p key={w.id + w.text} className="notice notice-warn" data-warning={w.id}>
          {w.text}
        </p>
      ))}
    </div>
  );
}

/** A gift field's name in a form holding the gift's fields (the entry row's has the new donor's too). */
const gift = <T extends GiftFieldValues>(name: keyof GiftFieldValues) => name as Path<T>;

/** The designation (campaign, committee, donation account) and the notes. */
export function DesignationFields<T extends GiftFieldValues>({
  register,
  errors,
  options,
  notesClassName,
  accountHint,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<GiftFieldValues>;
  options: { campaigns: SelectOption[]; committees: SelectOption[]; donationAccounts: SelectOption[] };
  notesClassName?: string;
  /** Said at the donation account while the row waits for a choice (a campaign offering several). */
  accountHint?: string;
}) {
  // "Credit it to one of the three" is one refusal, though the API names each field: said once, at the first.
  const designation = [
    errors.campaignId?.message,
    errors.committeeId?.message,
    errors.donationAccountId?.message,
  ];
  const issue = humanIssue(DESIGNATION_ISSUE); // as showFieldIssues put it at each field
  const once = designation.includes(issue);
  const shown = (m: string | undefined) => (once && m === issue ? undefined : m);
  return (
    <>
      <Select
        label="Campaign"
        options={options.campaigns}
        placeholder="— none —"
        typeToChoose
        {...register(gift<T>('campaignId'))}
        error={once ? DESIGNATION_FORM_ISSUE : errors.campaignId?.message}
      />
      <Select
        label="Committee"
        options={options.committees}
        placeholder="— none —"
        typeToChoose
        {...register(gift<T>('committeeId'))}
        error={shown(errors.committeeId?.message)}
      />
      <Select
        label="Donation account"
        options={options.donationAccounts}
        placeholder={accountHint ? '— choose —' : '— none —'}
        typeToChoose
        {...register(gift<T>('donationAccountId'))}
        error={shown(errors.donationAccountId?.message)}
        hint={accountHint}
      />
      <TextField
        label="Notes"
        autoComplete="off"
        {...register(gift<T>('notes'))}
        error={errors.notes?.message}
        fieldClassName={notesClassName}
      />
    </>
  );
}

/** Anonymous, sustainer (one charge of a recurring gift; Alt+S), thank-you sent. */
export function GiftFlags<T extends GiftFieldValues>({ register }: { register: UseFormRegister<T> }) {
  return (
    <div className="gift-flags" role="group" aria-label="Gift details">
      <Checkbox label="Anonymous" {...register(gift<T>('isAnonymous'))} />
      <Checkbox label="Sustainer (recurring)" {...register(gift<T>('isRecurring'))} />
      <Checkbox label="Thank-you sent" {...register(gift<T>('thankYouSent'))} />
    </div>
  );
}
