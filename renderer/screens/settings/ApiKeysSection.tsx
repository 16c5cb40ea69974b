/**
 * API keys for local scripts: create one (its secret is shown this once, with a curl line
 * ready to paste against this machine's address), copy it, revoke keys with a confirmation.
 * The app's own windows (session keys: a browser tab opened from the printed link, the
 * desktop window) are not keys a person made: they are listed once, apart, as open windows,
 * and the others can be ended together. Ended sessions are not listed (the server drops them).
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import type { z } from 'zod';
import { ApiKeyCreate, type ApiKey, type ApiKeyCreated } from '#shared/schemas/extensions.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, ConfirmDialog, Dialog, EmptyState, Loaded, Table, TextField } from '../../ui/index.ts';
import { curlExample } from './curl.ts';
import { NewItemForm } from './row-forms.tsx';
import { useAction, useSave, useSettingsForm } from './saving.ts';
import { SectionHeader } from './SectionHeader.tsx';

const CreateForm = ApiKeyCreate.omit({ accountId: true });
type FormOut = z.output<typeof CreateForm>;
type Key = z.infer<typeof ApiKey>;
type Created = z.infer<typeof ApiKeyCreated>;

/** A path as one shell word (quoted when it holds anything but plain path characters). */
const shellWord = (s: string) => (/^[\w./:\\-]+$/.test(s) ? s : `"${s}"`);

/** The command that makes a key on the computer where GiftDesk runs, for this window's data folder. */
export const keyCreateCommand = (accountId: string, dataDir: string | null) =>
  `npx giftdesk key create --account ${accountId}${dataDir ? ` --data-dir ${shellWord(dataDir)}` : ''} --label "what it is for"`;

const stamp = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string | null) => (iso ? stamp.format(new Date(iso)) : '—');

/** Copies text; where the clipboard API is refused (e.g. no permission), selects the text and uses the copy command. */
async function copyText(
  text: string,
  fallback: HTMLTextAreaElement | HTMLInputElement | null,
): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!fallback) return false;
    fallback.focus();
    fallback.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

function CopyBox({ label, text, multiline }: { label: string; text: string; multiline?: boolean }) {
  const ref = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  return (
    <div className="settings-copy">
      <div className="field">
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
        {multiline ? (
          <textarea
            ref={ref}
            id={id}
            className="input settings-code"
            readOnly
            rows={4}
            value={text}
            spellCheck={false}
            onFocus={(e) => e.currentTarget.select()}
          />
        ) : (
          <input
            ref={ref}
            id={id}
            className="input settings-code"
            readOnly
            value={text}
            spellCheck={false}
            onFocus={(e) => e.currentTarget.select()}
          />
        )}
      </div>
      <div className="settings-copy-actions">
        <Button
          onClick={async () => setCopied((await copyText(text, ref.current)) ? 'yes' : 'no')}
          aria-describedby={copied ? `${id}-status` : undefined}
        >
          Copy {label.toLowerCase()}
        </Button>
        <span id={`${id}-status`} role="status" className="muted">
          {copied === 'yes' ? 'Copied.' : copied === 'no' ? 'Select it and press Ctrl+C.' : ''}
        </span>
      </div>
    </div>
  );
}

export function ApiKeysSection() {
  const api = useApi();
  const keys = useQuery({ queryKey: qk.apiKeys, queryFn: () => api.apiKeys.list() });
  const [created, setCreated] = useState<(Created & { label: string | null }) | null>(null);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const f = useSettingsForm(CreateForm, { label: '' }, ['label']);
  // No toast: the dialog with the secret says it.
  const create = useSave(f, {
    mutationFn: (body: FormOut) => api.apiKeys.create({ label: body.label || null }),
    invalidate: [qk.apiKeys],
    onSaved: (k, body) => {
      f.form.reset({ label: '' });
      setCreated({ ...k, label: body.label || null });
    },
  });
  const revoke = useAction({
    mutationFn: (k: Key) => api.apiKeys.revoke(k.keyId),
    invalidate: [qk.apiKeys],
    done: (_r, k) =>
      `Key ${k.label ? `“${k.label}” ` : ''}revoked: scripts using it are refused from now on.`,
    onSaved: () => setRevoking(null),
    onFailed: () => setRevoking(null),
  });

  const all = keys.data?.data ?? [];
  const sessions = all.filter((k) => k.session !== null && k.revokedAt === null);
  const active = all.filter((k) => k.session === null && k.revokedAt === null);
  const revoked = all.filter((k) => k.session === null && k.revokedAt !== null);
  const otherWindows = sessions.filter((k) => k.keyId !== api.keyId);
  const [endingOthers, setEndingOthers] = useState(false);
  const endOthers = useAction({
    mutationFn: async (ks: Key[]) => {
      for (const k of ks) await api.apiKeys.revoke(k.keyId);
      return ks.length;
    },
    invalidate: [qk.apiKeys],
    done: (n) =>
      `Ended ${n === 1 ? 'the other window’s session' : `the other ${n} windows’ sessions`}. A window still open asks for a fresh link.`,
    onSaved: () => setEndingOthers(false),
    onFailed: () => setEndingOthers(false),
  });
  // A browser window's key (one-time link) cannot create keys (the server answers 403): say where keys are made.
  // Only the desktop window has the preload bridge, so this is known before the list loads.
  const browserWindow = window.giftdesk === undefined;
  const origin = window.location.origin;
  const template = curlExample({
    origin,
    accountId: api.accountId,
    keyId: 'gdk_…',
    secret: '$GIFTDESK_SECRET',
  });

  return (
    <section aria-labelledby="settings-api-keys" className="settings-section">
      <SectionHeader id="settings-api-keys" title="API keys">
        Keys let scripts on this computer read and write through GiftDesk’s API at{' '}
        <code>{origin}/api/v1</code>, as they would at HQ. A key’s secret is shown once, when it is made.
      </SectionHeader>
      {browserWindow ? (
        <p className="notice" id="api-keys-browser-notice">
          A browser window cannot create API keys: its own key is the window’s session, and a key made through
          it would outlive that. Create keys in the GiftDesk desktop app, or on the computer where GiftDesk
          runs, in the GiftDesk folder (where <code>npm start</code> runs):{' '}
          <code data-testid="key-create-command">{keyCreateCommand(api.accountId, api.dataDir)}</code>
        </p>
      ) : (
        <NewItemForm
          titleId="new-key-title"
          title="New API key"
          onSubmit={f.form.handleSubmit((b) => create.mutate(b))}
          formError={f.formError}
        >
          <div className="settings-form-row">
            <TextField
              label="What it is for"
              hint="e.g. “nightly reconcile” — helps you recognise it later"
              autoComplete="off"
              data-autofocus
              error={f.form.formState.errors.label?.message}
              {...f.form.register('label')}
            />
            <Button type="submit" tone="primary" busy={create.isPending}>
              Create key
            </Button>
          </div>
        </NewItemForm>
      )}

      <Loaded
        query={keys}
        noun="keys"
        isEmpty={active.length === 0}
        empty={
          <EmptyState title="No API keys.">
            {browserWindow ? 'Create one as said above for a script.' : 'Create one above for a script.'}
          </EmptyState>
        }
      >
        <Table
          className="settings-table"
          caption="Active API keys"
          columns={['Key', 'For', 'Created', 'Last used']}
          actions="Actions"
        >
          {active.map((k) => (
            <tr key={k.keyId}>
              <th scope="row">
                <code>{k.keyId}</code>
              </th>
              <td>{k.label ?? <span className="muted">no label</span>}</td>
              <td>{when(k.createdAt)}</td>
              <td>{when(k.lastUsedAt)}</td>
              <td className="settings-row-actions">
                {k.keyId === api.keyId ? (
                  <span className="badge">This window</span>
                ) : (
                  <Button
                    tone="quiet"
                    className="btn-quiet-danger"
                    onClick={() => setRevoking(k)}
                    aria-label={`Revoke ${k.label ?? k.keyId}`}
                  >
                    Revoke
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      </Loaded>
      {revoked.length > 0 ? (
        <details className="settings-archived">
          <summary>Revoked keys ({revoked.length})</summary>
          <ul className="settings-plain-list">
            {revoked.map((k) => (
              <li key={k.keyId}>
                <code>{k.keyId}</code> {k.label ?? ''}{' '}
                <span className="muted">revoked {when(k.revokedAt)}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}

      {keys.data ? (
        <div className="panel" role="region" aria-labelledby="app-windows-title">
          <h3 id="app-windows-title" className="panel-title">
            Open app windows
          </h3>
          <p id="app-windows-summary">
            {otherWindows.length === 0
              ? 'This window only.'
              : `This window and ${otherWindows.length} other ${otherWindows.length === 1 ? 'window' : 'windows'} with a session open.`}{' '}
            <span className="muted">
              Each window has a session of its own, not an API key. A browser window’s outlives a restart of
              GiftDesk and ends after 12 hours unused; a browser tab that was closed keeps its session until
              then, unless you end it here.
            </span>
          </p>
          {otherWindows.length > 0 ? (
            <details className="settings-archived">
              <summary>The other windows ({otherWindows.length})</summary>
              <ul className="settings-plain-list">
                {otherWindows.map((k) => (
                  <li key={k.keyId}>
                    {k.session === 'desktop' ? 'Desktop app' : 'Browser window'}, opened {when(k.createdAt)}
                    {k.lastUsedAt ? `, last active ${when(k.lastUsedAt)}` : ''}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          {otherWindows.length > 0 ? (
            <Button className="btn-quiet-danger" tone="quiet" onClick={() => setEndingOthers(true)}>
              End the other windows’ sessions
            </Button>
          ) : null}
        </div>
      ) : null}

      <div className="panel">
        <h3 className="panel-title">Using a key from a script</h3>
        <p>Send the key id and its secret with every request. For example, the first five contacts:</p>
        <pre className="settings-code-block">{template}</pre>
        <p className="muted">
          The full reference of the API is at{' '}
          <a href={`${origin}/api/v1/docs`} target="_blank" rel="noreferrer">
            {origin}/api/v1/docs
          </a>
          .
        </p>
      </div>

      {created ? (
        <Dialog
          open
          wide
          title="Your new API key"
          onClose={() => setCreated(null)}
          actions={
            <Button tone="primary" onClick={() => setCreated(null)}>
              I have copied it
            </Button>
          }
        >
          <p className="notice notice-warn">
            Copy the secret now: GiftDesk keeps only a fingerprint of it and cannot show it again.
          </p>
          <dl className="settings-key-facts">
            <dt>Key id</dt>
            <dd>
              <code>{created.keyId}</code>
            </dd>
            {created.label ? (
              <>
                <dt>For</dt>
                <dd>{created.label}</dd>
              </>
            ) : null}
          </dl>
          <CopyBox label="Secret" text={created.secret} />
          <CopyBox
            label="curl example"
            text={curlExample({
              origin,
              accountId: created.accountId,
              keyId: created.keyId,
              secret: created.secret,
            })}
            multiline
          />
        </Dialog>
      ) : null}

      <ConfirmDialog
        open={endingOthers}
        title={`End ${otherWindows.length === 1 ? 'the other window’s session' : `the other ${otherWindows.length} windows’ sessions`}?`}
        confirmLabel="End sessions"
        busy={endOthers.isPending}
        onConfirm={() => endOthers.mutate(otherWindows)}
        onCancel={() => setEndingOthers(false)}
      >
        <p>
          This window stays open. A window whose session ends shows GiftDesk no more until it is opened again
          from the newest link printed where GiftDesk runs.
        </p>
      </ConfirmDialog>

      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.label ? `“${revoking.label}”` : (revoking?.keyId ?? 'this key')}?`}
        confirmLabel="Revoke key"
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => setRevoking(null)}
      >
        <p>
          Scripts using <code>{revoking?.keyId}</code> are refused from the moment you revoke it. This cannot
          be undone: a script that still needs access needs a new key.
        </p>
      </ConfirmDialog>
    </section>
  );
}
