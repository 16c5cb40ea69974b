/**
 * "Join an event": the hub's address, the pairing code and the certificate's fingerprint the
 * hub shows — or its join link (what its QR code carries), pasted into the address, which
 * fills all three — and this station's name. The hub's refusals land at the field to check:
 * a wrong, used or expired code at the code, another certificate at the fingerprint, a hub
 * that does not answer at the address.
 */
import { z } from 'zod';
import { parseHubAddress } from '#shared/hub-address.ts';
import { normaliseFingerprint } from '#shared/hub-link.ts';
import { pairingCodeField } from '#shared/schemas/hub.ts';
import { requiredText } from '#shared/schemas/common.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { sentence } from '../../forms.ts';
import { useSwitchSession } from '../../session/session-switch.ts';
import { Button, FormError, TextField } from '../../ui/index.ts';
import { useSave, useSettingsForm } from '../settings/saving.ts';
import { joinFieldOf } from './event-words.ts';

const FormSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(500, { error: 'must be at most 500 characters' })
    .superRefine((v, ctx) => {
      const link = parseHubAddress(v);
      if ('problem' in link) ctx.addIssue({ code: 'custom', message: link.problem });
    }),
  code: pairingCodeField,
  fingerprint: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .refine((v) => normaliseFingerprint(v) !== null, {
      error: 'must be sha256: followed by the certificate’s 64 hex digits',
    }),
  name: requiredText(80),
});
type FormIn = z.input<typeof FormSchema>;
type FormOut = z.output<typeof FormSchema>;
const FIELDS = ['url', 'code', 'fingerprint', 'name'] as const;
const EMPTY: FormIn = { url: '', code: '', fingerprint: '', name: '' };

export function JoinForm() {
  const api = useApi();
  const switchSession = useSwitchSession();
  const f = useSettingsForm(FormSchema, EMPTY, FIELDS);
  const form = f.form;
  const save = useSave(
    {
      ...f,
      // A refusal from the hub says which of the three to check: it goes to that field.
      showError: (err) => {
        const field = joinFieldOf(err);
        if (field && err instanceof Error) {
          form.setError(field, { type: 'issue', message: sentence(err.message) }, { shouldFocus: true });
          f.setFormError(null);
        } else f.showError(err);
      },
    },
    {
      mutationFn: (body: FormOut) => api.event.join(body),
      invalidate: [
        qk.event,
        qk.sync,
        qk.contacts,
        qk.campaigns,
        qk.committees,
        qk.donationAccounts,
        qk.account,
      ],
      // The event's account is the hub's: this window goes on in it, with the key the join gave.
      onSaved: (r) => {
        if (r.session) switchSession({ ...r.session, dataDir: api.dataDir });
      },
      done: (_r, body) => `This laptop is now the event’s station “${body.name}”.`,
      doneMs: 5000,
    },
  );
  // A join link pasted (or typed) into the address fills the code and the fingerprint, and
  // leaves the hub's address itself in the field.
  const fillFromLink = (value: string) => {
    const link = parseHubAddress(value);
    if ('problem' in link || (!link.code && !link.fingerprint)) return;
    form.setValue('url', link.url, { shouldValidate: true });
    if (link.code) form.setValue('code', link.code, { shouldValidate: true });
    if (link.fingerprint) form.setValue('fingerprint', link.fingerprint, { shouldValidate: true });
    form.setFocus('name');
  };
  const e = form.formState.errors;
  return (
    <form
      className="panel event-choice"
      aria-labelledby="event-join-title"
      noValidate
      onSubmit={form.handleSubmit((body) => save.mutate(body))}
    >
      <h3 id="event-join-title" className="panel-title">
        Join an event
      </h3>
      <p className="muted">
        This laptop becomes one of the event’s stations: its gifts go to the hub, and it finds the donors and
        gifts of every station. The hub shows what to type here (Settings, Event), and a QR code whose link
        fills all three.
      </p>
      <TextField
        label="Hub address or join link"
        hint="https://… as the hub shows it; paste the QR code’s link to fill the code and fingerprint too."
        autoComplete="off"
        inputMode="url"
        error={e.url?.message}
        {...form.register('url', {
          onChange: (ev: { target: { value: string } }) => fillFromLink(ev.target.value),
        })}
      />
      <div className="settings-form-row">
        <TextField
          label="Pairing code"
          hint="XXXX-XXXX; each code pairs one station, for 10 minutes."
          autoComplete="off"
          autoCapitalize="characters"
          fieldClassName="settings-narrow-wide"
          error={e.code?.message}
          {...form.register('code')}
        />
        <TextField
          label="Station name"
          hint="What the hub and the board call this laptop, e.g. Table B."
          autoComplete="off"
          error={e.name?.message}
          {...form.register('name')}
        />
      </div>
      <TextField
        label="Certificate fingerprint"
        hint="sha256:… — the hub shows it; a hub with another certificate is refused."
        autoComplete="off"
        spellCheck={false}
        className="event-mono"
        error={e.fingerprint?.message}
        {...form.register('fingerprint')}
      />
      <div className="settings-form-actions">
        <Button type="submit" tone="primary" busy={save.isPending}>
          Join the event
        </Button>
      </div>
      <FormError message={f.formError} />
    </form>
  );
}
