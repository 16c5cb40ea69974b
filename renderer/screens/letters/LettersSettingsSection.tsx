/**
 * Settings → Letters: what the account's letters say of it — the kind of organisation (a
 * charity's letters carry what a written acknowledgment needs; a political committee's say
 * contributions are not tax deductible), its name and address, who signs — and the wording of
 * each kind (receipt, thank-you letter, year-end statement), with the merge fields it may use
 * and "Reset to default".
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { ORG_KINDS, type LetterSettings, type OrgKind } from '#shared/schemas/letters.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { Button, FormError, Loaded, Select, TextArea, TextField } from '../../ui/index.ts';
import { useSave, useSettingsForm } from '../settings/saving.ts';
import { SectionHeader } from '../settings/SectionHeader.tsx';
import { TemplateForm } from './template-form.tsx';
import './letters.css';

export const ORG_KIND_LABEL: Record<OrgKind, string> = {
  charity: 'Charity (gifts may be tax deductible)',
  political: 'Political committee (contributions are not tax deductible)',
};

const OrgForm = z.object({
  orgKind: z.enum(ORG_KINDS),
  organizationName: z.string().trim().max(200, { error: 'must be at most 200 characters' }),
  organizationAddress: z.string().trim().max(500, { error: 'must be at most 500 characters' }),
  signerName: z.string().trim().max(200, { error: 'must be at most 200 characters' }),
  signerTitle: z.string().trim().max(200, { error: 'must be at most 200 characters' }),
});
type OrgIn = z.input<typeof OrgForm>;
const ORG_FIELDS = [
  'orgKind',
  'organizationName',
  'organizationAddress',
  'signerName',
  'signerTitle',
] as const;

const orgDefaults = (s: LetterSettings | undefined): OrgIn => ({
  orgKind: s?.orgKind ?? 'charity',
  organizationName: s?.organizationName ?? '',
  organizationAddress: s?.organizationAddress ?? '',
  signerName: s?.signerName ?? '',
  signerTitle: s?.signerTitle ?? '',
});

export function LettersSettingsSection() {
  const api = useApi();
  const settings = useQuery({ queryKey: qk.letterSettings, queryFn: () => api.letters.settings() });
  return (
    <section aria-labelledby="settings-letters" className="settings-section">
      <SectionHeader id="settings-letters" title="Letters">
        What receipts, thank-you letters and year-end statements say: the organisation, who signs, and the
        wording of each.
      </SectionHeader>
      <Loaded query={settings} noun="letter settings">
        {settings.data ? (
          <>
            <OrganisationForm current={settings.data} />
            {settings.data.templates.map((t) => (
              <TemplateForm key={t.kind} template={t} />
            ))}
            <MergeFields fields={settings.data.mergeFields} />
          </>
        ) : null}
      </Loaded>
    </section>
  );
}

function OrganisationForm({ current }: { current: LetterSettings }) {
  const api = useApi();
  const f = useSettingsForm(OrgForm, orgDefaults(current), ORG_FIELDS);
  const form = f.form;
  useEffect(() => form.reset(orgDefaults(current)), [current, form]);
  const save = useSave(f, {
    mutationFn: (body: z.output<typeof OrgForm>) =>
      api.letters.saveSettings({
        orgKind: body.orgKind,
        organizationName: body.organizationName || null,
        organizationAddress: body.organizationAddress || null,
        signerName: body.signerName || null,
        signerTitle: body.signerTitle || null,
      }),
    invalidate: [qk.letterSettings],
    done: () => 'Letter settings saved: the next letters printed use them.',
  });
  const e = form.formState.errors;
  const kind = form.watch('orgKind');
  return (
    <form
      className="panel settings-form"
      noValidate
      aria-labelledby="letters-org-title"
      onSubmit={form.handleSubmit((body) => save.mutate(body))}
    >
      <h3 id="letters-org-title" className="panel-title">
        Organisation and signer
      </h3>
      <Select
        label="Kind of organisation"
        data-autofocus
        options={ORG_KINDS.map((k) => ({ value: k, label: ORG_KIND_LABEL[k] }))}
        error={e.orgKind?.message}
        hint={
          kind === 'political'
            ? 'The default wording says contributions are not tax deductible. Templates you have edited keep your words.'
            : 'The default wording is a written acknowledgment: the organisation, the amount, the date, and that no goods or services were given in return. Templates you have edited keep your words.'
        }
        {...form.register('orgKind')}
      />
      <div className="settings-form-row">
        <TextField
          label="Organisation name"
          error={e.organizationName?.message}
          {...form.register('organizationName')}
        />
      </div>
      <TextArea
        label="Organisation address"
        rows={3}
        error={e.organizationAddress?.message}
        {...form.register('organizationAddress')}
      />
      <div className="settings-form-row">
        <TextField label="Signed by" error={e.signerName?.message} {...form.register('signerName')} />
        <TextField label="Signer’s title" error={e.signerTitle?.message} {...form.register('signerTitle')} />
      </div>
      <div className="settings-form-actions">
        <Button type="submit" tone="primary" busy={save.isPending}>
          Save organisation
        </Button>
      </div>
      <FormError message={f.formError} />
    </form>
  );
}

function MergeFields({ fields }: { fields: LetterSettings['mergeFields'] }) {
  return (
    <section className="panel letters-merge-fields" aria-labelledby="letters-merge-title">
      <h3 id="letters-merge-title" className="panel-title">
        Merge fields
      </h3>
      <p className="muted">Type one in a heading or a body, braces and all; each letter puts in its own.</p>
      <dl>
        {fields.map((m) => (
          <div key={m.name}>
            <dt>
              <code>{`{{${m.name}}}`}</code>
            </dt>
            <dd>{m.description}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
