/**
 * The entry row's save, Enter to done: the checks that need no server (a donor, an amount, a
 * donation account where the campaign needs one), the bodies checked with the shared schemas,
 * the new donor created first (once: a retry after a refused gift uses the same record), then
 * the gift. Its answer puts the gift in the table and the row back to empty in the same task,
 * the focus in the donor box, and offers Undo. A refusal is shown at the field it names, with
 * everything typed kept.
 */
import { MutationObserver, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { UseFormReturn } from 'react-hook-form';
import { formatCents, parseAmountCents } from '#shared/money.ts';
import type { Batch } from '#shared/schemas/batches.ts';
import { ContactCreateBody } from '#shared/schemas/contacts.ts';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { DonationCreateRequest } from '#shared/schemas/donations.ts';
import { failedWrite, isApiError, type FieldIssue } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { invalidateAfterGift, refreshAfterGift } from '../../api/query-keys.ts';
import { schemaIssues, useOneAtATime, useTryKey } from '../../forms.ts';
import { useToast } from '../../ui/index.ts';
import { missingAccountIssue } from './campaign-account.ts';
import { selfCreditIssue, type CreditChoice } from './CreditFields.tsx';
import { donorName } from './DonorPicker.tsx';
import { amountError, DONATION_FIELDS, donationFields, showFieldIssues, summaryOf } from './gift-fields.tsx';
import {
  CONTACT_FIELDS,
  defaultsFrom,
  newDonorBody,
  stickyOf,
  type FormField,
  type GiftForm,
} from './gift-row-model.ts';
import { showSavedGift } from './GiftRows.tsx';
import { METHOD_LABEL, type useReferenceData } from './reference.ts';

/** How long a save runs before the row shows it is saving (the Save button's busy look). */
const BUSY_AFTER_MS = 150;

/** Who the gift is from: a donor chosen, or a new donor typed in the row (its state). */
export interface DonorChoice {
  donor: ContactSummary | null;
  setDonor: (c: ContactSummary | null) => void;
  newDonorMode: boolean;
  setNewDonorMode: (on: boolean) => void;
  setDonorError: (message: string | undefined) => void;
  /** A fresh donor box (the next gift's, its credit box too). */
  resetPicker: () => void;
  /** Who the gift is credited to and raised by (the form holds their ids). */
  credits: CreditChoice;
  setCredits: (next: CreditChoice) => void;
}

export interface SubmitOptions {
  batch: Batch;
  form: UseFormReturn<GiftForm>;
  ref: ReturnType<typeof useReferenceData>;
  choice: DonorChoice;
  setTopError: (message: string | null) => void;
  donorRef: RefObject<HTMLInputElement | null>;
  /** The donor box takes the focus once it is on screen. */
  focusDonor: () => void;
}

/** The row's submit (for the form and Enter), and whether a save is under way. */
export function useGiftSubmit(o: SubmitOptions) {
  const { batch, form, ref, choice: d, setTopError, donorRef } = o;
  const api = useApi();
  const client = useQueryClient();
  const toast = useToast();
  const saveContact = useMutation({
    mutationFn: (body: Parameters<typeof api.contacts.create>[0]) => api.contacts.create(body),
  });
  // The gift's save, a mutation the query client knows of (a burst's refresh waits for it),
  // observed by no component: the row says it is saving through `saving`, set with the rest
  // of the row's state, so the answer renders the entry row once (its reset), not again for
  // the mutation's own state a timer later, while the next donor is being typed.
  const [saveGift] = useState(
    () =>
      new MutationObserver(client, {
        mutationFn: (body: Parameters<typeof api.batches.addGift>[1]) => api.batches.addGift(batch.id, body),
      }),
  );
  // The keys of the gift and of the new donor being tried (useTryKey): a try made again after
  // its answer was lost gets the record saved the first time back, never a second one. Kept
  // with the row's draft (use-gift-draft.ts), per batch, so a reload in between keeps them too.
  const giftTry = useTryKey(`giftdesk.gift-try.${batch.id}`);
  const donorTry = useTryKey(`giftdesk.donor-try.${batch.id}`);
  // Whether the row shows it is saving: only once a save has taken BUSY_AFTER_MS, so a quick
  // save paints nothing between Enter and its row (the button's look would flash and cost a
  // frame). What keeps a save from going twice is `submit` below, not the button.
  const [saving, setSaving] = useState(false);

  const showIssues = (issues: FieldIssue[], map: Record<string, FormField>) => {
    const first = showFieldIssues(issues, map, {
      field: (name, message) => form.setError(name, { message }),
      donor: d.setDonorError,
      top: setTopError,
    });
    if (first === 'donor') donorRef.current?.focus();
    else if (first) form.setFocus(first);
  };

  /** A save refused: the server's messages at their fields, or what went wrong at the top. */
  const showRefusal = (err: unknown, map: Record<string, FormField>) => {
    if (isApiError(err) && err.details.length) showIssues(err.details, map);
    else setTopError(err instanceof Error ? err.message : String(err));
  };

  /** The checks before any body: the amount in cents, or null (said at its field, focused). */
  const checkFirst = (v: GiftForm): number | null => {
    if (!d.donor && !d.newDonorMode) {
      d.setDonorError('Choose a donor, or pick “New donor” in the list');
      donorRef.current?.focus();
      return null;
    }
    const cents = parseAmountCents(v.amount);
    if (cents === null || cents <= 0) {
      form.setError('amount', { message: amountError(v.amount) });
      form.setFocus('amount');
      return null;
    }
    // The screen shows the row once the campaigns and accounts are here (GiftEntryScreen);
    // without them the campaign's account is unknown, and a gift is never saved unchecked.
    if (!ref.ready) {
      setTopError('Not saved: the campaigns and donation accounts are still loading. Press Enter again.');
      return null;
    }
    const self = selfCreditIssue(v.onBehalfOfContactId, d.donor?.id);
    if (self) {
      form.setError('onBehalfOfContactId', { message: self });
      return null;
    }
    const noAccount = missingAccountIssue(
      ref.accountsOf(v.campaignId),
      v.donationAccountId,
      ref.nameOf('campaign', v.campaignId),
    );
    if (noAccount) {
      form.setError('donationAccountId', { message: noAccount });
      form.setFocus('donationAccountId');
      return null;
    }
    return cents;
  };

  /** The new donor, created: from here on the row uses this record (null: refused, said). */
  const createDonor = async (body: ReturnType<typeof newDonorBody>): Promise<ContactSummary | null> => {
    try {
      // A retry after a failed gift never makes a second donor.
      const chosen = summaryOf(await saveContact.mutateAsync({ ...body, entryKey: donorTry.keyFor(body) }));
      donorTry.saved();
      d.setDonor(chosen);
      d.setNewDonorMode(false);
      return chosen;
    } catch (err) {
      showRefusal(err, CONTACT_FIELDS);
      return null;
    }
  };

  /** Undo, in the toast that says the gift is saved. */
  const offerUndo = (what: string, donationId: string) => {
    // Undo is the app's own correction for a gift not yet sent: voiding it (it stays on record,
    // leaves the totals, is never sent). Once HQ has it the server refuses, and says so.
    toast.show({
      tone: 'success',
      message: `Saved ${what}.`,
      undo: async () => {
        try {
          await api.donations.void(donationId, { reason: 'Undone right after entry' });
          toast.show({ message: `Undone: the gift of ${what} is voided and will not be sent to HQ.` });
        } catch (err) {
          toast.show({
            tone: 'error',
            message: failedWrite('Not undone', err),
          });
        }
        await invalidateAfterGift(client);
        // The Undo button went with its toast: the focus goes back to where gifts are typed.
        if (document.activeElement === document.body) donorRef.current?.focus();
      },
    });
  };

  /** The gift saved for `chosen`: shown, the row reset for the next one, Undo offered. */
  const saveGiftFor = async (
    v: GiftForm,
    body: Parameters<typeof api.batches.addGift>[1],
    chosen: ContactSummary,
    cents: number,
  ) => {
    const slow = setTimeout(() => setSaving(true), BUSY_AFTER_MS);
    try {
      const gift = { ...body, contactId: chosen.id };
      const saved = await saveGift.mutate({ ...gift, entryKey: giftTry.keyFor([batch.id, gift]) });
      clearTimeout(slow);
      giftTry.saved();
      // The row and the batch's figures come with the save's answer: on screen with no other
      // request, first, before the entry row is reset (the table's render does not wait for
      // the row's), and the sync badge's status. What else a gift changes (totals elsewhere,
      // stats) is only marked stale: nothing on this screen shows it.
      showSavedGift(client, saved);
      // Then the entry row, in the same task, so the next keys typed land in the donor box. Sticky:
      // date, method and designation stay for the next gift; the rest starts empty.
      flushSync(() => {
        setSaving(false);
        form.reset(defaultsFrom(batch, stickyOf(v)));
        d.setDonor(null);
        d.setNewDonorMode(false);
        d.setCredits({ creditTo: null, raisedBy: d.credits.raisedBy }); // the host stays, like the campaign
        d.resetPicker();
        o.focusDonor();
      });
      refreshAfterGift(client);
      offerUndo(
        `${formatCents(cents)} (${METHOD_LABEL[body.paymentMethod]}) from ${donorName(chosen)}${
          saved.alreadySaved ? ' (the try before had reached GiftDesk: still one gift)' : ''
        }`,
        saved.donation.id,
      );
    } catch (err) {
      clearTimeout(slow);
      setSaving(false);
      showRefusal(err, DONATION_FIELDS);
    }
  };

  const checkAndSave = form.handleSubmit(async (v) => {
    form.clearErrors();
    d.setDonorError(undefined);
    setTopError(null);
    const cents = checkFirst(v);
    if (cents === null) return;
    const gift = {
      batchId: batch.id,
      contactId: d.donor?.id ?? 'new',
      ...donationFields(v, cents),
    };
    const giftIssues = schemaIssues(DonationCreateRequest, { accountId: api.accountId, ...gift });
    const contactBody = d.donor ? null : newDonorBody(v.newDonor);
    const contactIssues = contactBody
      ? schemaIssues(ContactCreateBody, { accountId: api.accountId, ...contactBody })
      : [];
    if (giftIssues.length || contactIssues.length) {
      showIssues(contactIssues, CONTACT_FIELDS);
      showIssues(giftIssues, DONATION_FIELDS);
      return;
    }
    let chosen = d.donor;
    if (!chosen && contactBody) {
      chosen = await createDonor(contactBody);
      if (!chosen) return;
    }
    const { batchId: _inPath, ...body } = gift;
    await saveGiftFor(v, body, chosen!, cents);
  });

  // One save at a time (useOneAtATime): Enter again while the hub answers saves nothing more.
  const submit = useOneAtATime(checkAndSave);

  return { submit, busy: saveContact.isPending || saving };
}
