/**
 * The entry row's half-typed gift, kept in this tab's sessionStorage per batch: the donor
 * chosen (or the new donor being typed, the row's new-donor fields open) and everything typed
 * in the row. A reload (F5, a new link pasted, the app mounted
 * again) puts it back, so a gift typed while GiftDesk's server was restarting is not lost.
 * A saved gift leaves the row empty, and an empty row keeps no draft. sessionStorage is this
 * tab's alone and goes with it; storage turned off means no draft, nothing else.
 */
import { useEffect, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { ContactSummary } from '#shared/schemas/contact-views.ts';
import type { GiftFieldValues } from './gift-fields.tsx';
import { readTab, writeTab } from '../../tab-storage.ts';
import type { NewDonorValues } from './NewDonorFields.tsx';

const text = z.string();
/**
 * What a draft keeps: not the credit nor the host (their names are not in it, and a gift is
 * never credited to someone the row does not show); the host is kept with the sticky values.
 */
type DraftValues = Omit<GiftFieldValues, 'onBehalfOfContactId' | 'facilitatedByContactId'> & {
  newDonor: NewDonorValues;
};
const NewDonorDraft = z.object({
  firstName: text,
  lastName: text,
  salutation: text.default(''), // a draft kept before the greeting was asked
  email: text,
  phone: text,
  street1: text,
  city: text,
  state: text,
  postalCode: text,
  employer: text,
  occupation: text,
}) satisfies z.ZodType<NewDonorValues>;
const GiftDraft = z.object({
  donor: ContactSummary.nullable(),
  // The new donor's fields open (a draft kept before this was kept: closed, as then).
  newDonorMode: z.boolean().default(false),
  values: z.object({
    amount: text,
    date: text,
    method: text,
    campaignId: text,
    committeeId: text,
    donationAccountId: text,
    notes: text,
    isAnonymous: z.boolean(),
    isRecurring: z.boolean(),
    thankYouSent: z.boolean(),
    newDonor: NewDonorDraft,
  }) satisfies z.ZodType<DraftValues>,
});
type GiftDraft = z.infer<typeof GiftDraft>;

const keyOf = (batchId: string) => `giftdesk.gift-draft.${batchId}`;

/** Nothing worth keeping: no donor chosen, no amount, no new donor's name. */
const isEmpty = (d: GiftDraft) =>
  d.donor === null &&
  d.values.amount.trim() === '' &&
  d.values.notes.trim() === '' &&
  Object.values(d.values.newDonor).every((v) => v.trim() === '');

/** Who the row's gift is from, as the row holds it (DonorChoice's part a draft keeps). */
export interface DraftDonor {
  donor: ContactSummary | null;
  setDonor: (c: ContactSummary | null) => void;
  newDonorMode: boolean;
  setNewDonorMode: (on: boolean) => void;
}

/** Restores the batch's draft into the row once, then keeps it up to date on every render. */
export function useGiftDraft(
  batchId: string,
  form: UseFormReturn<GiftFieldValues & { newDonor: NewDonorValues }>,
  who: DraftDonor,
): void {
  const { donor, setDonor, newDonorMode, setNewDonorMode } = who;
  const restored = useRef(false);
  const last = useRef<string | null>(null);
  // Kept after every render once restored (declared first: the mount's own render, before the
  // draft is put back, writes nothing).
  useEffect(() => {
    if (!restored.current) return;
    const now = {
      donor,
      newDonorMode: newDonorMode && donor === null,
      values: form.getValues(),
    } satisfies GiftDraft;
    const next = isEmpty(now) ? null : JSON.stringify(now);
    if (next === last.current) return;
    last.current = next;
    // Storage disabled or full: the row works, without a draft.
    writeTab(keyOf(batchId), next === null ? null : now);
  });
  // Put back once: the row is mounted afresh for each batch (GiftEntryScreen keys it by id).
  const [mountBatch] = useState(batchId);
  useEffect(() => {
    if (restored.current) return;
    const draft = readTab(keyOf(mountBatch), GiftDraft);
    if (draft) {
      form.reset(
        { ...form.getValues(), ...draft.values, onBehalfOfContactId: '' },
        { keepDefaultValues: true },
      );
      setDonor(draft.donor);
      if (draft.newDonorMode && draft.donor === null) setNewDonorMode(true);
    }
    restored.current = true;
  }, [mountBatch, form, setDonor, setNewDonorMode]);
}
