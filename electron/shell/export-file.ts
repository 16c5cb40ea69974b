/**
 * The desktop menu's "Export CSV…": an account's contacts or donations written to a file the
 * user chose, page by page (the main process never holds the whole export), through a temp
 * file renamed into place so a failed export leaves no half file behind.
 */
import type { ImportKind } from '#shared/schemas/imports.ts';
import fs from 'node:fs';
import { exportCsv } from '../domain/import-export/index.ts';
import type { DomainContext } from '../domain/index.ts';

export async function exportCsvToFile(
  ctx: DomainContext,
  kind: ImportKind,
  accountId: string,
  file: string,
): Promise<void> {
  const tmp = `${file}.part`;
  const out = fs.createWriteStream(tmp, { mode: 0o600 });
  try {
    for await (const page of exportCsv(ctx, kind, accountId)) {
      if (!out.write(page.text)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((resolve, reject) =>
      out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
    await fs.promises.rename(tmp, file);
  } catch (err) {
    out.destroy();
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
}
