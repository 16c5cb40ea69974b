/**
 * Pull from HQ (its contacts come down so gift entry finds existing donors; campaigns where
 * HQ lists them) with a bar of pages done of pages total, and the reference links: each local
 * campaign, committee and donation account with its HQ id, the unlinked ones highlighted
 * (their gifts wait). An unlinked one is linked by choosing HQ's record from a list (where HQ
 * lists that kind), preselected when its name matches exactly one — one at a time or "Link all
 * suggested" after a confirmation — or, where HQ lists none, by typing HQ's id (a row's way to
 * link: SyncLinkCell.tsx). Every link is checked at HQ before it is kept (POST /sync/links).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type { ReferenceCandidates, ReferenceLink } from '#shared/schemas/sync-pull.ts';
import { errorMessage, isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { sentence } from '../../forms.ts';
import { Button, ConfirmDialog, EmptyState, Loaded, ProgressBar, Table, useToast } from '../../ui/index.ts';
import { LinkCell } from './SyncLinkCell.tsx';

type Link = z.infer<typeof ReferenceLink>;
const KIND_LABEL: Record<Link['kind'], string> = {
  campaign: 'Campaign',
  committee: 'Committee',
  donationAccount: 'Donation account',
};
const notThere = (err: unknown) => isApiError(err) && err.status === 404;
/** Not under qk.sync: every gift refreshes that, and this one reads HQ. */
const CANDIDATES_KEY = ['sync-link-candidates'] as const;

type Candidates = ReferenceCandidates;
type Unlinked = Candidates['unlinked'][number];
const rowKey = (r: { kind: Link['kind']; localId: string }) => `${r.kind}:${r.localId}`;

export function SyncPull() {
  const api = useApi();
  const qc = useQueryClient();
  const pull = useQuery({
    queryKey: ['sync', 'pull'],
    queryFn: () => api.sync.pullStatus(),
    refetchInterval: (q) => (q.state.data?.run?.status === 'running' ? 1000 : false),
    retry: (n, err) => !notThere(err) && n < 2,
  });
  const start = useMutation({
    mutationFn: () => api.sync.pull(),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['sync', 'pull'] });
    },
  });
  if (pull.isError && notThere(pull.error)) return null; // this server has no pull routes
  const run = pull.data?.run ?? null;
  const running = run?.status === 'running';
  return (
    <div className="panel sync-status" aria-labelledby="sync-pull-title">
      <div className="sync-status-head">
        <h3 id="sync-pull-title" className="panel-title">
          Pull from HQ
        </h3>
        <Button busy={start.isPending || running} onClick={() => start.mutate()}>
          Pull from HQ
        </Button>
      </div>
      <p className="settings-inline-note muted">
        Brings HQ’s contacts here so gift entry finds existing donors instead of creating duplicates.
      </p>
      {run ? (
        running ? (
          <ProgressBar
            label={
              run.phase === 'reference' ? 'Reading HQ’s campaigns and accounts' : 'Reading HQ’s contacts'
            }
            value={run.pagesTotal === null ? null : run.pagesDone}
            max={run.pagesTotal ?? 1}
            detail={
              run.pagesTotal === null
                ? `${run.pagesDone} pages`
                : `${run.pagesDone} of ${run.pagesTotal} pages`
            }
          />
        ) : (
          <p className={`notice ${run.status === 'failed' ? 'notice-error' : 'notice-ok'}`} role="status">
            {run.status === 'failed'
              ? `The last pull stopped: ${run.error ?? 'unknown error'} (it resumes where it stopped).`
              : `Last pull ${new Date(run.finishedAt ?? run.startedAt).toLocaleString()}: ${run.counts.created} new, ${run.counts.updated} updated, ${run.counts.linked} linked, ${run.counts.unchanged} unchanged.`}
          </p>
        )
      ) : null}
      {start.isError ? (
        <p className="notice notice-error" role="alert">
          {start.error.message}
        </p>
      ) : null}
    </div>
  );
}

export function SyncLinks() {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  const links = useQuery({
    queryKey: ['sync', 'links'],
    queryFn: () => api.sync.links(),
    retry: (n, err) => !notThere(err) && n < 2,
  });
  const rows = links.data?.data ?? [];
  const unlinked = rows.filter((r) => r.remoteId === null).length;
  const candidates = useQuery({
    queryKey: CANDIDATES_KEY,
    queryFn: () => api.sync.linkCandidates(),
    enabled: unlinked > 0,
    retry: false, // the server has retried HQ already; its message says what went wrong
    refetchOnWindowFocus: false, // read again when the section opens, or with "Read HQ’s lists again"
  });
  const [confirmAll, setConfirmAll] = useState(false);
  const [allFailures, setAllFailures] = useState<Array<{ name: string; message: string }>>([]);
  const kinds = new Map((candidates.data?.kinds ?? []).map((k) => [k.kind, k]));
  const offers = new Map((candidates.data?.unlinked ?? []).map((u) => [rowKey(u), u]));
  const unlinkedNow = new Set(rows.filter((r) => r.remoteId === null).map(rowKey));
  const suggested = (candidates.data?.unlinked ?? []).filter(
    (u) => u.suggestedRemoteId !== null && unlinkedNow.has(rowKey(u)),
  );
  const hqName = (u: Unlinked) =>
    kinds.get(u.kind)?.hq.find((c) => c.remoteId === u.suggestedRemoteId)?.name ?? u.suggestedRemoteId ?? '';
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: qk.sync }),
      qc.invalidateQueries({ queryKey: CANDIDATES_KEY }),
    ]);
  const linkAll = useMutation({
    mutationFn: async (items: Unlinked[]) => {
      const linked: string[] = [];
      const failed: Array<{ name: string; message: string }> = [];
      // One at a time, each checked at HQ like a single link; one refused does not stop the rest.
      for (const u of items) {
        try {
          await api.sync.link({ kind: u.kind, localId: u.localId, remoteId: u.suggestedRemoteId ?? '' });
          linked.push(u.name);
        } catch (err) {
          failed.push({ name: u.name, message: sentence(errorMessage(err)) });
        }
      }
      return { linked, failed };
    },
    onSuccess: async (r) => {
      setConfirmAll(false);
      setAllFailures(r.failed);
      if (r.linked.length > 0) {
        toast.show({
          message: `${r.linked.length} linked to HQ${r.failed.length > 0 ? `; ${r.failed.length} not linked (see why below)` : ''}.`,
          tone: r.failed.length > 0 ? 'info' : 'success',
          duration: 3500,
        });
      }
      await refresh();
    },
  });
  if (links.isError && notThere(links.error)) return null;
  return (
    <div className="panel" aria-labelledby="sync-links-title">
      <h3 id="sync-links-title" className="panel-title">
        Linked to HQ{unlinked > 0 ? ` (${unlinked} not linked)` : ''}
      </h3>
      <Loaded
        query={links}
        noun="links"
        loading="Loading…"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState title="No campaigns, committees or donation accounts yet.">Nothing to link.</EmptyState>
        }
      >
        {unlinked > 0 ? (
          <>
            <p className="settings-inline-note">
              Gifts credited to an unlinked one wait (needs attention) until it is linked. Choose HQ’s record
              for each; HQ checks it before it is kept.
            </p>
            {candidates.isPending ? (
              <p className="settings-inline-note muted" role="status">
                Reading HQ’s campaigns, committees and donation accounts…
              </p>
            ) : candidates.isError ? (
              <div className="notice notice-error sync-link-problem" role="alert">
                <span>
                  Could not read HQ’s lists to choose from: {sentence(errorMessage(candidates.error))}{' '}
                  Meanwhile, HQ’s id can be typed for each one below (it is checked at HQ before it is kept).
                </span>
                <Button busy={candidates.isFetching} onClick={() => void candidates.refetch()}>
                  Try again
                </Button>
              </div>
            ) : (
              <>
                {[...kinds.values()]
                  .filter((k) => k.note)
                  .map((k) => (
                    <p key={k.kind} className="settings-inline-note">
                      {k.note}
                    </p>
                  ))}
                <div className="sync-link-actions">
                  {suggested.length > 0 ? (
                    <Button tone="primary" onClick={() => setConfirmAll(true)}>
                      {`Link all suggested (${suggested.length})`}
                    </Button>
                  ) : null}
                  <Button busy={candidates.isFetching} onClick={() => void candidates.refetch()}>
                    Read HQ’s lists again
                  </Button>
                </div>
              </>
            )}
            {allFailures.length > 0 ? (
              <div className="notice notice-error" role="alert">
                Not linked:
                <ul>
                  {allFailures.map((f) => (
                    <li key={f.name}>
                      “{f.name}”: {f.message}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </>
        ) : (
          <p className="settings-inline-note">
            Every one is linked to HQ: gifts for them go to HQ with HQ’s ids.
          </p>
        )}
        <Table
          className="settings-table"
          caption="Local campaigns, committees and donation accounts with their HQ ids"
          columns={['Name', 'Kind', 'HQ id']}
        >
          {rows.map((r) => (
            <tr key={rowKey(r)} className={r.remoteId === null ? 'sync-unlinked' : undefined}>
              <th scope="row">{r.name}</th>
              <td>{KIND_LABEL[r.kind]}</td>
              <td>
                {r.remoteId ? (
                  <code>{r.remoteId}</code>
                ) : candidates.isPending ? (
                  <span className="muted">Reading HQ’s list…</span>
                ) : (
                  <LinkCell
                    row={r}
                    kind={kinds.get(r.kind)}
                    offer={offers.get(rowKey(r))}
                    onLinked={refresh}
                  />
                )}
              </td>
            </tr>
          ))}
        </Table>
      </Loaded>
      <ConfirmDialog
        open={confirmAll}
        title={`Link ${suggested.length} ${suggested.length === 1 ? 'record' : 'records'} to HQ’s suggested ones?`}
        confirmLabel={`Link ${suggested.length}`}
        tone="primary"
        busy={linkAll.isPending}
        onConfirm={() => linkAll.mutate(suggested)}
        onCancel={() => setConfirmAll(false)}
      >
        <p>Each is checked at HQ before it is kept; gifts credited to them then go to HQ with these ids.</p>
        <ul className="sync-link-confirm-list">
          {suggested.map((u) => (
            <li key={rowKey(u)}>
              {KIND_LABEL[u.kind]} “{u.name}” → HQ’s “{hqName(u)}”
            </li>
          ))}
        </ul>
      </ConfirmDialog>
    </div>
  );
}
