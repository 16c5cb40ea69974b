/**
 * The entry row of gift entry: donor (type-ahead, or new inline), amount, Enter; the batch's
 * defaults for the rest, kept until changed (StickyValues). Memoised on those defaults, so a
 * save's new batch count does not render it again. A refused save shows the server's message
 * at the field it names and keeps everything typed. The save is use-gift-submit.ts; the
 * form's values and defaults are gift-row-model.ts.
 */
import { memo, useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useForm, useWatch, type DeepPartialSkipArrayKey, type UseFormReturn } from 'react-hook-form';
import { parseAmountCents } from '#shared/money.ts';
import type { Batch } from '#shared/schemas/batches.ts';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { useApi } from '../../api/provider.tsx';
import { Button, Select, TextField } from '../../ui/index.ts';
import { chooseAccountHint, defaultAccountOf, useCampaignAccount } from './campaign-account.ts';
import { CreditFields, thisGiftWords, withCreditKeys, type CreditChoice } from './CreditFields.tsx';
import { DonorPicker, donorName } from './DonorPicker.tsx';
import { DesignationFields, enterSubmits, GiftFlags, GiftWarnings, useGiftCheck } from './gift-fields.tsx';
import { defaultsFrom, sameDefaults, stickyOf, type GiftForm } from './gift-row-model.ts';
import {
  EMPTY_NEW_DONOR,
  NewDonorFields,
  splitName,
  splitWords,
  type NewDonorValues,
} from './NewDonorFields.tsx';
import { METHOD_OPTIONS, useReferenceData } from './reference.ts';
import { keptForBatch, startingHost, useBatchHost } from './batch-host.ts';
import { useKeepSticky } from './sticky-store.ts';
import { StickyValues, type StickyField } from './StickyValues.tsx';
import { useGiftDraft } from './use-gift-draft.ts';
import { useSave, type PickState } from './save-after-pick.ts';
import type { DonorChoice } from './use-gift-submit.ts';
import { giftWarnings } from './warnings.ts';

/** The row's values as they are typed (useWatch). */
type Watched = DeepPartialSkipArrayKey<GiftForm>;
type ReferenceData = ReturnType<typeof useReferenceData>;

/**
 * The entry row. Memoised on the batch's defaults: a save changes the batch's count and total
 * (the screen renders again for them), which the row does not show.
 */
export const GiftRow = memo(
  function GiftRow({ batch }: { batch: Batch }) {
    const api = useApi();
    const ref = useReferenceData();
    // The values kept until changed start as this batch's were left (a screen switch, a reload).
    const [kept] = useState(() => keptForBatch(api.accountId, batch));
    const form = useForm<GiftForm>({ defaultValues: defaultsFrom(batch, kept) });
    const { register, formState } = form;
    const errors = formState.errors;
    const choice = useDonorChoice(api.accountId, batch, form);
    useGiftDraft(batch.id, form, choice); // the half-typed gift survives a reload
    const [topError, setTopError] = useState<string | null>(null);
    const amountReg = register('amount');

    const watched = useWatch({ control: form.control });
    const stickyId = useId();
    const focus = useRowFocus();
    const { donorRef, amountRef, focusDonor, focusAmount } = focus;
    const sticky = useStickyDefaults(api.accountId, batch, form, watched, ref, (f) => {
      if (f !== 'facilitatedByContactId') return;
      choice.setCredits({ ...choice.credits, raisedBy: null });
      focus.hostRef.current?.focus();
    });
    const warnings = useRowWarnings(choice.donor, watched, ref);
    const { submit, busy, pick } = useSave({ batch, form, ref, choice, setTopError, donorRef, focusDonor });

    // The credit and host boxes are on screen once used (Alt+C, Alt+R, the sticky line's button)
    // or set: a row that never credits anyone keeps its height.
    const [creditsShown, setCreditsShown] = useState(choice.credits.raisedBy !== null);
    const showCredits = creditsShown || choice.credits.raisedBy !== null || choice.credits.creditTo !== null;
    const reveal = () => flushSync(() => setCreditsShown(true));
    // Enter saves from any field of the row; Alt+C, Alt+R and Alt+S reach the credit, host, sustainer.
    const onKeyDown = withCreditKeys(enterSubmits(submit), { ...focus, reveal }, form);

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
          <DonorField
            choice={choice}
            form={form}
            errors={errors.newDonor}
            newDonor={{ ...EMPTY_NEW_DONOR, ...watched.newDonor }}
            donorRef={donorRef}
            focusDonor={focusDonor}
            focusAmount={focusAmount}
            pick={pick}
          />
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
          values={sticky.values}
          batch={sticky.batch}
          nameOf={(f, id) =>
            f === 'facilitatedByContactId'
              ? choice.credits.raisedBy?.id === id
                ? donorName(choice.credits.raisedBy)
                : null
              : ref.nameOf(
                  f === 'campaignId' ? 'campaign' : f === 'committeeId' ? 'committee' : 'donationAccount',
                  id,
                )
          }
          onRevert={sticky.revert}
          thisGift={thisGiftWords(choice.credits.creditTo, watched.isRecurring ?? false)}
          more={
            showCredits ? null : (
              <Button
                tone="quiet"
                className="sticky-revert"
                onClick={() => {
                  reveal();
                  focus.creditRef.current?.focus();
                }}
              >
                Credit to, raised by… <kbd>Alt+C</kbd> <kbd>Alt+R</kbd>
              </Button>
            )
          }
        />
        <div className="gift-row-more">
          <DesignationFields
            register={register}
            errors={errors}
            options={ref}
            notesClassName="notes-field"
            accountHint={chooseAccountHint(sticky.offered, watched.donationAccountId ?? '')}
          />
          <GiftFlags register={register} />
          {showCredits ? (
            <CreditFields
              form={form}
              errors={errors}
              choice={choice.credits}
              onChange={choice.setCredits}
              donorId={choice.donor?.id}
              refs={focus}
              creditKey={choice.pickerKey}
            />
          ) : null}
        </div>
        <GiftWarnings warnings={warnings} />
      </form>
    );
  },
  (a, b) => sameDefaults(a.batch, b.batch),
);

/**
 * Who the gift is from: the donor chosen, or a new donor being typed; what the donor box says;
 * its key; and who it is credited to and raised by (the host kept for the batch).
 */
function useDonorChoice(
  accountId: string,
  batch: Batch,
  form: UseFormReturn<GiftForm>,
): DonorChoice & {
  donorError: string | undefined;
  pickerKey: number;
} {
  const [donor, setDonor] = useState<ContactSummary | null>(null);
  const [newDonorMode, setNewDonorMode] = useState(false);
  const [donorError, setDonorError] = useState<string | undefined>();
  const [pickerKey, setPickerKey] = useState(0);
  const [credits, setCredits] = useState<CreditChoice>(() => ({
    creditTo: null,
    raisedBy: startingHost(accountId, batch),
  }));
  // The batch's host read from the server: in the box and in the gift's field alike.
  useBatchHost(accountId, batch, credits.raisedBy, (raisedBy) => {
    setCredits((c) => ({ ...c, raisedBy }));
    form.setValue('facilitatedByContactId', raisedBy.id);
  });
  return {
    credits,
    setCredits,
    donor,
    setDonor,
    newDonorMode,
    setNewDonorMode,
    donorError,
    setDonorError,
    pickerKey,
    resetPicker: () => setPickerKey((k) => k + 1),
  };
}

/**
 * The values kept until changed: the batch's own (its campaign's only donation account
 * included), the campaign's accounts followed as it changes, the values kept per batch as
 * they change, and revert (a value back to the batch's, focused).
 */
function useStickyDefaults(
  accountId: string,
  batch: Batch,
  form: UseFormReturn<GiftForm>,
  watched: Watched,
  ref: ReferenceData,
  /** After a value is put back (the host's box is emptied by its owner). */
  afterRevert: (f: StickyField) => void,
) {
  const batchValues = defaultsFrom(batch);
  // The batch's campaign's only donation account is the batch's own too (campaign-account.ts).
  batchValues.donationAccountId ||= defaultAccountOf(ref.accountsOf(batch.campaignId));
  const offered = ref.accountsOf(watched.campaignId);
  useCampaignAccount(offered, {
    get: () => form.getValues('donationAccountId'),
    set: (id) => form.setValue('donationAccountId', id),
  });
  useKeepSticky(accountId, batch.id, stickyOf(watched), stickyOf(batchValues));
  const revert = (f: StickyField) => {
    form.setValue(f, batchValues[f], { shouldDirty: true });
    form.setFocus(f);
    afterRevert(f);
  };
  return { offered, values: stickyOf(watched), batch: stickyOf(batchValues), revert };
}

/** The row's warnings as it is typed: the amount, the method, and the donor's gift check. */
function useRowWarnings(donor: ContactSummary | null, watched: Watched, ref: ReferenceData) {
  const amountCents = parseAmountCents(watched.amount ?? '');
  const check = useGiftCheck(donor?.id, watched.date ?? '', watched.donationAccountId ?? '');
  return giftWarnings({
    amountCents,
    method: watched.method ?? '',
    isAnonymous: watched.isAnonymous ?? false,
    check: donor ? (check.data ?? null) : null,
    employer: donor ? (check.data?.employer ?? null) : (watched.newDonor?.employer ?? null),
    occupation: donor ? (check.data?.occupation ?? null) : (watched.newDonor?.occupation ?? null),
    donationAccountName: ref.nameOf('donationAccount', watched.donationAccountId),
  });
}

/** Where the row puts the focus: the donor box (once on screen) and the amount (at once). */
function useRowFocus() {
  const donorRef = useRef<HTMLInputElement>(null);
  const amountRef = useRef<HTMLInputElement | null>(null);
  const creditRef = useRef<HTMLInputElement>(null);
  const hostRef = useRef<HTMLInputElement>(null);
  // Focus goes to the donor box after React has put it on screen (it is remounted after each save).
  const [donorFocus, setDonorFocus] = useState(1); // 1: a batch chosen or started, straight to the first gift
  const focusDonor = () => setDonorFocus((n) => n + 1);
  useEffect(() => {
    if (donorFocus > 0) donorRef.current?.focus();
  }, [donorFocus]);
  // At once, in the same keystroke's handler: the amount field is always on screen, and a fast
  // typist's next keys ("Enter 50 Enter") must land in it, not in the donor box a frame later.
  const focusAmount = () => amountRef.current?.focus();
  return { donorRef, amountRef, creditRef, hostRef, focusDonor, focusAmount };
}

/** The donor: the type-ahead box, or the new donor's fields once "New donor" is picked in it. */
function DonorField({
  choice,
  form,
  errors,
  newDonor,
  donorRef,
  focusDonor,
  focusAmount,
  pick,
}: {
  choice: ReturnType<typeof useDonorChoice>;
  form: UseFormReturn<GiftForm>;
  errors: Parameters<typeof NewDonorFields>[0]['errors'];
  newDonor: NewDonorValues;
  donorRef: ReturnType<typeof useRowFocus>['donorRef'];
  focusDonor: () => void;
  focusAmount: () => void;
  pick: PickState;
}) {
  if (choice.newDonorMode)
    return (
      <NewDonorFields
        register={form.register as unknown as Parameters<typeof NewDonorFields>[0]['register']}
        errors={errors}
        values={newDonor}
        onUseExisting={(c) => {
          choice.setDonor(c);
          choice.setNewDonorMode(false);
          focusAmount();
        }}
        onCancel={() => {
          choice.setNewDonorMode(false);
          focusDonor();
        }}
        onSwap={() => {
          const { firstName, lastName } = form.getValues('newDonor');
          form.setValue('newDonor.firstName', lastName);
          form.setValue('newDonor.lastName', firstName);
        }}
      />
    );
  return (
    <DonorPicker
      key={choice.pickerKey}
      inputRef={donorRef}
      selected={choice.donor}
      error={choice.donorError}
      onSelect={(c) => {
        choice.setDonor(c);
        choice.setDonorError(undefined);
        pick.picked();
        // From the donor box to the amount; a pick that arrived late leaves the focus where the
        // volunteer typed ahead to.
        const at = document.activeElement;
        if (at === donorRef.current || at === document.body || at === null) focusAmount();
      }}
      onPickPending={(pending) => {
        if (!pending) {
          pick.forgotten();
          return;
        }
        pick.waiting();
        // The volunteer is done with the donor box: what they type next is the amount.
        focusAmount();
      }}
      onPickMissed={(typed) => {
        choice.setDonorError(`No donor on file matches “${typed}”: choose one, or “New donor”, in the list`);
        if (pick.forgotten()) donorRef.current?.focus();
      }}
      onClear={() => choice.setDonor(null)}
      newDonorNote={(typed) => (typed.includes('@') ? '' : `${splitWords(splitName(typed))} (Alt+W swaps)`)}
      onNewDonor={(typed) => {
        const { firstName, lastName } = splitName(typed);
        form.setValue('newDonor', {
          ...EMPTY_NEW_DONOR,
          firstName,
          lastName,
          email: typed.includes('@') ? typed : '',
        });
        choice.setNewDonorMode(true);
        choice.setDonorError(undefined);
      }}
    />
  );
}
