/**
 * API keys for local scripts: create one (its secret is shown this once, with a curl line
 * ready to paste against this machine's address: NewKeyDialog.tsx), copy it, revoke keys with
 * a confirmation. The app's own windows (session keys: a browser tab opened from the printed
 * link, the desktop window) are not keys a person made: they are listed once, apart, as open
 * windows, and the others can be ended together (AppWindows.tsx). Ended sessions are not
 * listed (the server drops them).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { ApiKeyCreate, type ApiKey } from '#shared/schemas/extensions.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, ConfirmDialog, EmptyState, Loaded, Table, TextField } from '../../ui/index.ts';
import { dateTime } from '../../ui/format.ts';
import { AppWindows } from './AppWindows.tsx';
import { curlExample } from './curl.ts';
import { NewKeyDialog, type CreatedKey } from './NewKeyDialog.tsx';
import { NewItemForm } from './row-forms.tsx';
import { useAction, useSave, useSettingsForm } from './saving.ts';
import { SectionHeader } from './SectionHeader.tsx';

const CreateForm = ApiKeyCreate.omit({ accountId: true });
type FormOut = z.output<typeof CreateForm>;
type Key = z.infer<typeof ApiKey>;

/** A path as one shell word (quoted when it holds anything but plain path characters). */
const shellWord = (s: string) => (/^[\w./:\\-]+$/.test(s) ? s : `"${s}"`);

/** The command that makes a key on the computer where GiftDesk runs, for this window's data folder. */
export const keyCreateCommand = (accountId: string, dataDir: string | null) =>
  `npx giftdesk key create --account ${accountId}${dataDir ? ` --data-dir ${shellWord(dataDir)}` : ''} --label "what it is for"`;

export function ApiKeysSection() {
  const api = useApi();
  const keys = useQuery({ queryKey: qk.apiKeys, queryFn: () => api.apiKeys.list() });
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const all = keys.data?.data ?? [];
  const sessions = all.filter((k) => k.session !== null && k.revokedAt === null);
  // A browser window's key (one-time link) cannot create keys (the server answers 403): say where keys are made.
  // Only the desktop window has the preload bridge, so this is known before the list loads.
  const browserWindow = window.giftdesk === undefined;
  const origin = window.location.origin;

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
        <NewKeyForm onCreated={setCreated} />
      )}
      <ScriptKeys
        keys={keys}
        all={all}
        thisKeyId={api.keyId}
        emptyHint={
          browserWindow ? 'Create one as said above for a script.' : 'Create one above for a script.'
        }
        onRevoke={setRevoking}
      />
      {keys.data ? <AppWindows others={sessions.filter((k) => k.keyId !== api.keyId)} /> : null}
      <ScriptUse origin={origin} accountId={api.accountId} />
      {created ? <NewKeyDialog created={created} origin={origin} onClose={() => setCreated(null)} /> : null}
      <RevokeKeyDialog revoking={revoking} onDone={() => setRevoking(null)} />
    </section>
  );
}

/** The new-key form: what the key is for; the key made is handed to `onCreated` (its dialog says it: no toast). */
function NewKeyForm({ onCreated }: { onCreated: (key: CreatedKey) => void }) {
  const api = useApi();
  const f = useSettingsForm(CreateForm, { label: '' }, ['label']);
  const create = useSave(f, {
    mutationFn: (body: FormOut) => api.apiKeys.create({ label: body.label || null }),
    invalidate: [qk.apiKeys],
    onSaved: (k, body) => {
      f.form.reset({ label: '' });
      onCreated({ ...k, label: body.label || null });
    },
  });
  return (
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
  );
}

/**
 * The keys people made for scripts: the active ones in a table (this window's own marked, the
 * others with Revoke), the revoked ones folded away below. Sessions are not listed here.
 */
function ScriptKeys({
  keys,
  all,
  thisKeyId,
  emptyHint,
  onRevoke,
}: {
  keys: { isError: boolean; isPending: boolean; error: Error | null };
  all: Key[];
  thisKeyId: string;
  emptyHint: string;
  onRevoke: (key: Key) => void;
}) {
  const active = all.filter((k) => k.session === null && k.revokedAt === null);
  const revoked = all.filter((k) => k.session === null && k.revokedAt !== null);
  return (
    <>
      <Loaded
        query={keys}
        noun="keys"
        isEmpty={active.length === 0}
        empty={<EmptyState title="No API keys.">{emptyHint}</EmptyState>}
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
              <td>{dateTime(k.createdAt)}</td>
              <td>{dateTime(k.lastUsedAt)}</td>
              <td className="settings-row-actions">
                {k.keyId === thisKeyId ? (
                  <span className="badge">This window</span>
                ) : (
                  <Button
                    tone="quiet"
                    className="btn-quiet-danger"
                    onClick={() => onRevoke(k)}
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
                <span className="muted">revoked {dateTime(k.revokedAt)}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}

/** How a script uses a key: a curl line with placeholders for the key, and where the API's reference is. */
function ScriptUse({ origin, accountId }: { origin: string; accountId: string }) {
  const template = curlExample({ origin, accountId, keyId: 'gdk_…', secret: '$GIFTDESK_SECRET' });
  return (
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
  );
}

/** Asks before revoking `revoking` (none: closed), then revokes it; `onDone` closes it either way. */
function RevokeKeyDialog({ revoking, onDone }: { revoking: Key | null; onDone: () => void }) {
  const api = useApi();
  const revoke = useAction({
    mutationFn: (k: Key) => api.apiKeys.revoke(k.keyId),
    invalidate: [qk.apiKeys],
    done: (_r, k) =>
      `Key ${k.label ? `“${k.label}” ` : ''}revoked: scripts using it are refused from now on.`,
    onSaved: onDone,
    onFailed: onDone,
  });
  return (
    <ConfirmDialog
      open={revoking !== null}
      title={`Revoke ${revoking?.label ? `“${revoking.label}”` : (revoking?.keyId ?? 'this key')}?`}
      confirmLabel="Revoke key"
      busy={revoke.isPending}
      onConfirm={() => revoking && revoke.mutate(revoking)}
      onCancel={onDone}
    >
      <p>
        Scripts using <code>{revoking?.keyId}</code> are refused from the moment you revoke it. This cannot be
        undone: a script that still needs access needs a new key.
      </p>
    </ConfirmDialog>
  );
}
