/**
 * Pull from HQ (its contacts come down so gift entry finds existing donors; campaigns where
 * HQ lists them) with a bar of pages done of pages total, and the reference links: each local
 * campaign, committee and donation account with its HQ id, the unlinked ones highlighted
 * (their gifts wait), an HQ id entered once and checked at HQ before it is kept.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type { ReferenceLink } from '../../../shared/schemas/sync-pull.ts';
import { isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, EmptyState, ProgressBar, TextField, useToast } from '../../ui/index.ts';
import { sentence } from './forms.ts';
import { Loaded, SettingsTable } from './kit.tsx';

type Link = z.infer<typeof ReferenceLink>;
const KIND_LABEL: Record<Link['kind'], string> = {
  campaign: 'Campaign',
  committee: 'Committee',
  donationAccount: 'Donation account',
};
const notThere = (err: unknown) => isApiError(err) && err.status === 404;

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
  const links = useQuery({
    queryKey: ['sync', 'links'],
    queryFn: () => api.sync.links(),
    retry: (n, err) => !notThere(err) && n < 2,
  });
  if (links.isError && notThere(links.error)) return null;
  const rows = links.data?.data ?? [];
  const unlinked = rows.filter((r) => r.remoteId === null).length;
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
          <p className="settings-inline-note">
            Gifts credited to an unlinked one wait (needs attention) until it is linked.
          </p>
        ) : null}
        <SettingsTable
          caption="Local campaigns, committees and donation accounts with their HQ ids"
          columns={['Name', 'Kind', 'HQ id']}
        >
          {rows.map((r) => (
            <tr key={`${r.kind}:${r.localId}`} className={r.remoteId === null ? 'sync-unlinked' : undefined}>
              <th scope="row">{r.name}</th>
              <td>{KIND_LABEL[r.kind]}</td>
              <td>{r.remoteId ? <code>{r.remoteId}</code> : <LinkEntry row={r} />}</td>
            </tr>
          ))}
        </SettingsTable>
      </Loaded>
    </div>
  );
}

function LinkEntry({ row }: { row: Link }) {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const link = useMutation({
    mutationFn: () => api.sync.link({ kind: row.kind, localId: row.localId, remoteId: value.trim() }),
    onSuccess: async (r) => {
      toast.show({
        message: `“${row.name}” linked to HQ${r.remoteName ? `’s “${r.remoteName}”` : ''}.`,
        tone: 'success',
        duration: 3500,
      });
      await qc.invalidateQueries({ queryKey: qk.sync });
    },
    onError: (err) =>
      setError(sentence(isApiError(err) ? (err.issueFor('remoteId') ?? err.message) : err.message)),
  });
  return (
    <form
      className="settings-add-option"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!value.trim()) return setError('Type HQ’s id for it.');
        setError(undefined);
        link.mutate();
      }}
    >
      <TextField
        label={`HQ id for ${row.name}`}
        hideLabel
        placeholder="not linked — HQ id"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        error={error}
        autoComplete="off"
      />
      <Button type="submit" busy={link.isPending}>
        Link
      </Button>
    </form>
  );
}
