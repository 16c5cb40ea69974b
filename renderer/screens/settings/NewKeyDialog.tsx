/**
 * The dialog that shows a new API key once: its id, what it is for, its secret and a curl line
 * ready to paste against this machine's address, each with a Copy button (the clipboard, or
 * where that is refused, the text selected for Ctrl+C).
 */
import { useId, useRef, useState } from 'react';
import type { z } from 'zod';
import type { ApiKeyCreated } from '#shared/schemas/extensions.ts';
import { Button, Dialog } from '../../ui/index.ts';
import { curlExample } from './curl.ts';

/** A key as just made, with its label as typed. */
export type CreatedKey = z.infer<typeof ApiKeyCreated> & { label: string | null };

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

/** A read-only box with its text and a Copy button (also used for a person's set-password link). */
export function CopyBox({ label, text, multiline }: { label: string; text: string; multiline?: boolean }) {
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

export function NewKeyDialog({
  created,
  origin,
  onClose,
}: {
  created: CreatedKey;
  /** This machine's address, as the app is served from it. */
  origin: string;
  onClose: () => void;
}) {
  return (
    <Dialog
      open
      wide
      title="Your new API key"
      onClose={onClose}
      actions={
        <Button tone="primary" onClick={onClose}>
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
  );
}
