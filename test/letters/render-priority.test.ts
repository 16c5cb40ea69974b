/**
 * A print run must not take the processor from gift entry: on Linux the letters' render
 * thread runs at a lower priority (a higher nice value) than the process that serves the app,
 * while the process itself keeps its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPdf, type LetterPage } from '../../electron/letters/index.ts';
import { tempDir } from '../helpers/server.ts';
import { threadNices } from './thread-nices.ts';

const dir = tempDir('giftdesk-letters-priority-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.skipIf(process.platform !== 'linux')('the letters render thread', () => {
  it('runs below the priority of the process serving gift entry while a run prints', async () => {
    const own = os.getPriority();
    const pages: LetterPage[] = Array.from({ length: 3000 }, (_, i) => ({
      blocks: [
        { kind: 'heading', text: 'Thank you' },
        { kind: 'paragraph', text: `Dear Nguyễn Thị Minh Khai ${i}, thank you for your gift of $${i}.00.` },
      ],
    }));
    const seen = new Set<number>();
    let rendering = true;
    const printing = renderPdf(pages, path.join(dir, 'letters.pdf'), () => {
      if (rendering) for (const n of threadNices().values()) seen.add(n);
    }).finally(() => (rendering = false));
    await printing;
    expect(own).toBe(os.getPriority());
    expect([...seen]).toContain(Math.min(19, own + 10));
  });
});
