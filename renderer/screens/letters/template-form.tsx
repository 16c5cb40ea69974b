/**
 * One kind's wording in Settings → Letters: its heading and body with merge fields, saved on
 * its own, and "Reset to default" (after a confirmation: the edits are gone) back to the
 * default for the organisation's kind.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { LetterKind, LetterSettings, LetterTemplate } from '#shared/schemas/letters.ts';
import { errorMessage, isApiError } from '../../api/errors.ts';
import { useApi } from '../../api/provider.tsx';
import { qk } from '../../api/query-keys.ts';
import { sentence } from '../../forms.ts';
import { Button, ConfirmDialog, FormError, TextArea, TextField, useToast } from '../../ui/index.ts';

const TEMPLATE_LABEL: Record<LetterKind, string> = {
  receipt: 'Receipt',
  'thank-you': 'Thank-you letter',
  'year-end': 'Year-end statement',
};

/** The server's issue for this template's field, wherever in `templates` it was named. */
function issueAt(err: unknown, field: 'heading' | 'body'): string | undefined {
  if (!isApiError(err)) return undefined;
  const hit = err.details.find((d) => d.field.startsWith('templates') && d.field.endsWith(field));
  return hit ? sentence(hit.issue) : undefined;
}

export function TemplateForm({ template }: { template: LetterTemplate }) {
  const api = useApi();
  const qc = useQueryClient();
  const toast = useToast();
  const [heading, setHeading] = useState(template.heading);
  const [body, setBody] = useState(template.body);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    setHeading(template.heading);
    setBody(template.body);
  }, [template.heading, template.body]);
  const label = TEMPLATE_LABEL[template.kind];
  const save = useMutation({
    mutationFn: (change: { reset: true } | { heading: string; body: string }) =>
      api.letters.saveSettings({ templates: [{ kind: template.kind, ...change }] }),
    onSuccess: (s: LetterSettings, change) => {
      setAsking(false);
      qc.setQueryData(qk.letterSettings, s);
      toast.show({
        message: 'reset' in change ? `${label}: back to the default wording.` : `${label}: wording saved.`,
        tone: 'success',
      });
    },
    onError: () => setAsking(false),
  });
  const changed = heading !== template.heading || body !== template.body;
  const formError = save.isError && !issueAt(save.error, 'heading') && !issueAt(save.error, 'body');
  return (
    <form
      className="panel settings-form letters-template"
      noValidate
      aria-labelledby={`letters-template-${template.kind}`}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ heading, body });
      }}
    >
      <h3 id={`letters-template-${template.kind}`} className="panel-title">
        {label}{' '}
        {template.isDefault ? (
          <span className="badge">default wording</span>
        ) : (
          <span className="badge badge-ok">edited</span>
        )}
      </h3>
      <TextField
        label={`${label}: heading`}
        value={heading}
        onChange={(e) => setHeading(e.target.value)}
        error={issueAt(save.error, 'heading')}
      />
      <TextArea
        label={`${label}: body`}
        rows={10}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        error={issueAt(save.error, 'body')}
        hint="Merge fields such as {{donor.salutation}} and {{gifts}} are listed below."
      />
      <div className="settings-form-actions">
        <Button type="submit" tone="primary" busy={save.isPending && !asking} disabled={!changed}>
          Save {label.toLowerCase()}
        </Button>
        <Button onClick={() => setAsking(true)} disabled={template.isDefault && !changed}>
          Reset to default…
        </Button>
      </div>
      <FormError message={formError ? `Not saved: ${errorMessage(save.error)}` : null} />
      <ConfirmDialog
        open={asking}
        title={`Reset the ${label.toLowerCase()} to the default wording?`}
        confirmLabel="Reset to default"
        busy={save.isPending}
        onConfirm={() => save.mutate({ reset: true })}
        onCancel={() => setAsking(false)}
      >
        Your wording for the {label.toLowerCase()} is replaced by the default for your kind of organisation.
        Copy it somewhere first if you may want it back.
      </ConfirmDialog>
    </form>
  );
}
