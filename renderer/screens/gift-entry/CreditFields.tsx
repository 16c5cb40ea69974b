/**
 * Who else a gift is about, in the entry row and the correction dialog: "Credit to" (a soft
 * credit: the contact the gift is credited to, the donor staying the legal donor, whose limits
 * are the ones checked) and "Raised by" (the host whose guest gave). Each is a donor box with
 * the same lookup and keys, searching only while typed into; Escape empties it; Alt+C and
 * Alt+R reach them from anywhere in the form, Alt+S marks the gift as a sustainer's.
 */
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { FieldErrors, Path, UseFormReturn } from 'react-hook-form';
import { SELF_CREDIT_ISSUE } from '#shared/schemas/donations.ts';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { humanIssue } from '../../forms.ts';
import { DonorPicker, donorName } from './DonorPicker.tsx';
import { summaryOf, type GiftFieldValues } from './gift-fields.tsx';

/** The two boxes' chosen contacts (the form holds their ids). */
export interface CreditChoice {
  creditTo: ContactSummary | null;
  raisedBy: ContactSummary | null;
}

export type CreditField = 'onBehalfOfContactId' | 'facilitatedByContactId';

/** What the row says under "This gift:" (the sticky line): the credit and sustainer, when set. */
export function thisGiftWords(creditTo: ContactSummary | null, sustainer: boolean): string[] {
  return [creditTo ? `credit to ${donorName(creditTo)}` : null, sustainer ? 'sustainer' : null].filter(
    (x): x is string => x !== null,
  );
}

/** The credit's refusal when it names the donor themself (else null). */
export function selfCreditIssue(creditToId: string, donorId: string | undefined): string | null {
  return creditToId !== '' && creditToId === donorId ? humanIssue(SELF_CREDIT_ISSUE) : null;
}

/** The two boxes' inputs, and how to put them on screen first (the row shows them once used). */
export interface CreditRefs {
  creditRef: RefObject<HTMLInputElement | null>;
  hostRef: RefObject<HTMLInputElement | null>;
  /** Puts the boxes on screen now (flushSync), so the focus can go into one in the same key. */
  reveal?: () => void;
}

/** Alt+C, Alt+R: to the credit and host boxes; Alt+S: sustainer on or off. True when handled. */
export function creditKeys<T extends GiftFieldValues>(
  e: KeyboardEvent<HTMLElement>,
  refs: CreditRefs,
  form: UseFormReturn<T>,
): boolean {
  if (!e.altKey || e.ctrlKey || e.metaKey) return false;
  const key = e.key.toLowerCase();
  const code = e.code;
  const to = (box: RefObject<HTMLInputElement | null>) => {
    refs.reveal?.();
    box.current?.focus();
  };
  if (key === 'c' || code === 'KeyC') to(refs.creditRef);
  else if (key === 'r' || code === 'KeyR') to(refs.hostRef);
  else if (key === 's' || code === 'KeyS') {
    const name = 'isRecurring' as Path<T>;
    form.setValue(name, !form.getValues(name) as never, { shouldDirty: true });
  } else return false;
  e.preventDefault();
  return true;
}

/** A form's keydown with the credit keys first (creditKeys), then `rest` (Enter saves). */
export function withCreditKeys<T extends GiftFieldValues>(
  rest: (e: KeyboardEvent<HTMLFormElement>) => void,
  refs: CreditRefs,
  form: UseFormReturn<T>,
) {
  return (e: KeyboardEvent<HTMLFormElement>) => {
    if (!creditKeys(e, refs, form)) rest(e);
  };
}

export function CreditFields<T extends GiftFieldValues>({
  form,
  errors,
  choice,
  onChange,
  donorId,
  refs,
  creditKey,
}: {
  form: UseFormReturn<T>;
  errors: FieldErrors<GiftFieldValues>;
  choice: CreditChoice;
  onChange: (next: CreditChoice) => void;
  /** The gift's donor (a credit must name someone else). */
  donorId: string | undefined;
  /** The two boxes' inputs (for Alt+C and Alt+R). */
  refs: CreditRefs;
  /** A new key empties the credit box (the next gift's). */
  creditKey?: string | number;
}) {
  const set = (field: CreditField, c: ContactSummary | null) => {
    form.setValue(field as Path<T>, (c?.id ?? '') as never, { shouldDirty: true });
    form.clearErrors(field as Path<T>);
    if (field === 'onBehalfOfContactId') {
      onChange({ ...choice, creditTo: c });
      const self = c ? selfCreditIssue(c.id, donorId) : null;
      if (self) form.setError(field as Path<T>, { message: self });
    } else onChange({ ...choice, raisedBy: c });
  };
  return (
    <div className="gift-credits" role="group" aria-label="Credit and host">
      <DonorPicker
        key={`credit-${creditKey ?? 0}`}
        label="Credit to"
        hint="(Alt+C, Esc clears)"
        autoFocus={false}
        escapeClears
        inputRef={refs.creditRef}
        selected={choice.creditTo}
        error={errors.onBehalfOfContactId?.message}
        onSelect={(c) => set('onBehalfOfContactId', c)}
        onClear={() => set('onBehalfOfContactId', null)}
      />
      <DonorPicker
        label="Raised by"
        hint="(Alt+R, Esc clears)"
        autoFocus={false}
        escapeClears
        inputRef={refs.hostRef}
        selected={choice.raisedBy}
        error={errors.facilitatedByContactId?.message}
        onSelect={(c) => set('facilitatedByContactId', c)}
        onClear={() => set('facilitatedByContactId', null)}
      />
    </div>
  );
}

/**
 * The correction dialog's credit and host: the gift's own (their names read once each, and
 * only when the gift has one: a gift without them costs no request), then what is chosen.
 */
export function useGiftCredits(gift: {
  onBehalfOfContactId: string | null;
  facilitatedByContactId: string | null;
}) {
  const api = useApi();
  const summaryOfId = (id: string | null) => ({
    queryKey: [...qk.contacts, 'summary', id ?? ''],
    queryFn: async () => summaryOf(await api.contacts.get(id ?? '')),
    enabled: id !== null,
    retry: false,
  });
  const credit = useQuery(summaryOfId(gift.onBehalfOfContactId));
  const host = useQuery(summaryOfId(gift.facilitatedByContactId));
  const [picked, setPicked] = useState<Partial<CreditChoice>>({});
  const creditRef = useRef<HTMLInputElement>(null);
  const hostRef = useRef<HTMLInputElement>(null);
  const choice: CreditChoice = {
    creditTo: picked.creditTo !== undefined ? picked.creditTo : (credit.data ?? null),
    raisedBy: picked.raisedBy !== undefined ? picked.raisedBy : (host.data ?? null),
  };
  const loaded = `${credit.isSuccess ? 1 : 0}${host.isSuccess ? 1 : 0}`;
  return { choice, setChoice: (next: CreditChoice) => setPicked(next), loaded, refs: { creditRef, hostRef } };
}
