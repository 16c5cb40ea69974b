/**
 * The entry row of gift entry: donor (type-ahead, or new inline), amount, Enter; the batch's
 * defaults for the rest, kept until changed (StickyValues). Memoised on those defaults, so a
 * save's new batch count does not render it again. A refused save shows the server's message
 * at the field it names and keeps everything typed.
 */
import { MutationObserver, useMutation, useQueryClient } from '@tanstack/react-query';
import { memo, useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useForm, useWatch } from 'react-hook-form';
import { formatCents } from '#shared/money.ts';
import { ContactCreateBody } from '#shared/schemas/contacts.ts';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { DonationCreateRequest } from '#shared/schemas/donations.ts';
import type { Batch } from '#shared/schemas/batches.ts';
import { isApiError, type FieldIssue } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { invalidateAfterGift, refreshAfterGift } from '../../api/query-keys.ts';
import { localToday, orNull, schemaIssues } from '../../forms.ts';
import { Button, Select, TextField, useToast } from '../../ui/index.ts';
import { DonorPicker, donorName } from './DonorPicker.tsx';
import {
  amountError,
  DesignationFields,
  DONATION_FIELDS,
  donationFields,
  enterSubmits,
  GiftFlags,
  GiftWarnings,
  showFieldIssues,
  summaryOf,
  useGiftCheck,
  type GiftField,
  type GiftFieldValues,
} from './gift-fields.tsx';
import { showSavedGift } from './GiftRows.tsx';
import {
  chooseAccountHint,
  defaultAccountOf,
  missingAccountIssue,
  useCampaignAccount,
} from './campaign-account.ts';
import { EMPTY_NEW_DONOR, NewDonorFields, splitName, type NewDonorValues } from './NewDonorFields.tsx';
import { METHOD_LABEL, METHOD_OPTIONS, useReferenceData } from './reference.ts';
import { keptSticky, useKeepSticky } from './sticky-store.ts';
import { StickyValues, type StickyField } from './StickyValues.tsx';
import { useGiftDraft } from './use-gift-draft.ts';
import { giftWarnings, parseAmountCents } from './warnings.ts';

/** The row: the gift's fields (shared with the correction dialog) and the inline new donor. */
interface GiftForm extends GiftFieldValues {
  newDonor: NewDonorValues;
}
type FormField = GiftField | `newDonor.${keyof NewDonorValues}`;

const CONTACT_FIELDS: Record<string, FormField> = {
  firstName: 'newDonor.firstName',
  lastName: 'newDonor.lastName',
  primaryEmail: 'newDonor.email',
  primaryPhone: 'newDonor.phone',
  'addresses[0].street1': 'newDonor.street1',
  'addresses[0].city': 'newDonor.city',
  'addresses[0].state': 'newDonor.state',
  'addresses[0].postalCode': 'newDonor.postalCode',
  employer: 'newDonor.employer',
  occupation: 'newDonor.occupation',
};

function defaultsFrom(batch: Batch | null, sticky: Partial<GiftForm> = {}): GiftForm {
  return {
    amount: '',
    date: sticky.date ?? batch?.batchDate ?? localToday(),
    method: sticky.method ?? batch?.paymentMethod ?? 'check',
    campaignId: sticky.campaignId ?? batch?.campaignId ?? '',
    committeeId: sticky.committeeId ?? batch?.committeeId ?? '',
    donationAccountId: sticky.donationAccountId ?? batch?.donationAccountId ?? '',
    notes: '',
    isAnonymous: false,
    isRecurring: false,
    thankYouSent: false,
    newDonor: EMPTY_NEW_DONOR,
  };
}

/** The batch's own values that the entry row starts each gift with, and its id. */
const sameDefaults = (a: Batch, b: Batch) =>
  a.id === b.id &&
  a.batchDate === b.batchDate &&
  a.paymentMethod === b.paymentMethod &&
  a.campaignId === b.campaignId &&
  a.committeeId === b.committeeId &&
  a.donationAccountId === b.donationAccountId;

/**
 * The entry row. Memoised on the batch's defaults: a save changes the batch's count and total
 * (the screen renders again for them), which the row does not show.
 */
export const GiftRow = memo(
  function GiftRow({ batch }: { batch: Batch }) {
    const api = useApi();
    const client = useQueryClient();
    const toast = useToast();
    const ref = useReferenceData();
    // The values kept until changed start as this batch's were left (a screen switch, a reload).
    const [kept] = useState(() => keptSticky(api.accountId, batch.id));
    const form = useForm<GiftForm>({ defaultValues: defaultsFrom(batch, kept) });
    const { register, formState, setError, clearErrors } = form;
    const errors = formState.errors;
    const [donor, setDonor] = useState<ContactSummary | null>(null);
    useGiftDraft(batch.id, form, donor, setDonor); // the half-typed gift survives a reload
    const [newDonorMode, setNewDonorMode] = useState(false);
    const [donorError, setDonorError] = useState<string | undefined>();
    const [topError, setTopError] = useState<string | null>(null);
    const [pickerKey, setPickerKey] = useState(0);
    const donorRef = useRef<HTMLInputElement>(null);
    const amountRef = useRef<HTMLInputElement | null>(null);
    const amountReg = register('amount');

    const watched = useWatch({ control: form.control });
    const stickyId = useId();
    const batchValues = defaultsFrom(batch);
    // The batch's campaign's only donation account is the batch's own too (campaign-account.ts).
    batchValues.donationAccountId ||= defaultAccountOf(ref.accountsOf(batch.campaignId));
    const offered = ref.accountsOf(watched.campaignId);
    useCampaignAccount(offered, {
      get: () => form.getValues('donationAccountId'),
      set: (id) => form.setValue('donationAccountId', id),
    });
    const stickyOf = (v: Partial<Record<StickyField, string>>): Record<StickyField, string> => ({
      date: v.date ?? '',
      method: v.method ?? '',
      campaignId: v.campaignId ?? '',
      committeeId: v.committeeId ?? '',
      donationAccountId: v.donationAccountId ?? '',
    });
    useKeepSticky(api.accountId, batch.id, stickyOf(watched), stickyOf(batchValues));
    const revertSticky = (f: StickyField) => {
      form.setValue(f, batchValues[f], { shouldDirty: true });
      form.setFocus(f);
    };
    const amountCents = parseAmountCents(watched.amount ?? '');
    const check = useGiftCheck(donor?.id, watched.date ?? '', watched.donationAccountId ?? '');
    const warnings = giftWarnings({
      amountCents,
      method: watched.method ?? '',
      isAnonymous: watched.isAnonymous ?? false,
      check: donor ? (check.data ?? null) : null,
      employer: donor ? (check.data?.employer ?? null) : (watched.newDonor?.employer ?? null),
      occupation: donor ? (check.data?.occupation ?? null) : (watched.newDonor?.occupation ?? null),
      donationAccountName: ref.nameOf('donationAccount', watched.donationAccountId),
    });

    // Focus goes to the donor box after React has put it on screen (it is remounted after each save).
    const [donorFocus, setDonorFocus] = useState(1); // 1: a batch chosen or started, straight to the first gift
    const focusDonor = () => setDonorFocus((n) => n + 1);
    useEffect(() => {
      if (donorFocus > 0) donorRef.current?.focus();
    }, [donorFocus]);
    // At once, in the same keystroke's handler: the amount field is always on screen, and a fast
    // typist's next keys ("Enter 50 Enter") must land in it, not in the donor box a frame later.
    const focusAmount = () => amountRef.current?.focus();

    const showIssues = (issues: FieldIssue[], map: Record<string, FormField>) => {
      const first = showFieldIssues(issues, map, {
        field: (name, message) => setError(name, { message }),
        donor: setDonorError,
        top: setTopError,
      });
      if (first === 'donor') donorRef.current?.focus();
      else if (first) form.setFocus(first);
    };

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
          mutationFn: (body: Parameters<typeof api.batches.addGift>[1]) =>
            api.batches.addGift(batch.id, body),
        }),
    );
    const [saving, setSaving] = useState(false);

    const submit = form.handleSubmit(async (v) => {
      clearErrors();
      setDonorError(undefined);
      setTopError(null);
      if (!donor && !newDonorMode) {
        setDonorError('Choose a donor, or pick “New donor” in the list');
        donorRef.current?.focus();
        return;
      }
      const cents = parseAmountCents(v.amount);
      if (cents === null || cents <= 0) {
        setError('amount', { message: amountError(v.amount) });
        form.setFocus('amount');
        return;
      }
      // The screen shows the row once the campaigns and accounts are here (GiftEntryScreen);
      // without them the campaign's account is unknown, and a gift is never saved unchecked.
      if (!ref.ready) {
        setTopError('Not saved: the campaigns and donation accounts are still loading. Press Enter again.');
        return;
      }
      const noAccount = missingAccountIssue(
        ref.accountsOf(v.campaignId),
        v.donationAccountId,
        ref.nameOf('campaign', v.campaignId),
      );
      if (noAccount) {
        setError('donationAccountId', { message: noAccount });
        form.setFocus('donationAccountId');
        return;
      }
      const gift = {
        batchId: batch.id,
        contactId: donor?.id ?? 'new',
        ...donationFields(v, cents),
      };
      const giftIssues = schemaIssues(DonationCreateRequest, { accountId: api.accountId, ...gift });
      let contactBody: Parameters<typeof api.contacts.create>[0] | null = null;
      let contactIssues: FieldIssue[] = [];
      if (!donor) {
        const n = v.newDonor;
        const hasAddress = [n.street1, n.city, n.state, n.postalCode].some((x) => x.trim());
        contactBody = {
          firstName: n.firstName,
          lastName: n.lastName,
          primaryEmail: orNull(n.email),
          primaryPhone: orNull(n.phone),
          employer: orNull(n.employer),
          occupation: orNull(n.occupation),
          ...(hasAddress
            ? {
                addresses: [
                  {
                    street1: orNull(n.street1),
                    city: orNull(n.city),
                    state: orNull(n.state),
                    postalCode: orNull(n.postalCode),
                    isPrimary: true,
                  },
                ],
              }
            : {}),
        };
        contactIssues = schemaIssues(ContactCreateBody, { accountId: api.accountId, ...contactBody });
      }
      if (giftIssues.length || contactIssues.length) {
        showIssues(contactIssues, CONTACT_FIELDS);
        showIssues(giftIssues, DONATION_FIELDS);
        return;
      }
      let chosen = donor;
      try {
        if (!chosen && contactBody) {
          const c = await saveContact.mutateAsync(contactBody);
          // From here on the row uses this record: a retry after a failed gift never makes a second donor.
          chosen = summaryOf(c);
          setDonor(chosen);
          setNewDonorMode(false);
        }
      } catch (err) {
        if (isApiError(err) && err.details.length) showIssues(err.details, CONTACT_FIELDS);
        else setTopError(err instanceof Error ? err.message : String(err));
        return;
      }
      try {
        const { batchId: _inPath, ...body } = gift;
        setSaving(true);
        const saved = await saveGift.mutate({ ...body, contactId: chosen!.id });
        // The row and the batch's figures come with the save's answer: on screen with no other
        // request, first, before the entry row is reset (the table's render does not wait for
        // the row's), and the sync badge's status. What else a gift changes (totals elsewhere,
        // stats) is only marked stale: nothing on this screen shows it.
        showSavedGift(client, saved);
        // Then the entry row, in the same task, so the next keys typed land in the donor box. Sticky:
        // date, method and designation stay for the next gift; the rest starts empty.
        flushSync(() => {
          setSaving(false);
          form.reset(
            defaultsFrom(batch, {
              date: v.date,
              method: v.method,
              campaignId: v.campaignId,
              committeeId: v.committeeId,
              donationAccountId: v.donationAccountId,
            }),
          );
          setDonor(null);
          setNewDonorMode(false);
          setPickerKey((k) => k + 1);
          focusDonor();
        });
        refreshAfterGift(client);
        const what = `${formatCents(cents)} (${METHOD_LABEL[body.paymentMethod]}) from ${donorName(chosen!)}`;
        // Undo is the app's own correction for a gift not yet sent: voiding it (it stays on record,
        // leaves the totals, is never sent). Once HQ has it the server refuses, and says so.
        toast.show({
          tone: 'success',
          message: `Saved ${what}.`,
          undo: async () => {
            try {
              await api.donations.void(saved.donation.id, { reason: 'Undone right after entry' });
              toast.show({ message: `Undone: the gift of ${what} is voided and will not be sent to HQ.` });
            } catch (err) {
              toast.show({
                tone: 'error',
                message: `Not undone: ${err instanceof Error ? err.message : String(err)}`,
              });
            }
            await invalidateAfterGift(client);
            // The Undo button went with its toast: the focus goes back to where gifts are typed.
            if (document.activeElement === document.body) donorRef.current?.focus();
          },
        });
      } catch (err) {
        setSaving(false);
        if (isApiError(err) && err.details.length) showIssues(err.details, DONATION_FIELDS);
        else setTopError(err instanceof Error ? err.message : String(err));
      }
    });

    // Enter saves from any field of the row.
    const onKeyDown = enterSubmits(submit);

    const busy = saveContact.isPending || saving;
    return (
      <form
        className="panel gift-row"
        aria-label="New gift"
        onSubmit={submit}
        onKeyDown={onKeyDown}
        noValidate
      >
        {topError ? (
          <div className="notice notice-error" role="alert">
            {topError}
          </div>
        ) : null}
        <div className="gift-row-main">
          {newDonorMode ? (
            <NewDonorFields
              register={register as unknown as Parameters<typeof NewDonorFields>[0]['register']}
              errors={errors.newDonor}
              values={{ ...EMPTY_NEW_DONOR, ...watched.newDonor }}
              onUseExisting={(c) => {
                setDonor(c);
                setNewDonorMode(false);
                focusAmount();
              }}
              onCancel={() => {
                setNewDonorMode(false);
                focusDonor();
              }}
            />
          ) : (
            <DonorPicker
              key={pickerKey}
              inputRef={donorRef}
              selected={donor}
              error={donorError}
              onSelect={(c) => {
                setDonor(c);
                setDonorError(undefined);
                focusAmount();
              }}
              onClear={() => setDonor(null)}
              onNewDonor={(typed) => {
                const { firstName, lastName } = splitName(typed);
                form.setValue('newDonor', {
                  ...EMPTY_NEW_DONOR,
                  firstName,
                  lastName,
                  email: typed.includes('@') ? typed : '',
                });
                setNewDonorMode(true);
                setDonorError(undefined);
              }}
            />
          )}
          <TextField
            label="Amount ($)"
            inputMode="decimal"
            autoComplete="off"
            {...amountReg}
            ref={(el) => {
              amountReg.ref(el);
              amountRef.current = el;
            }}
            error={errors.amount?.message}
            fieldClassName="amount-field"
            aria-describedby={stickyId}
          />
          {/* Tab from the amount: the method (a date's month and day parts would take the keys first). */}
          <Select
            label="Method"
            options={METHOD_OPTIONS}
            typeToChoose
            {...register('method')}
            error={errors.method?.message}
          />
          <TextField label="Date" type="date" {...register('date')} error={errors.date?.message} />
          <Button tone="primary" type="submit" busy={busy} className="save-button">
            Save gift <kbd>Enter</kbd>
          </Button>
        </div>
        <StickyValues
          id={stickyId}
          values={stickyOf(watched)}
          batch={stickyOf(batchValues)}
          nameOf={(f, id) =>
            ref.nameOf(
              f === 'campaignId' ? 'campaign' : f === 'committeeId' ? 'committee' : 'donationAccount',
              id,
            )
          }
          onRevert={revertSticky}
        />
        <div className="gift-row-more">
          <DesignationFields
            register={register}
            errors={errors}
            options={ref}
            notesClassName="notes-field"
            accountHint={chooseAccountHint(offered, watched.donationAccountId ?? '')}
          />
          <GiftFlags register={register} />
        </div>
        <GiftWarnings warnings={warnings} />
      </form>
    );
  },
  (a, b) => sameDefaults(a.batch, b.batch),
);
