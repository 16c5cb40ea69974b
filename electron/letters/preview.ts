/**
 * The preview of a choice's first letter: the counts by one SQL aggregate, then the first
 * donor in letter order and that donor's gifts alone, merged and drawn on the renderer.
 */
import type { LetterChoice } from '#shared/schemas/letters.ts';
import { requireAccount } from '../domain/accounts/index.ts';
import { DomainError, type DomainContext } from '../domain/index.ts';
import { mergeLetter } from './merge.ts';
import { countChoice, firstDocument } from './paged.ts';
import { renderPdfBytes } from './render/thread.ts';
import { checkReferences, rangeOf, setHead } from './select.ts';
import { mergeContext } from './settings.ts';

/** The first letter of a choice as PDF bytes, rendered on a worker thread; 404 when nothing matches. */
export async function previewFirstLetter(
  ctx: DomainContext,
  accountId: string,
  choice: LetterChoice,
): Promise<{ pdf: Buffer; documents: number; gifts: number }> {
  await requireAccount(ctx, accountId);
  const db = ctx.store.db;
  const { range, year } = rangeOf(choice, ctx.now());
  await checkReferences(db, accountId, choice);
  const counts = await countChoice(db, accountId, choice, range);
  const doc = counts.documents === 0 ? null : await firstDocument(db, accountId, choice, range, counts);
  if (!doc)
    throw new DomainError(
      'not_found',
      'no_letters',
      'No completed gifts match this choice: there is no letter to show',
    );
  const { template, merge } = await mergeContext(ctx, accountId, setHead(choice, year));
  return {
    pdf: await renderPdfBytes([mergeLetter(template, doc, merge, 0)], 'Letter preview'),
    documents: counts.documents,
    gifts: counts.gifts,
  };
}
