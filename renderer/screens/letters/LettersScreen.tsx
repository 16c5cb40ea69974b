/**
 * Letters: thank-you letters for the gifts of a period, campaign or batch not yet thanked (one
 * per donor), year-end statements (one per donor, every gift of the year), and the receipts
 * printed from gift entry. Choose, look at the first letter, "Make letters" (a progress bar
 * while the PDF is made off the server's event loop), open, print or save the PDF, then mark
 * the run as sent. The wording, the organisation and the signer are in Settings → Letters.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { LetterChoice, LetterRun } from '#shared/schemas/letters.ts';
import { isApiError, type ApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { hrefFor, type ScreenProps } from '../../router.ts';
import { ConfirmDialog, EmptyState, Screen, useDebounced } from '../../ui/index.ts';
import { count } from '../../ui/format.ts';
import { useTryKey } from '../../forms.ts';
import { ChoiceForm, initialChoice, toChoice, type ChoiceState } from './choice-form.tsx';
import { donorLabel } from './donor-choice.tsx';
import { RunHistory } from './run-history.tsx';
import { RunPanel } from './run-panel.tsx';
import { OrgKindQuestion } from './org-kind-question.tsx';
import { syncKeys } from '../settings/sync-keys.ts';
import './letters.css';

/** What to say when a choice has nothing to print. */
export function nothingToPrint(s: ChoiceState): string {
  if (s.kind === 'thank-you')
    return s.notThanked ? 'No gifts waiting for a thank-you letter' : 'No gifts match these filters';
  if (s.kind === 'year-end')
    return s.donor ? `No gifts from ${s.donor.label} in ${s.year}` : `No gifts in ${s.year}`;
  return 'No gift chosen';
}

/** The server's refusal to print a charity's wording for an organisation with elections. */
const WORDING_REFUSED = 'charity_wording_political';
const isWordingRefused = (e: unknown): e is ApiError => isApiError(e) && e.code === WORDING_REFUSED;

/** A refusal that names no field: the choice is fine, there is just nothing in it to print. */
const isNothing = (e: unknown): e is ApiError =>
  isApiError(e) && e.status >= 400 && e.status < 500 && e.details.length === 0 && e.code !== WORDING_REFUSED;

/** A PDF in a frame, its object URL released when another replaces it. */
function useObjectUrl(blob: Blob | null): string | null {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

/**
 * The choice the screen opens with: "#/letters/year-end/cnt_…" (the donor page's "Year-end
 * statement") asks for that kind and, once the donor is read, that donor alone.
 */
function useChoiceFromRoute(route: ScreenProps['route']) {
  const api = useApi();
  const [kindAsked, donorAsked] = route.rest;
  const [choice, setChoice] = useState<ChoiceState>(() =>
    initialChoice(null, kindAsked === 'year-end' ? 'year-end' : 'thank-you'),
  );
  const askedDonor = useQuery({
    queryKey: qk.contact(donorAsked ?? ''),
    queryFn: () => api.contacts.get(donorAsked!),
    enabled: donorAsked !== undefined,
  });
  const askedDonorData = askedDonor.data;
  useEffect(() => {
    if (!askedDonorData) return;
    const c = askedDonorData;
    const email = c.emailAddresses.find((e) => e.isPrimary) ?? c.emailAddresses[0];
    const phone = c.phoneNumbers.find((p) => p.isPrimary) ?? c.phoneNumbers[0];
    const label = donorLabel({
      firstName: c.firstName,
      lastName: c.lastName,
      email: email?.emailAddress ?? null,
      phone: phone?.phoneNumber ?? null,
      organization: c.organization,
    });
    setChoice((now) => ({ ...now, donor: { id: c.id, label } }));
  }, [askedDonorData]);
  return [choice, setChoice] as const;
}

/**
 * Starting a run of the choice. The run's key (useTryKey): "Make letters" again after a lost
 * answer gets the run the first try started, not a second run of the same letters to print and
 * mail twice.
 */
function useRunStart(choice: ChoiceState, onStarted: (run: LetterRun) => void) {
  const api = useApi();
  const qc = useQueryClient();
  const runTry = useTryKey();
  return useMutation({
    mutationFn: (confirmWording?: boolean) => {
      const body = { ...toChoice(choice), perDonor: choice.perDonor, confirmWording };
      return api.letters.start({ ...body, entryKey: runTry.keyFor(body) });
    },
    onSuccess: async (run: LetterRun) => {
      runTry.saved();
      onStarted(run);
      qc.setQueryData(qk.letterRun(run.id), run);
      await qc.invalidateQueries({ queryKey: qk.letterRuns });
    },
  });
}

/**
 * A start's refusal naming fields, for the fields; any other failure (the server not answering,
 * a run that cannot be written) is said beside the form, and nothing-to-print and the wording
 * question have their own places.
 */
function startFieldError(error: unknown): ApiError | null {
  return isApiError(error) && error.details.length > 0 && !isNothing(error) && !isWordingRefused(error)
    ? error
    : null;
}

export function LettersScreen({ route }: ScreenProps) {
  const api = useApi();
  const [choice, setChoice] = useChoiceFromRoute(route);
  const [runId, setRunId] = useState<string | null>(null);
  const [opened, setOpened] = useState<{ blob: Blob; title: string } | null>(null);
  // Debounced as text (an object would be new at every render, and so never settle).
  const choiceText = JSON.stringify(toChoice(choice));
  const askedText = useDebounced(choiceText, 300);
  const asked = useMemo(() => JSON.parse(askedText) as LetterChoice, [askedText]);
  const preview = useQuery({
    queryKey: ['letters', 'preview', asked],
    queryFn: () => api.letters.preview(asked),
    enabled: asked.kind !== 'receipt',
    retry: false,
    staleTime: 0,
  });
  const settings = useQuery({ queryKey: qk.letterSettings, queryFn: () => api.letters.settings() });
  // A station's letter settings are the hub's: the question is for the person at the hub.
  const sync = useQuery({ queryKey: syncKeys.status, queryFn: () => api.sync.status() });
  const askKind =
    settings.data && !settings.data.orgKindChosen && sync.data && sync.data.remoteKind !== 'hub';
  const start = useRunStart(choice, (run) => {
    setRunId(run.id);
    setOpened(null);
  });
  // The preview speaks only of the choice in the form: not while the form's newest choice waits
  // to be asked, and not with an earlier answer kept after the newest one failed (after "Mark as
  // sent", a not-thanked choice has nothing left, whatever the last letter shown was).
  const previewNow = askedText === choiceText && !preview.isError ? preview.data : undefined;
  const nothingNow =
    askedText === choiceText && !preview.isFetching && preview.isError && isNothing(preview.error);
  const [askedNothing, setAskedNothing] = useState(false);
  /**
   * Make letters: when the preview of this very choice says nothing is left (or is being asked
   * again, after "Mark as sent"), it is said here and no empty run is recorded.
   */
  const make = async () => {
    if (choice.kind !== 'receipt' && askedText === choiceText) {
      const now = preview.isFetching ? await preview.refetch({ cancelRefetch: false }) : preview;
      if (now.isError && isNothing(now.error)) {
        setAskedNothing(true);
        return;
      }
    }
    start.mutate(undefined);
  };
  const shown =
    opened ?? (previewNow ? { blob: previewNow.pdf, title: 'Preview of the first letter' } : null);
  // How many letters and gifts the whole run would have (the preview's answer says).
  const whole = !opened && previewNow?.documents != null ? previewNow : null;
  const url = useObjectUrl(shown?.blob ?? null);
  const fieldError = startFieldError(start.error);
  const previewFieldError = isApiError(preview.error) && !isNothing(preview.error) ? preview.error : null;

  return (
    <Screen
      title="Letters"
      actions={<a href={hrefFor('settings', 'letters')}>Wording, organisation and signer</a>}
    >
      {askKind ? <OrgKindQuestion settings={settings.data} /> : null}
      <ConfirmDialog
        open={isWordingRefused(start.error)}
        title="Print a charity’s tax wording?"
        confirmLabel="Print the charity’s wording"
        cancelLabel="Don’t print"
        onCancel={() => start.reset()}
        onConfirm={() => start.mutate(true)}
      >
        <p>{isWordingRefused(start.error) ? start.error.message : null}</p>
      </ConfirmDialog>
      <div className="letters-layout">
        <div className="letters-side">
          <ChoiceForm
            value={choice}
            onChange={(next) => {
              setChoice(next);
              setOpened(null);
              // The run made for the earlier choice is in Print runs; beside this form, only this choice.
              setRunId(null);
              setAskedNothing(false);
              start.reset();
            }}
            onMake={() => void make()}
            making={start.isPending}
            error={fieldError ?? previewFieldError}
          />
          {askedNothing && nothingNow ? (
            <EmptyState title={nothingToPrint(choice)}>Nothing was printed.</EmptyState>
          ) : null}
          {start.isError && !fieldError ? (
            isNothing(start.error) ? (
              <EmptyState title={nothingToPrint(choice)}>{start.error.message}</EmptyState>
            ) : (
              <p className="notice notice-error" role="alert">
                The letters could not be started: {start.error.message}
              </p>
            )
          ) : null}
          {runId ? (
            <RunPanel
              key={runId}
              runId={runId}
              emptyMessage={nothingToPrint(choice)}
              onOpen={(blob, title) => setOpened({ blob, title })}
            />
          ) : null}
        </div>
        <section className="panel letters-viewer" aria-labelledby="letters-viewer-title">
          <h2 id="letters-viewer-title" className="panel-title">
            {shown ? shown.title : 'Preview'}
          </h2>
          {whole && choice.kind !== 'receipt' ? (
            <p className="muted" data-testid="letters-preview-counts">
              The first of {count(whole.documents ?? 0, choice.kind === 'year-end' ? 'statement' : 'letter')}{' '}
              this choice would print, for {count(whole.gifts ?? 0, 'gift')}.
            </p>
          ) : null}
          {choice.kind === 'receipt' ? (
            <p className="muted">Receipts are printed one at a time from gift entry.</p>
          ) : url && shown ? (
            <iframe className="letters-frame" title={shown.title} src={url} />
          ) : nothingNow ? (
            <EmptyState title={nothingToPrint(choice)}>
              {choice.kind === 'thank-you' && choice.notThanked
                ? 'Every completed gift these filters cover has been thanked already. Untick “Only gifts not yet thanked” to print them again.'
                : 'Try another period, campaign or batch.'}
            </EmptyState>
          ) : askedText === choiceText && preview.isError ? (
            <p className="notice notice-error" role="alert">
              The preview could not be made: {preview.error.message}
            </p>
          ) : (
            <p className="muted">Making the preview of the first letter…</p>
          )}
        </section>
      </div>
      <RunHistory
        onShow={(r) => {
          setRunId(r.id);
          setOpened(null);
        }}
      />
    </Screen>
  );
}
