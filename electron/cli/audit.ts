/**
 * `giftdesk audit export --account ID --from DATE --to DATE [--out FILE]`: who did what in a
 * window, as CSV (the columns of AUDIT_COLUMNS): each gift entered, each later change of a gift
 * or a donor, each batch count — who (the person, else the key; the station), the fields, each
 * value before and after, the reason given. `--to` as a date covers that whole UTC day. CSV on
 * stdout, or into FILE (readable by this user only; {"written": N} with --json).
 */
import type { Command } from 'commander';
import fs from 'node:fs';
import { AUDIT_COLUMNS } from '#shared/schemas/history.ts';
import { auditRows, csvLine } from '../domain/import-export/index.ts';
import { type CommonOptions, common, withAccount } from './context.ts';
import { CliError, print } from './output.ts';

interface AuditOptions extends CommonOptions {
  account: string;
  from: string;
  to: string;
  out?: string;
}

export function registerAuditCommands(program: Command): void {
  const audit = program
    .command('audit')
    .description('who did what: the audit trail of gifts, donors and counts');
  common(
    audit
      .command('export')
      .description(
        'export who did what between two dates as CSV: gifts entered, corrections, voids, refunds, redesignations, thank-you marks, donor edits and merges, batch counts',
      )
      .requiredOption('--account <id>', 'account id')
      .requiredOption('--from <date>', 'from this date or instant (ISO 8601, e.g. 2026-12-01)')
      .requiredOption('--to <date>', 'to this date (the whole UTC day) or instant')
      .option('--out <file>', 'write to this file instead of stdout'),
  ).action(async (o: AuditOptions) => {
    const rows = await withAccount(o, (ctx) => auditRows(ctx, o.account, { from: o.from, to: o.to }));
    const text = csvLine([...AUDIT_COLUMNS]) + rows.map((r) => csvLine(r)).join('');
    if (!o.out) {
      process.stdout.write(text);
      return;
    }
    try {
      fs.writeFileSync(o.out, text, { mode: 0o600 }); // who did what to donors: this user only
    } catch (err) {
      throw new CliError(`cannot write ${o.out}: ${(err as Error).message}`, 73, 'cannot_write');
    }
    print(o, { written: rows.length }, () => `Wrote ${rows.length} audit rows to ${o.out}`);
  });
}
