/**
 * Correcting a saved gift not yet sent to HQ (PATCH /donations/:id): a small dialog with the
 * entry row's fields (the credit, the host and sustainer included), the amount focused and selected. Enter saves, Escape cancels. The same
 * non-blocking warnings as the entry row, and the server's refusals at the field they name,
 * with everything typed kept. Only the fields that changed are sent; a correction can be
 * undone from the toast while the gift is still unsent (the old values are sent back).
 */
import { notesForPeople, notesKeepingReference } from '#shared/sync-reference.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { dollarsForInput, formatCents, parseAmountCents, wireCents } from '#shared/money.ts';
import type { ContactSummary } from '#shared/schemas/contact-views.ts';
import { DonationPatchBody, type DonationDetail } from '#shared/schemas/donations.ts';
import type { GiftCheck } from '#shared/schemas/gift-checks.ts';
import { failedWrite, isApiError, type FieldIssue } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { invalidateAfterGift, qk } from '../../api/query-keys.ts';
import { schemaIssues, useOneAtATime } from '../../forms.ts';
import { Button, Dialog, Select, TextField, useToast } from '../../ui/index.ts';
import { CreditFields, selfCreditIssue, useGiftCredits, withCreditKeys } from './CreditFields.tsx';
import { DonorPicker } from './DonorPicker.tsx';
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
  type GiftFieldValues,
} from './gift-fields.tsx';
import { entryRowFocus } from './entry-focus.ts';
import { METHOD_OPTIONS, useReferenceData } from './reference.ts';
import { giftWarnings } from './warnings.ts';

/** The dialog's form is the entry row's gift fields. */
type CorrectForm = GiftFieldValues;
type Patch = Omit<DonationPatchBody, 'accountId'>;

function formOf(g: DonationDetail): CorrectForm {
  return {
    amount: dollarsForInput(g.donationAmount),
    date: g.donationDate.slice(0, 10),
    method: g.paymentMethod,
    campaignId: g.campaignId ?? '',
    committeeId: g.committeeId ?? '',
    donationAccountId: g.donationAccountId ?? '',
    notes: notesForPeople(g.notes) ?? '', // the sync's reference line is not shown; kept on save
    isAnonymous: g.isAnonymous,
    isRecurring: g.isRecurring,
    thankYouSent: g.thankYouSent,
    onBehalfOfContactId: g.onBehalfOfContactId ?? '',
    facilitatedByContactId: g.facilitatedByContactId ?? '',
  };
}

/** Why the gift can still be corrected, and who makes the correction. */
function whereItIs(g: DonationDetail): string {
  return g.sync.upstream === 'hub' && g.sync.state === 'sent'
    ? 'At the event hub: the hub makes the correction, and every station sees it.'
    : 'Not yet sent to HQ, so it can still be corrected: HQ will only ever receive the corrected gift.';
}

/** The gift's fields as PATCH takes them (for the undo: the values before the correction). */
function patchOf(
  g: DonationDetail,
): Required<
  Pick<
    Patch,
    | 'contactId'
    | 'donationAmount'
    | 'donationDate'
    | 'paymentMethod'
    | 'campaignId'
    | 'committeeId'
    | 'donationAccountId'
    | 'notes'
    | 'isAnonymous'
    | 'isRecurring'
    | 'thankYouSent'
    | 'onBehalfOfContactId'
    | 'facilitatedByContactId'
  >
> {
  return {
    contactId: g.contactId,
    donationAmount: g.donationAmount,
    donationDate: g.donationDate.slice(0, 10),
    paymentMethod: g.paymentMethod,
    campaignId: g.campaignId,
    committeeId: g.committeeId,
    donationAccountId: g.donationAccountId,
    notes: g.notes,
    isAnonymous: g.isAnonymous,
    isRecurring: g.isRecurring,
    thankYouSent: g.thankYouSent,
    onBehalfOfContactId: g.onBehalfOfContactId,
    facilitatedByContactId: g.facilitatedByContactId,
  };
}

/**
 * The donor's check leaves out the gift being corrected when it is counted there (same donor,
 * same year; for the limits also the same donation account and date), so the warnings speak of
 * the corrected amount, not of both.
 */
function withoutThisGift(
  check: GiftCheck | null,
  g: DonationDetail,
  donorId: string | undefined,
  date: string,
  accountId: string,
): GiftCheck | null {
  if (!check || donorId !== g.contactId || g.status !== 'completed') return check;
  const own = g.donationAmount;
  const sameYear = date.slice(0, 4) === g.donationDate.slice(0, 4);
  const sameWindow = date === g.donationDate.slice(0, 10) && accountId === (g.donationAccountId ?? '');
  return {
    ...check,
    yearTotal: sameYear ? Math.max(0, check.yearTotal - own) : check.yearTotal,
    limits: sameWindow
      ? check.limits.map((l) => ({
          ...l,
          donorTotal: Math.max(0, l.donorTotal - own),
          room: Math.min(l.limit, l.room + own),
        }))
      : check.limits,
  };
}

export function CorrectGiftDialog({ gift, onClose }: { gift: DonationDetail; onClose: () => void }) {
  const api = useApi();
  const client = useQueryClient();
  const toast = useToast();
  const ref = useReferenceData();
  const form = useForm<CorrectForm>({ defaultValues: formOf(gift) });
  const { register, formState, setError, clearErrors } = form;
  const errors = formState.errors;
  const original = useQuery({
    queryKey: qk.contact(gift.contactId),
    queryFn: () => api.contacts.get(gift.contactId),
    retry: false,
  });
  const [picked, setPicked] = useState<ContactSummary | null | undefined>(undefined); // undefined: the gift's own donor
  const donor: ContactSummary | null =
    picked === undefined ? (original.data ? summaryOf(original.data) : null) : picked;
  const donorId = picked === undefined ? gift.contactId : picked?.id;
  const [donorError, setDonorError] = useState<string | undefined>();
  const credits = useGiftCredits(gift);
  const [topError, setTopError] = useState<string | null>(null);

  const watched = useWatch({ control: form.control });
  const amountCents = parseAmountCents(watched.amount ?? '');
  const check = useGiftCheck(donorId, watched.date ?? '', watched.donationAccountId ?? '');
  const adjusted = withoutThisGift(
    check.data ?? null,
    gift,
    donorId,
    watched.date ?? '',
    watched.donationAccountId ?? '',
  );
  const warnings = giftWarnings({
    amountCents,
    method: watched.method ?? '',
    isAnonymous: watched.isAnonymous ?? false,
    check: adjusted,
    employer: adjusted?.employer ?? null,
    occupation: adjusted?.occupation ?? null,
    donationAccountName: ref.nameOf('donationAccount', watched.donationAccountId),
  });

  const correct = useMutation({ mutationFn: (patch: Patch) => api.donations.correct(gift.id, patch) });

  const showIssues = (issues: FieldIssue[]) => {
    const first = showFieldIssues(issues, DONATION_FIELDS, {
      field: (name, message) => setError(name, { message }),
      donor: setDonorError,
      top: setTopError,
    });
    if (first && first !== 'donor') form.setFocus(first);
  };

  const checkAndCorrect = form.handleSubmit(async (v) => {
    clearErrors();
    setDonorError(undefined);
    setTopError(null);
    if (!donorId) {
      setDonorError('Choose a donor');
      return;
    }
    const self = selfCreditIssue(v.onBehalfOfContactId, donorId);
    if (self) return setError('onBehalfOfContactId', { message: self });
    const c = parseAmountCents(v.amount);
    if (c === null || c <= 0) {
      setError('amount', { message: amountError(v.amount) });
      form.setFocus('amount');
      return;
    }
    const fields = donationFields(v, c);
    const next = { contactId: donorId, ...fields, notes: notesKeepingReference(gift.notes, fields.notes) };
    const before = patchOf(gift);
    // Only what changed goes to the server (and into the gift's history).
    const patch: Patch = {};
    const changed = (Object.keys(next) as Array<keyof typeof next>).filter((k) =>
      k === 'donationAmount' ? wireCents(next[k]) !== wireCents(before[k]) : next[k] !== before[k],
    );
    for (const k of changed) Object.assign(patch, { [k]: next[k] });
    if (changed.length === 0) {
      onClose();
      return;
    }
    const issues = schemaIssues(DonationPatchBody, { accountId: api.accountId, ...patch });
    if (issues.length) {
      showIssues(issues);
      return;
    }
    try {
      const saved = await correct.mutateAsync(patch);
      const undo: Patch = {};
      for (const k of changed) Object.assign(undo, { [k]: before[k] });
      onClose();
      toast.show({
        tone: 'success',
        message: `Corrected: ${formatCents(wireCents(saved.donationAmount))} from ${saved.contactName}${wireCents(saved.donationAmount) !== wireCents(gift.donationAmount) ? ` (was ${formatCents(wireCents(gift.donationAmount))})` : ''}.`,
        undo: async () => {
          try {
            await api.donations.correct(gift.id, undo);
            toast.show({
              message: `Correction undone: ${formatCents(wireCents(gift.donationAmount))} from ${gift.contactName} again.`,
            });
          } catch (err) {
            toast.show({
              tone: 'error',
              message: failedWrite('The correction could not be undone', err),
            });
          }
          await invalidateAfterGift(client);
        },
      });
      await invalidateAfterGift(client);
    } catch (err) {
      if (isApiError(err) && err.details.length) showIssues(err.details);
      else setTopError(err instanceof Error ? err.message : String(err));
      if (isApiError(err) && err.status === 409) void invalidateAfterGift(client); // it was sent meanwhile: the row turns read-only
    }
  });

  const submit = useOneAtATime(checkAndCorrect); // Enter again while it is on its way: nothing more
  // Enter saves from any field; Escape is the dialog's (the credit boxes' own while one has text).
  const onKeyDown = withCreditKeys(enterSubmits(submit), credits.refs, form);

  const amountReg = register('amount');
  // The amount is what is most often wrong: it has the focus, selected, once the dialog is open
  // (this effect runs after the dialog's own, which opens it).
  useEffect(() => form.setFocus('amount', { shouldSelect: true }), [form]);
  return (
    <Dialog
      open
      wide
      title={`Correct the gift of ${formatCents(wireCents(gift.donationAmount))} from ${gift.contactName}`}
      onClose={onClose}
      focusAfter={entryRowFocus}
      actions={
        <>
          <Button onClick={onClose}>
            Cancel <kbd>Esc</kbd>
          </Button>
          <Button tone="primary" busy={correct.isPending} onClick={() => void submit()}>
            Save correction <kbd>Enter</kbd>
          </Button>
        </>
      }
    >
      <form
        className="correct-gift"
        aria-label="Correct gift"
        onSubmit={submit}
        onKeyDown={onKeyDown}
        noValidate
      >
        <p className="muted">{whereItIs(gift)}</p>
        {topError ? (
          <div className="notice notice-error" role="alert">
            {topError}
          </div>
        ) : null}
        <div className="correct-gift-grid">
          <DonorPicker
            key={original.isSuccess ? 'loaded' : 'loading'}
            selected={donor}
            error={donorError}
            onSelect={(c) => {
              setPicked(c);
              setDonorError(undefined);
              form.setFocus('amount');
            }}
            onClear={() => setPicked(null)}
            onNewDonor={() =>
              setDonorError('Choose an existing donor here; a new donor is added in the entry row.')
            }
          />
          <TextField
            label="Amount ($)"
            inputMode="decimal"
            autoComplete="off"
            onFocus={(e) => e.currentTarget.select()}
            {...amountReg}
            error={errors.amount?.message}
          />
          <TextField label="Date" type="date" {...register('date')} error={errors.date?.message} />
          <Select
            label="Method"
            options={METHOD_OPTIONS}
            typeToChoose
            {...register('method')}
            error={errors.method?.message}
          />
          <DesignationFields register={register} errors={errors} options={ref} />
        </div>
        <CreditFields
          key={credits.loaded}
          form={form}
          errors={errors}
          choice={credits.choice}
          onChange={credits.setChoice}
          donorId={donorId}
          refs={credits.refs}
        />
        <GiftFlags register={register} />
        <GiftWarnings warnings={warnings} />
      </form>
    </Dialog>
  );
}
