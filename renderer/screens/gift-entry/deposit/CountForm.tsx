/**
 * The count, typed by the person closing the batch: per payment method the total counted (and
 * the number of checks or slips), who counted and a note. Each line's difference shows as it
 * is typed, and the whole count in a sentence; closing with a difference asks first, and the
 * server records it (POST /batches/:id/count).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { PaymentMethod } from '#shared/enums.ts';
import { BatchCountBody, type CountedLine, type DepositSummary } from '#shared/schemas/batch-balance.ts';
import { isApiError } from '../../../api/errors.ts';
import { useApi } from '../../../api/provider.tsx';
import { qk } from '../../../api/query-keys.ts';
import { humanIssue, orNull, schemaIssues, sentence, showIssues } from '../../../forms.ts';
import { Button, ConfirmDialog, TextField } from '../../../ui/index.ts';
import { METHOD_LABEL } from '../reference.ts';
import { type CountedInput, countSentence, countedMethods, countsItems, lineState } from './balance.ts';
import { MethodTable } from './MethodTable.tsx';

interface CountFormValues {
  countedBy: string;
  note: string;
  lines: Partial<Record<PaymentMethod, CountedInput>>;
}

type FormField = 'countedBy' | 'note' | `lines.${PaymentMethod}.count` | `lines.${PaymentMethod}.total`;

/** The body the form sends, or the issues that keep it from being sent. */
function bodyOf(
  v: CountFormValues,
  summary: DepositSummary,
  methods: readonly PaymentMethod[],
): { counted: CountedLine[]; missing: PaymentMethod[]; bad: PaymentMethod[] } {
  const counted: CountedLine[] = [];
  const missing: PaymentMethod[] = [];
  const bad: PaymentMethod[] = [];
  for (const m of methods) {
    const line = lineState(summary, m, v.lines[m]);
    const typed = v.lines[m]?.total.trim() ?? '';
    if (typed === '') {
      if (line.enteredCount > 0) missing.push(m);
      continue;
    }
    if (line.countedCents === null) {
      bad.push(m);
      continue;
    }
    const countText = v.lines[m]?.count.trim() ?? '';
    counted.push({
      paymentMethod: m,
      count: countText === '' ? null : /^\d+$/.test(countText) ? Number(countText) : Number.NaN,
      total: line.countedCents / 100,
    });
  }
  return { counted, missing, bad };
}

export function CountForm({ summary }: { summary: DepositSummary }) {
  const api = useApi();
  const client = useQueryClient();
  const methods = countedMethods(summary);
  const [topError, setTopError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<CountedLine[] | null>(null);
  const form = useForm<CountFormValues>({
    defaultValues: {
      countedBy: '',
      note: '',
      lines: Object.fromEntries(methods.map((m) => [m, { count: '', total: '' }])),
    },
  });
  const lines = useWatch({ control: form.control, name: 'lines' });
  const states = methods.map((m) => lineState(summary, m, lines[m]));
  const said = countSentence(states);
  const errors = form.formState.errors;

  const close = useMutation({
    mutationFn: (body: Omit<BatchCountBody, 'accountId'>) => api.batches.count(summary.batchId, body),
    onSuccess: async (answer) => {
      client.setQueryData(qk.batchDeposit(summary.batchId), answer);
      await client.invalidateQueries({ queryKey: qk.batches });
    },
  });

  const bodyFor = (counted: CountedLine[], acceptDifference: boolean) => {
    const v = form.getValues();
    return { countedBy: v.countedBy, note: orNull(v.note), counted, acceptDifference };
  };
  const show = (counted: CountedLine[], issues: Array<{ field: string; issue: string }>) => {
    const { rest } = showIssues<FormField>(
      issues,
      form.setError,
      (wire) => {
        const m = /^counted\[(\d+)\]\.(count|total|paymentMethod)$/.exec(wire);
        if (!m) return wire === 'countedBy' || wire === 'note' ? wire : null;
        const method = counted[Number(m[1])]?.paymentMethod;
        return method ? `lines.${method}.${m[2] === 'count' ? 'count' : 'total'}` : null;
      },
      { words: (issue) => sentence(humanIssue(issue)) },
    );
    setTopError(rest.length ? rest.map((r) => `${r.field} ${r.issue}`).join('; ') : null);
  };
  /** Shows what the shared schema finds wrong; true when nothing. */
  const fits = (counted: CountedLine[]) => {
    const issues = schemaIssues(BatchCountBody, { accountId: api.accountId, ...bodyFor(counted, true) });
    if (issues.length) show(counted, issues);
    return issues.length === 0;
  };
  const send = async (counted: CountedLine[], acceptDifference: boolean) => {
    try {
      await close.mutateAsync(bodyFor(counted, acceptDifference));
    } catch (err) {
      if (isApiError(err) && err.code !== 'count_differs' && err.details.length) show(counted, err.details);
      else setTopError(err instanceof Error ? err.message : String(err));
    }
  };

  const submit = form.handleSubmit(async (v) => {
    setTopError(null);
    const { counted, missing, bad } = bodyOf(v, summary, methods);
    for (const m of bad)
      form.setError(`lines.${m}.total`, { message: 'Must be an amount in dollars, like 1250 or 1250.50.' });
    for (const m of missing)
      form.setError(`lines.${m}.total`, {
        message: `Type what was counted for ${METHOD_LABEL[m].toLowerCase()} (0 if none).`,
      });
    const first = [...bad, ...missing][0];
    if (first) return form.setFocus(`lines.${first}.total`);
    if (!fits(counted)) return;
    if (countSentence(methods.map((m) => lineState(summary, m, v.lines[m])))?.differs)
      return setConfirming(counted);
    await send(counted, false);
  });

  return (
    <form className="deposit-count" onSubmit={submit} noValidate aria-label="Count">
      {topError ? (
        <div className="notice notice-error" role="alert">
          {topError}
        </div>
      ) : null}
      <MethodTable
        summary={summary}
        lines={states}
        counted={(m, i) => ({
          count: countsItems(m) ? (
            <TextField
              label={`${METHOD_LABEL[m]}: number counted`}
              hideLabel
              inputMode="numeric"
              className="deposit-count-input"
              {...form.register(`lines.${m}.count`)}
              error={errors.lines?.[m]?.count?.message}
            />
          ) : (
            <span className="muted">—</span>
          ),
          total: (
            <TextField
              label={`${METHOD_LABEL[m]}: total counted ($)`}
              hideLabel
              inputMode="decimal"
              autoFocus={i === 0}
              className="deposit-total-input"
              {...form.register(`lines.${m}.total`)}
              error={errors.lines?.[m]?.total?.message}
            />
          ),
        })}
      />
      <p
        className={`notice ${said === null ? '' : said.differs ? 'notice-warn' : 'notice-ok'}`}
        data-testid="count-difference"
        aria-live="polite"
      >
        {said?.text ?? 'Type what was counted for each payment method.'}
      </p>
      <div className="deposit-count-who">
        <TextField label="Counted by" {...form.register('countedBy')} error={errors.countedBy?.message} />
        <TextField label="Note (optional)" {...form.register('note')} error={errors.note?.message} />
        <Button tone="primary" type="submit" busy={close.isPending}>
          Close batch with this count
        </Button>
      </div>
      <ConfirmDialog
        open={confirming !== null}
        title="Close with a difference?"
        confirmLabel="Close and record the difference"
        tone="primary"
        busy={close.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const counted = confirming ?? [];
          setConfirming(null);
          void send(counted, true);
        }}
      >
        <p>{said?.text}</p>
        <p>The batch closes to new gifts and the difference is recorded with who counted.</p>
      </ConfirmDialog>
    </form>
  );
}
