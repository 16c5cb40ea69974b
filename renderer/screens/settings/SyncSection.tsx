/**
 * Settings → Sync: where this laptop sends its gifts and contacts (HQ address, key, rate,
 * schedule, email match; a save that changes the address or the key tries HQ first and is
 * refused with the reason at the field to check, "Save without testing" for a laptop set up
 * before the venue has internet), what the queue is doing (status panel, "Sync now"), and the
 * records that need a person (HQ's message, retry after editing, discard after a clear
 * confirmation). The secret is write-only: the server says only whether one is stored.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { SyncSettingsBody, type SyncSettings as SyncSettingsSchema } from '#shared/schemas/sync.ts';
import { ApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, Checkbox, FormError, Loaded, TextField } from '../../ui/index.ts';
import { useSave, useSettingsForm } from './saving.ts';
import { SectionHeader } from './SectionHeader.tsx';
import { SyncAttention } from './SyncAttention.tsx';
import { SyncLinks, SyncPull } from './SyncReference.tsx';
import { SyncStatusPanel } from './SyncStatusPanel.tsx';
import { syncKeys } from './sync-keys.ts';

type SyncSettings = z.infer<typeof SyncSettingsSchema>;

/** The form: the shared body, with the secret as typed ("" = keep the stored one) and numbers from their inputs. */
const FormSchema = SyncSettingsBody.omit({ accountId: true, secret: true }).extend({
  secret: z.string().max(500),
  ratePerSecond: SyncSettingsBody.shape.ratePerSecond.unwrap(),
  scheduleSeconds: SyncSettingsBody.shape.scheduleSeconds.unwrap(),
  emailMatch: z.boolean(),
});
type FormIn = z.input<typeof FormSchema>;
type FormOut = z.output<typeof FormSchema>;
const FIELDS = [
  'baseUrl',
  'keyId',
  'secret',
  'remoteAccountId',
  'ratePerSecond',
  'scheduleSeconds',
  'emailMatch',
] as const;

function defaults(s: SyncSettings | null | undefined): FormIn {
  return {
    baseUrl: s?.baseUrl ?? '',
    keyId: s?.keyId ?? '',
    secret: '',
    remoteAccountId: s?.remoteAccountId ?? '',
    ratePerSecond: s?.ratePerSecond ?? 5,
    scheduleSeconds: s?.scheduleSeconds ?? 60,
    emailMatch: s?.emailMatch ?? true,
  };
}

export function SyncSection() {
  const api = useApi();
  // The status says whether sync is configured; the settings are read only then (no 404 to log).
  const status = useQuery({ queryKey: syncKeys.status, queryFn: () => api.sync.status() });
  const configured = status.data?.configured === true;
  const settingsQuery = useQuery({
    queryKey: syncKeys.settings,
    queryFn: () => api.sync.settings(),
    enabled: configured,
  });
  const settings = status.isError
    ? { isError: true as const, isPending: false as const, error: status.error, data: undefined }
    : !status.data || (configured && settingsQuery.isPending)
      ? { isError: false as const, isPending: true as const, error: null, data: undefined }
      : settingsQuery.isError
        ? { isError: true as const, isPending: false as const, error: settingsQuery.error, data: undefined }
        : {
            isError: false as const,
            isPending: false as const,
            error: null,
            data: configured ? (settingsQuery.data ?? null) : null,
          };
  return (
    <section aria-labelledby="settings-sync" className="settings-section">
      <SectionHeader id="settings-sync" title="Sync">
        Where this laptop sends its gifts and contacts when a network is there. Nothing is lost while offline:
        everything waits here until HQ has it.
      </SectionHeader>
      <Loaded query={settings} noun="sync settings">
        {settings.data ? <SyncStatusPanel /> : null}
        <SettingsForm current={settings.data ?? null} />
        {settings.data ? <SyncAttention /> : null}
        {settings.data ? <SyncLinks /> : null}
        {settings.data ? <SyncPull /> : null}
      </Loaded>
    </section>
  );
}

/** Whether the save changes where or as whom GiftDesk connects (then HQ is tried first). */
function changesConnection(body: FormOut, current: SyncSettings | null): boolean {
  return (
    !current ||
    body.secret !== '' ||
    body.baseUrl.trim() !== current.baseUrl ||
    body.keyId.trim() !== current.keyId ||
    body.remoteAccountId.trim() !== current.remoteAccountId
  );
}

function SettingsForm({ current }: { current: SyncSettings | null }) {
  const api = useApi();
  const qc = useQueryClient();
  const f = useSettingsForm(FormSchema, defaults(current), FIELDS);
  const form = f.form;
  // HQ refused or could not be reached on the last try: saving without the test is offered.
  const [untested, setUntested] = useState<FormOut | null>(null);
  useEffect(() => form.reset(defaults(current)), [current, form]);
  const save = useSave(f, {
    mutationFn: async ({ body, test }: { body: FormOut; test: boolean }) => {
      const { secret, ...rest } = body;
      try {
        return await api.sync.saveSettings({
          ...rest,
          ...(secret !== '' ? { secret } : {}),
          ...(test ? { testConnection: true } : {}),
        });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'hq_connection_failed') setUntested(body);
        throw err;
      }
    },
    invalidate: [qk.sync],
    onSaved: (s) => {
      setUntested(null);
      qc.setQueryData(syncKeys.settings, s);
      form.reset(defaults(s));
    },
    done: (_s, { test }) =>
      test
        ? 'HQ answered and took the key: sync settings saved. The secret is stored encrypted and is never shown again.'
        : 'Sync settings saved. The secret is stored encrypted and is never shown again.',
    doneMs: 4000,
  });
  const onSubmit = form.handleSubmit((body) => {
    if (!current?.hasSecret && body.secret === '') {
      form.setError(
        'secret',
        { type: 'required', message: 'Is required the first time.' },
        { shouldFocus: true },
      );
      return;
    }
    setUntested(null);
    save.mutate({ body, test: changesConnection(body, current) });
  });
  const e = form.formState.errors;
  return (
    <form
      className="panel settings-form"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="sync-settings-title"
    >
      <h3 id="sync-settings-title" className="panel-title">
        HQ connection
      </h3>
      {!current ? (
        <p className="settings-inline-note muted">
          Sync is not set up yet: nothing is sent anywhere until these are saved.
        </p>
      ) : null}
      <div className="settings-form-row">
        <TextField
          label="HQ address"
          hint="The base URL of HQ, e.g. https://hq.example.org (the API is under /api/v1)."
          autoComplete="off"
          inputMode="url"
          error={e.baseUrl?.message}
          {...form.register('baseUrl')}
        />
      </div>
      <div className="settings-form-row">
        <TextField label="Key id" autoComplete="off" error={e.keyId?.message} {...form.register('keyId')} />
        <TextField
          label="Secret"
          type="password"
          autoComplete="new-password"
          placeholder={current?.hasSecret ? 'saved — type to replace' : ''}
          hint={
            current?.hasSecret
              ? 'A secret is saved (encrypted). Leave empty to keep it.'
              : 'Shown once by HQ when the key was made.'
          }
          error={e.secret?.message}
          {...form.register('secret')}
        />
        <TextField
          label="HQ account id"
          autoComplete="off"
          error={e.remoteAccountId?.message}
          {...form.register('remoteAccountId')}
        />
      </div>
      <div className="settings-form-row">
        <TextField
          label="Requests per second"
          type="number"
          step="any"
          min={0}
          hint="HQ's rate limit (default 5)."
          fieldClassName="settings-narrow-wide"
          error={e.ratePerSecond?.message}
          {...form.register('ratePerSecond', { valueAsNumber: true })}
        />
        <TextField
          label="Sync every (seconds)"
          type="number"
          step={1}
          min={5}
          hint="While online; also on demand and when the network comes back."
          fieldClassName="settings-narrow-wide"
          error={e.scheduleSeconds?.message}
          {...form.register('scheduleSeconds', { valueAsNumber: true })}
        />
      </div>
      <Checkbox
        label="Before creating a contact at HQ, link to HQ's contact with the same primary email"
        {...form.register('emailMatch')}
      />
      <div className="settings-form-actions">
        <Button type="submit" tone="primary" busy={save.isPending}>
          {current ? 'Save sync settings' : 'Set up sync'}
        </Button>
      </div>
      <FormError message={f.formError} />
      {untested && !save.isPending ? (
        <div className="notice notice-warn" data-testid="sync-save-untested">
          <p>
            Nothing was saved: HQ did not answer or did not take the key (see above). Setting up before the
            venue has internet? Save anyway: everything waits here and goes once HQ answers.
          </p>
          <Button tone="quiet" onClick={() => save.mutate({ body: untested, test: false })}>
            Save without testing
          </Button>
        </div>
      ) : null}
    </form>
  );
}
