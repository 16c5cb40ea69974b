/**
 * "Join an event": the hub's address, the pairing code and the certificate's fingerprint the
 * hub shows — or its join link (what its QR code carries), pasted into the address, which
 * fills all three — and this station's name. The hub's refusals land at the field to check:
 * a wrong, used or expired code at the code, another certificate at the fingerprint, a hub
 * that does not answer at the address.
 *
 * `again`: the same form on a station the hub removed ("Pair this station again"), filled with
 * its hub's address, fingerprint and its name: with a new code from the coordinator the hub
 * takes it back as the same station, and what was typed meanwhile goes to the hub.
 *
 * `replace`: the same form on a station whose hub was lost ("Move to a replacement hub"): it
 * asks first, saying what happens — the old hub is forgotten, everything typed here goes to the
 * new hub again and the new hub keeps each gift once — then joins with `replace`.
 */
import { JoinProgress } from './JoinProgress.tsx';
import { useState } from 'react';
import { z } from 'zod';
import { parseHubAddress, parseJoinLink } from '#shared/hub-address.ts';
import { normaliseFingerprint, showPairingCode } from '#shared/hub-link.ts';
import { pairingCodeField } from '#shared/schemas/hub.ts';
import { requiredText } from '#shared/schemas/common.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { sentence } from '../../forms.ts';
import { useSwitchSession } from '../../session/session-switch.ts';
import { count } from '../../ui/format.ts';
import { Button, ConfirmDialog, FormError, TextField } from '../../ui/index.ts';
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

/** The station's hub and what waits for it, for the confirmation (replace only). */
export interface ReplacingHub {
  hubUrl: string | null;
  waiting: number;
}

/** The removed station's hub and name, to pair again (again only). */
export interface PairingAgain {
  hubUrl: string | null;
  fingerprint: string | null;
  name: string | null;
}

export function JoinForm({ replacing, again }: { replacing?: ReplacingHub; again?: PairingAgain } = {}) {
  const api = useApi();
  const [asking, setAsking] = useState<FormOut | null>(null);
  const switchSession = useSwitchSession();
  const f = useSettingsForm(
    FormSchema,
    again
      ? { url: again.hubUrl ?? '', code: '', fingerprint: again.fingerprint ?? '', name: again.name ?? '' }
      : EMPTY,
    FIELDS,
  );
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
      mutationFn: (body: FormOut) => api.event.join(replacing ? { ...body, replace: true } : body),
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
      done: (r, body) =>
        r.replaced
          ? `This laptop is now station “${body.name}” of the hub at ${body.url}; ${count(r.replaced.resent + r.replaced.donors, 'change')} typed here go to it again.`
          : again
            ? `This laptop is station “${r.event.station?.name ?? body.name}” of the event again: what was typed while it was removed goes to the hub now.`
            : `This laptop is now the event’s station “${body.name}”.`,
      doneMs: 5000,
    },
  );
  // A join link pasted (or typed) into the address fills the code and the fingerprint, and
  // leaves the hub's address itself in the field. Only a whole link does: a QR scanner types the
  // link key by key, and a link read half-way ("…#code=D") would fill a code of one letter and
  // send the rest of the link into the station's name.
  const fillFromLink = (value: string) => {
    const link = parseJoinLink(value);
    if (!link || link.code.length !== 8) return;
    form.setValue('url', link.url, { shouldValidate: true });
    form.setValue('code', showPairingCode(link.code), { shouldValidate: true });
    form.setValue('fingerprint', link.fingerprint, { shouldValidate: true });
    form.setFocus('name');
  };
  const e = form.formState.errors;
  return (
    <form
      className="panel event-choice"
      aria-labelledby="event-join-title"
      noValidate
      onSubmit={form.handleSubmit((body) => (replacing ? setAsking(body) : save.mutate(body)))}
    >
      <h3 id="event-join-title" className="panel-title">
        {replacing ? 'Move to a replacement hub' : again ? 'Pair this station again' : 'Join an event'}
      </h3>
      <JoinIntro mode={again ? 'again' : replacing ? 'replace' : 'join'} />
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
          {replacing ? 'Move to this hub' : again ? 'Pair again' : 'Join the event'}
        </Button>
      </div>
      {save.isPending ? <JoinProgress /> : null}
      <FormError message={f.formError} />
      {replacing ? (
        <ConfirmDialog
          open={asking !== null}
          title="Move this station to the replacement hub?"
          confirmLabel="Move and send everything again"
          tone="primary"
          busy={save.isPending}
          onConfirm={() => {
            if (asking) save.mutate(asking);
            setAsking(null);
          }}
          onCancel={() => setAsking(null)}
        >
          <p>
            This station leaves the hub at {replacing.hubUrl ?? 'its old address'} for good and becomes
            station “{asking?.name}” of the hub at {asking?.url}. Every gift and donor typed here is sent to
            the new hub again ({count(replacing.waiting, 'change')} had not reached the old hub); the new hub,
            and HQ after it, keep each gift once, by this station’s reference. Nothing typed here is lost or
            deleted.
          </p>
          <p>
            Do this only when the old hub is lost: its gifts from other stations come from those stations.
          </p>
        </ConfirmDialog>
      ) : null}
    </form>
  );
}

/** What the form is for, in a sentence or two. */
function JoinIntro({ mode }: { mode: 'join' | 'again' | 'replace' }) {
  return (
    <>
      {mode === 'again' ? (
        <p className="muted">
          Ask the coordinator for a new pairing code (the hub shows it in Settings → Event) and type it here.
          The hub takes this laptop back as the same station: its gifts are counted once, and what was typed
          while it was removed goes to the hub.
        </p>
      ) : mode === 'replace' ? (
        <p className="muted">
          Only when the hub laptop is lost for good (dropped, dead disk): host the event on another laptop,
          then type its address, a pairing code and its fingerprint here. Every gift and donor typed at this
          station goes to the new hub again; it keeps each once.
        </p>
      ) : (
        <p className="muted">
          This laptop becomes one of the event’s stations: its gifts go to the hub, and it finds the donors
          and gifts of every station. The hub shows what to type here (Settings, Event), and a QR code whose
          link fills all three.
        </p>
      )}
    </>
  );
}
