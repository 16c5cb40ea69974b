/**
 * What sync is doing, from the one sync status (the badge's too): what is wrong with the
 * connection, once, at the top (HQ unreachable, the key refused: the server's words), HQ's
 * state (online, offline since when, never reached, paused, key refused) and its last answer,
 * the changes waiting (and in flight) and when they go next, the records that need attention
 * (the list below is the same answer's), the changes HQ confirmed, the rate now, records
 * failing three times or more while HQ answers (when the connection is the failure, it is not
 * listed against each record) — and "Sync now" (it tries records backing off at once) with a
 * bar of the changes done out of those waiting, and what the pass did (sync-words.ts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SyncStatus } from '#shared/schemas/sync.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, ProgressBar } from '../../ui/index.ts';
import { ConnectionText } from './ConnectionText.tsx';
import { ago, connectionWords, syncKeys, until } from './sync-keys.ts';
import { connectionProblem, passOutcome, type Said } from './sync-words.ts';

/** A "Sync now" pass under way: the changes done when it started, and those waiting then. */
interface Run {
  startDone: number;
  total: number;
}

export function SyncStatusPanel() {
  const api = useApi();
  const [run, setRun] = useState<Run | null>(null);
  const status = useQuery({
    queryKey: syncKeys.status,
    queryFn: () => api.sync.status(),
    refetchInterval: run ? 1000 : 10_000,
  });
  const { syncNow, outcome } = useSyncNow(status.data, setRun);
  const s = status.data;
  const sentThisRun = run && s ? Math.max(0, s.done - run.startDone) : 0;

  return (
    <div className="panel sync-status" aria-labelledby="sync-status-title">
      <div className="sync-status-head">
        <h3 id="sync-status-title" className="panel-title">
          Status
        </h3>
        <Button tone="primary" busy={syncNow.isPending} onClick={() => syncNow.mutate()}>
          Sync now
        </Button>
      </div>
      {status.isError ? (
        <p className="notice notice-error" role="alert">
          The sync status could not be loaded: {status.error.message}
        </p>
      ) : !s ? (
        <p className="muted">Loading status…</p>
      ) : (
        <StatusNow s={s} passRunning={run !== null} />
      )}
      {run ? (
        <ProgressBar
          label="Sending to HQ"
          value={run.total > 0 ? Math.min(sentThisRun, run.total) : null}
          max={Math.max(run.total, 1)}
          detail={run.total > 0 ? `${Math.min(sentThisRun, run.total)} of ${run.total} changes` : 'checking…'}
        />
      ) : null}
      {outcome ? (
        <p className={`notice notice-${outcome.tone}`} role={outcome.tone === 'error' ? 'alert' : 'status'}>
          {outcome.text}
        </p>
      ) : null}
    </div>
  );
}

/**
 * "Sync now": the pass, with `setRun` told when it starts (for the bar) and ends; then the
 * status it ends with, what it did in words, and the badge and every gift row's sync state
 * refreshed at once.
 */
function useSyncNow(current: SyncStatus | undefined, setRun: (run: Run | null) => void) {
  const api = useApi();
  const qc = useQueryClient();
  const [outcome, setOutcome] = useState<Said | null>(null);
  const syncNow = useMutation({
    mutationFn: () => api.sync.run(),
    onMutate: () => {
      setOutcome(null);
      setRun({ startDone: current?.done ?? 0, total: current?.waiting ?? 0 });
    },
    onSuccess: (r) => {
      qc.setQueryData(syncKeys.status, r.status);
      setOutcome(passOutcome(r));
    },
    onError: (err) => setOutcome({ tone: 'error', text: err.message }),
    onSettled: async () => {
      setRun(null);
      // The badge and every gift row's sync state (sent / needs attention) follow the pass at once.
      await Promise.all(
        [qk.sync, qk.batches, qk.donations].map((queryKey) => qc.invalidateQueries({ queryKey })),
      );
    },
  });
  return { syncNow, outcome };
}

/** The status as it stands: the connection's problem, the counts, the facts, and what to know. */
function StatusNow({ s, passRunning }: { s: SyncStatus; passRunning: boolean }) {
  const paused = s.connection.state === 'paused' ? s.pausedUntil : null;
  const problem = connectionProblem(s);
  const nextTry = s.waiting > 0 && !paused ? s.nextTryAt : null;
  return (
    <>
      {problem ? (
        <p className="notice notice-error" data-testid="sync-problem">
          {problem}
        </p>
      ) : null}
      <SyncCounts s={s} />
      <SyncFacts s={s} passRunning={passRunning} />
      {paused ? (
        <p className="notice notice-warn" role="status">
          HQ asked us to wait: paused until {new Date(paused).toLocaleTimeString()} ({until(paused)}).
        </p>
      ) : null}
      {nextTry ? (
        <p className="notice notice-warn" data-testid="sync-next-try">
          {s.waiting === 1 ? 'The change waiting goes' : 'The changes waiting go'} to HQ next{' '}
          <time dateTime={nextTry}>{until(nextTry)}</time>, or now with “Sync now”.
        </p>
      ) : null}
      {s.lastError && !paused && !nextTry && !problem ? (
        <p className="notice notice-warn">Last error: {s.lastError}</p>
      ) : null}
      {s.failing.length > 0 && !problem && !paused ? <FailingRecords failing={s.failing} /> : null}
      {s.marksNote ? (
        <p className="notice" data-testid="sync-marks-note">
          {s.marksNote}
        </p>
      ) : null}
    </>
  );
}

/** The changes waiting, in flight and sent, and the records that need attention. */
function SyncCounts({ s }: { s: SyncStatus }) {
  return (
    <>
      <dl className="sync-counts">
        <div>
          <dt>Waiting</dt>
          <dd data-testid="sync-waiting">{s.waiting}</dd>
        </div>
        <div>
          <dt>In flight</dt>
          <dd data-testid="sync-inflight">{s.inFlight}</dd>
        </div>
        <div className={s.needsAttention > 0 ? 'sync-count-warn' : undefined}>
          <dt>Needs attention</dt>
          <dd data-testid="sync-attention">{s.needsAttention}</dd>
        </div>
        <div>
          <dt>Sent</dt>
          <dd data-testid="sync-sent">{s.sent}</dd>
        </div>
      </dl>
      <p className="muted sync-counts-note">
        Waiting, in flight and sent count changes (a new gift is one, each edit another); HQ confirmed every
        change counted as sent.
      </p>
    </>
  );
}

/** HQ's state and its last answer, the rate now, and whether a pass (not this window's) is running. */
function SyncFacts({ s, passRunning }: { s: SyncStatus; passRunning: boolean }) {
  const said = connectionWords(s.connection, s.pausedUntil, s);
  return (
    <ul className="sync-facts">
      <li>
        {s.remoteKind === 'hub' ? 'Event hub' : 'HQ'}:{' '}
        <strong data-testid="sync-connection" data-state={s.connection.state}>
          <ConnectionText said={said} />
        </strong>
        {s.connection.state === 'online'
          ? ` (it answered in the last ${s.connection.onlineWindowSeconds / 60} minutes)`
          : ''}
      </li>
      <li>
        HQ last answered:{' '}
        <strong data-testid="sync-last-answer">
          {s.connection.lastAnsweredAt ? (
            <time
              dateTime={s.connection.lastAnsweredAt}
              title={new Date(s.connection.lastAnsweredAt).toLocaleString()}
            >
              {ago(s.connection.lastAnsweredAt)}
            </time>
          ) : (
            'never'
          )}
        </strong>
      </li>
      <li>
        Rate: <strong>{s.currentRate ?? s.ratePerSecond ?? '—'}</strong> requests/s
        {s.currentRate !== null && s.ratePerSecond !== null && s.currentRate < s.ratePerSecond
          ? ` (recovering towards ${s.ratePerSecond} after HQ asked to slow down)`
          : ''}
      </li>
      {s.running && !passRunning ? <li>A sync pass is running.</li> : null}
    </ul>
  );
}

/** Records failing three times or more while HQ answers: each with its tries, error and next try. */
function FailingRecords({ failing }: { failing: SyncStatus['failing'] }) {
  return (
    <div className="notice notice-error">
      <p className="sync-failing-title">
        Failing {failing.length === 1 ? 'record' : 'records'} (three tries or more; retried on their own):
      </p>
      <ul>
        {failing.map((f) => (
          <li key={`${f.entityType}:${f.entityId}`}>
            {f.label} — {f.failures} tries{f.lastError ? `: ${f.lastError}` : ''}
            {f.nextTryAt ? `, next ${until(f.nextTryAt)}` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}
