/**
 * "Host this event": where this GiftDesk serves the event's hub (the address of this laptop
 * on the venue's network, or every network it is on, and a port), then the hub starts at
 * once — over HTTPS, with a certificate this laptop keeps — and the section shows its address,
 * its fingerprint and a pairing code.
 */
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, FormError, TextField } from '../../ui/index.ts';
import { useSave, useSettingsForm } from '../settings/saving.ts';
import { eventKeys } from './event-words.ts';

/** Every network this laptop is on: the address shown to stations is its own on the venue's. */
export const DEFAULT_HUB_HOST = '0.0.0.0';
export const DEFAULT_HUB_PORT = 4871;

const FormSchema = z.object({
  host: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' }),
  port: z
    .number({ error: 'must be a number from 1 to 65535' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be a number from 1 to 65535' })
    .max(65535, { error: 'must be a number from 1 to 65535' }),
});
type FormIn = z.input<typeof FormSchema>;
const FIELDS = ['host', 'port'] as const;

/**
 * The form's first values: where the hub served last — the address it listened on (0.0.0.0
 * stays 0.0.0.0, not the one network's address shown to stations) and the port of the address
 * it served (`https://H:PORT`) — else the defaults.
 */
function defaultsFrom(url: string | null, bindHost: string | null): FormIn {
  try {
    if (url) {
      const u = new URL(url);
      return {
        host: bindHost ?? u.hostname.replace(/^\[|\]$/g, ''),
        port: Number(u.port) || DEFAULT_HUB_PORT,
      };
    }
  } catch {
    /* not an address: the defaults */
  }
  return { host: DEFAULT_HUB_HOST, port: DEFAULT_HUB_PORT };
}

/**
 * `again`: this laptop hosts the event already but does not serve it now (GiftDesk was
 * started again): the same form starts serving it again, with the same certificate.
 */
export function HostForm({
  again = false,
  url = null,
  bindHost = null,
}: {
  again?: boolean;
  url?: string | null;
  bindHost?: string | null;
}) {
  const api = useApi();
  const qc = useQueryClient();
  const f = useSettingsForm(FormSchema, defaultsFrom(url, bindHost), FIELDS);
  const form = f.form;
  const save = useSave(f, {
    mutationFn: (body: z.output<typeof FormSchema>) => api.hub.host(body),
    invalidate: [qk.event, qk.hub],
    // The answer carries a fresh pairing code: the one shown first (no second code made).
    onSaved: (info) => {
      if (info.pairingCode && info.expiresAt)
        qc.setQueryData(eventKeys.code, {
          code: info.pairingCode,
          expiresAt: info.expiresAt,
          url: info.url,
          fingerprint: info.fingerprint,
          joinLink: info.joinLink,
        });
    },
    done: (info) => `This laptop is the event’s hub${info.url ? ` at ${info.url}` : ''}.`,
    doneMs: 5000,
  });
  const e = form.formState.errors;
  return (
    <form
      className="panel event-choice"
      aria-labelledby="event-host-title"
      noValidate
      onSubmit={form.handleSubmit((body) => save.mutate(body))}
    >
      <h3 id="event-host-title" className="panel-title">
        {again ? 'Serve the event again' : 'Host this event'}
      </h3>
      {again ? (
        <p className="notice notice-warn">
          This laptop hosts the event, but does not serve it right now (GiftDesk was started again): the
          stations cannot reach it. Serve it again on the same address; the stations carry on by themselves.
        </p>
      ) : (
        <p className="muted">
          This laptop becomes the event’s hub: the stations send their gifts here, see each other’s donors and
          gifts, and the hub sends everything to HQ when there is internet. Keep it on and plugged in all
          evening.
        </p>
      )}
      <div className="settings-form-row">
        <TextField
          label="Address"
          hint="0.0.0.0: every network this laptop is on (the stations are shown its address on the venue’s)."
          autoComplete="off"
          data-autofocus
          error={e.host?.message}
          {...form.register('host')}
        />
        <TextField
          label="Port"
          type="number"
          min={1}
          max={65535}
          step={1}
          fieldClassName="settings-narrow-wide"
          error={e.port?.message}
          {...form.register('port', { valueAsNumber: true })}
        />
      </div>
      <div className="settings-form-actions">
        <Button type="submit" tone="primary" busy={save.isPending}>
          {again ? 'Serve the event again' : 'Host this event'}
        </Button>
      </div>
      <FormError message={f.formError} />
    </form>
  );
}
