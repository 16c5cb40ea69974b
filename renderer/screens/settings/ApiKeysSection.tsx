/**
 * API keys for local scripts: create one (its secret is shown this once, with a curl line
 * ready to paste against this machine's address), copy it, revoke keys with a confirmation.
 * The key this window itself uses is marked and cannot be revoked from here.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiKeyCreate, type ApiKey, type ApiKeyCreated } from '../../../shared/schemas/extensions.ts';
import { errorMessage } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, ConfirmDialog, Dialog, EmptyState, TextField, useToast } from '../../ui/index.ts';
import { curlExample } from './curl.ts';
import { sentenceResolver, showApiError } from './forms.ts';
import { SectionHeader } from './SectionHeader.tsx';

const CreateForm = ApiKeyCreate.omit({ accountId: true });
type FormIn = z.input<typeof CreateForm>;
type FormOut = z.output<typeof CreateForm>;
type Key = z.infer<typeof ApiKey>;
type Created = z.infer<typeof ApiKeyCreated>;

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
  const qc = useQueryClient();
  const toast = useToast();
  const keys = useQuery({ queryKey: qk.apiKeys, queryFn: () => api.apiKeys.list() });
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<(Created & { label: string | null }) | null>(null);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: sentenceResolver(zodResolver(CreateForm)),
    defaultValues: { label: '' },
  });
  const create = useMutation({
    mutationFn: (body: FormOut) => api.apiKeys.create({ label: body.label || null }),
    onSuccess: async (k, body) => {
      form.reset({ label: '' });
      setFormError(null);
      setCreated({ ...k, label: body.label || null });
      await qc.invalidateQueries({ queryKey: qk.apiKeys });
    },
    onError: (err) => setFormError(showApiError(err, form.setError, ['label'])),
  });
  const revoke = useMutation({
    mutationFn: (k: Key) => api.apiKeys.revoke(k.keyId),
    onSuccess: async (_r, k) => {
      setRevoking(null);
      toast.show({
        message: `Key ${k.label ? `“${k.label}” ` : ''}revoked: scripts using it are refused from now on.`,
        tone: 'success',
        duration: 3500,
      });
      await qc.invalidateQueries({ queryKey: qk.apiKeys });
    },
    onError: (err) => {
      setRevoking(null);
      toast.show({ message: errorMessage(err), tone: 'error' });
    },
  });

  const all = keys.data?.data ?? [];
  const active = all.filter((k) => k.revokedAt === null);
  const revoked = all.filter((k) => k.revokedAt !== null);
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
      <form
        className="panel settings-form"
        onSubmit={form.handleSubmit((b) => create.mutate(b))}
        noValidate
        aria-labelledby="new-key-title"
      >
        <h3 id="new-key-title" className="panel-title">
          New API key
        </h3>
        <div className="settings-form-row">
          <TextField
            label="What it is for"
            hint="e.g. “nightly reconcile” — helps you recognise it later"
            autoComplete="off"
            data-autofocus
            error={form.formState.errors.label?.message}
            {...form.register('label')}
          />
          <Button type="submit" tone="primary" busy={create.isPending}>
            Create key
          </Button>
        </div>
        {formError ? (
          <p className="notice notice-error" role="alert">
            {formError}
          </p>
        ) : null}
      </form>

      {keys.isError ? (
        <p className="notice notice-error" role="alert">
          The keys could not be loaded: {keys.error.message}
        </p>
      ) : keys.isPending ? (
        <p className="muted">Loading keys…</p>
      ) : active.length === 0 ? (
        <EmptyState title="No API keys.">Create one above for a script.</EmptyState>
      ) : (
        <table className="table settings-table">
          <caption className="visually-hidden">Active API keys</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">For</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      )}
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
