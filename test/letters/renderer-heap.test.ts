/**
 * A letter renderer's old generation is bounded by what one part's document keeps: a renderer
 * that outgrows its bound fails its job with V8's out-of-memory code (the run then fails,
 * saying so), and the next job gets a fresh renderer. Real worker threads, PDFs read back
 * with pdf.js. Its own file: the limit applies to renderers started after it is set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type LetterPage,
  letterRunLimits,
  renderPdf,
  rendererHeapMiB,
  rendererLimits,
} from '../../electron/letters/index.ts';
import { tempDir } from '../helpers/server.ts';
import { pdfPages } from './pdf-text.ts';

const dir = tempDir('giftdesk-renderer-heap-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const letters = (n: number): LetterPage[] =>
  Array.from({ length: n }, (_, i) => ({
    blocks: [
      { kind: 'paragraph' as const, text: `Dear Łukasz Żółć (${i}), thank you for your gift of $19.99.` },
    ],
  }));

describe("a renderer's heap", () => {
  it('is bounded: outgrowing it fails the job with the out-of-memory code, and the next job draws on a fresh renderer', async () => {
    rendererLimits.oldGenerationMiB = 2;
    try {
      await expect(renderPdf(letters(50), path.join(dir, 'small.pdf'))).rejects.toMatchObject({
        code: 'ERR_WORKER_OUT_OF_MEMORY',
      });
      expect(fs.existsSync(path.join(dir, 'small.pdf'))).toBe(false);
    } finally {
      rendererLimits.oldGenerationMiB = null;
    }
    // The renderer given back after the failure started under the 2-MiB bound and could not
    // load; the next job must not be handed a dead one.
    await renderPdf(letters(50), path.join(dir, 'after.pdf'));
    expect((await pdfPages(path.join(dir, 'after.pdf'))).length).toBe(50);
  });

  it("follows the run's part size: 48 MiB for the default 15,000 letters, more for larger parts", () => {
    expect(letterRunLimits.lettersPerPart).toBe(15_000);
    expect(rendererHeapMiB(15_000)).toBe(48);
    expect(rendererHeapMiB(100_000)).toBeGreaterThan(140);
    expect(rendererHeapMiB(1)).toBe(31);
  });
});
