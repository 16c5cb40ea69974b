/**
 * The run being made or just made: its progress bar while it renders (GET runs/{id}, asked
 * again every half second), then what it holds — documents, gifts, the total — with the PDF to
 * open here, print or save (a large run is printed in parts: each part's PDF, with the letters
 * it holds), and "Mark as sent" after a confirmation naming how many gifts it marks (the marks
 * go to HQ with the gifts: not cheap to undo).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDollars } from '#shared/money.ts';
import type { LetterRun, LetterRunPart } from '#shared/schemas/letters.ts';
import { errorMessage } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, ConfirmDialog, EmptyState, ProgressBar, useToast } from '../../ui/index.ts';
import { count, dateTime, whole } from '../../ui/format.ts';
import { saveFile } from '../settings/download.ts';
import { KIND_LABEL } from './choice-form.tsx';
import { printPdf, runFileName } from './pdf.ts';

/** "Part 2 of 7 (letters 15,001–30,000, 15,000 pages)". */
export function partLabel(p: LetterRunPart, of: number): string {
  const letters =
    p.firstLetter === p.lastLetter
      ? `letter ${whole(p.firstLetter)}`
      : `letters ${whole(p.firstLetter)}–${whole(p.lastLetter)}`;
  return `Part ${p.part} of ${of} (${letters}${p.pages === null ? '' : `, ${count(p.pages, 'page')}`})`;
}

/** A run as its page follows it: asked again while it renders. */
export function useRun(id: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: qk.letterRun(id ?? ''),
    queryFn: () => api.letters.run(id!),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data?.status === 'rendering' ? 500 : false),
  });
}

/** "3 letters", "1 statement", "1 receipt". */
export function documentsWord(run: Pick<LetterRun, 'kind' | 'documents'>): string {
  const noun = run.kind === 'receipt' ? 'receipt' : run.kind === 'year-end' ? 'statement' : 'letter';
  return count(run.documents, noun);
}

/** The mark-as-sent action and its confirmation, for a run's buttons (here and in the history). */
export function useMarkSent() {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  const [asking, setAsking] = useState<LetterRun | null>(null);
  const marking = useMutation({
    mutationFn: (run: LetterRun) => api.letters.markSent(run.id),
    onSuccess: async (r) => {
      setAsking(null);
      toast.show({
        message: `Marked as sent: ${count(r.marked, 'gift')} now say “thank-you sent” (${dateTime(r.markedSentAt)}).${r.marksNote ? ` ${r.marksNote}` : ''}`,
        tone: 'success',
      });
      await qc.invalidateQueries({ queryKey: ['letters'] });
      await qc.invalidateQueries({ queryKey: qk.donations });
    },
    onError: (err) => {
      setAsking(null);
      toast.show({ message: `Not marked: ${errorMessage(err)}`, tone: 'error' });
    },
  });
  const dialog = (
    <ConfirmDialog
      open={asking !== null}
      title={asking ? `Mark ${count(asking.gifts, 'gift')} as thanked?` : 'Mark as sent?'}
      confirmLabel={asking ? `Mark ${count(asking.gifts, 'gift')} as sent` : 'Mark as sent'}
      tone="primary"
      busy={marking.isPending}
      onConfirm={() => asking && marking.mutate(asking)}
      onCancel={() => setAsking(null)}
    >
      {asking ? (
        <>
          <p>
            Each of the {count(asking.gifts, 'gift')} in this run ({documentsWord(asking)},{' '}
            {formatDollars(asking.total)}) gets “thank-you sent” with today’s date. A later run of gifts not
            yet thanked leaves them out, and the marks go to HQ with the gifts.
          </p>
          <p>
            Only do this once the letters are printed and in the post: undoing it means changing every gift.
          </p>
        </>
      ) : null}
    </ConfirmDialog>
  );
  return { ask: setAsking, dialog };
}

export function RunPanel({
  runId,
  onOpen,
  emptyMessage,
}: {
  runId: string;
  /** Shows the run's PDF in the viewer beside the form. */
  onOpen: (blob: Blob, title: string) => void;
  /** What to say when the run found nothing to print. */
  emptyMessage: string;
}) {
  const api = useApi();
  const toast = useToast();
  const run = useRun(runId);
  const mark = useMarkSent();
  const fetchPdf = useMutation({
    mutationFn: async ({ r, part }: { r: LetterRun; then: 'open' | 'print' | 'save'; part?: number }) =>
      api.letters.pdf(r.id, part),
    onSuccess: (blob, { r, then, part }) => {
      const title = `${KIND_LABEL[r.kind]}, ${dateTime(r.createdAt)}${part === undefined ? '' : `, part ${part} of ${r.parts.length}`}`;
      if (then === 'open') onOpen(blob, title);
      else if (then === 'print') printPdf(blob, title);
      else saveFile(blob, runFileName(r, part));
    },
    onError: (err) =>
      toast.show({ message: `The PDF could not be fetched: ${errorMessage(err)}`, tone: 'error' }),
  });
  const r = run.data;
  if (!r) {
    return run.isError ? (
      <p className="notice notice-error" role="alert">
        The run could not be read: {errorMessage(run.error)}
      </p>
    ) : (
      <p className="muted">Starting…</p>
    );
  }
  if (r.status === 'rendering') {
    return (
      <section className="panel letters-run" aria-labelledby="letters-run-title">
        <h2 id="letters-run-title" className="panel-title">
          Making {documentsWord(r)}…
        </h2>
        <ProgressBar
          label={`${KIND_LABEL[r.kind]}`}
          value={r.rendered}
          max={Math.max(r.documents, 1)}
          detail={`${r.rendered} of ${r.documents}`}
        />
        <p className="muted">Gift entry goes on as usual meanwhile.</p>
      </section>
    );
  }
  if (r.status === 'failed') {
    return (
      <p className="notice notice-error" role="alert">
        The letters could not be made: {r.error ?? 'the server gave no reason.'}
      </p>
    );
  }
  if (r.documents === 0) return <EmptyState title={emptyMessage}>Nothing was printed.</EmptyState>;
  return (
    <section className="panel letters-run" aria-labelledby="letters-run-title">
      <h2 id="letters-run-title" className="panel-title">
        Ready: {documentsWord(r)}
      </h2>
      <p role="status">
        {documentsWord(r)} for {count(r.gifts, 'gift')}, {formatDollars(r.total)} in all.
        {r.markedSentAt ? ` Marked as sent ${dateTime(r.markedSentAt)}.` : ' Not marked as sent yet.'}
      </p>
      {r.parts.length > 1 ? (
        <>
          <p>It is printed in {r.parts.length} parts, each a PDF of its own: open, print or save each one.</p>
          <ul className="letters-parts" aria-label="Parts">
            {r.parts.map((p) => {
              const which = `part ${p.part} of ${r.parts.length}`;
              const busy = fetchPdf.isPending && fetchPdf.variables.part === p.part;
              return (
                <li key={p.part} className="letters-run-actions">
                  <span className="letters-part-label">{partLabel(p, r.parts.length)}</span>
                  <Button
                    tone="primary"
                    busy={busy}
                    disabled={fetchPdf.isPending && !busy}
                    aria-label={`Open ${which}`}
                    onClick={() => fetchPdf.mutate({ r, then: 'open', part: p.part })}
                  >
                    Open
                  </Button>
                  <Button
                    disabled={fetchPdf.isPending}
                    aria-label={`Print ${which}`}
                    onClick={() => fetchPdf.mutate({ r, then: 'print', part: p.part })}
                  >
                    Print
                  </Button>
                  <Button
                    disabled={fetchPdf.isPending}
                    aria-label={`Download ${which}`}
                    onClick={() => fetchPdf.mutate({ r, then: 'save', part: p.part })}
                  >
                    Download
                  </Button>
                </li>
              );
            })}
          </ul>
          {r.markedSentAt ? null : (
            <div className="letters-run-actions">
              <Button onClick={() => mark.ask(r)}>Mark as sent…</Button>
            </div>
          )}
        </>
      ) : (
        <div className="letters-run-actions">
          <Button
            tone="primary"
            busy={fetchPdf.isPending}
            onClick={() => fetchPdf.mutate({ r, then: 'open' })}
          >
            Open PDF
          </Button>
          <Button onClick={() => fetchPdf.mutate({ r, then: 'print' })} disabled={fetchPdf.isPending}>
            Print
          </Button>
          <Button onClick={() => fetchPdf.mutate({ r, then: 'save' })} disabled={fetchPdf.isPending}>
            Download PDF
          </Button>
          {r.markedSentAt ? null : <Button onClick={() => mark.ask(r)}>Mark as sent…</Button>}
        </div>
      )}
      {mark.dialog}
    </section>
  );
}
