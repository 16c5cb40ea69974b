/**
 * "Host this event": where this GiftDesk serves the event's hub (the address of this laptop
 * on the venue's network, or every network it is on, and a port), then the hub starts at
 * once — over HTTPS, with a certificate this laptop keeps — and the section shows its address,
 * its fingerprint and a pairing code.
 */
import { z } from 'zod';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, FormError, TextField } from '../../ui/index.ts';
import { useSave, useSettingsForm } from '../settings/saving.ts';

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

export function HostForm() {
  const api = useApi();
  const f = useSettingsForm(FormSchema, { host: DEFAULT_HUB_HOST, port: DEFAULT_HUB_PORT } satisfies FormIn, FIELDS);
  const form = f.form;
  const save = useSave(f, {
    mutationFn: (body: z.output<typeof FormSchema>) => api.hub.host(body),
    invalidate: [qk.event, qk.hub],
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
        Host this event
      </h3>
      <p className="muted">
        This laptop becomes the event’s hub: the stations send their gifts here, see each other’s donors and
        gifts, and the hub sends everything to HQ when there is internet. Keep it on and plugged in all evening.
      </p>
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
          Host this event
        </Button>
      </div>
      <FormError message={f.formError} />
    </form>
  );
}
