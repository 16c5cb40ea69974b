/**
 * A run's PDF is drawn in bounded memory however many letters it has: the document's output
 * waits in memory only until the file takes it (pdfkit pushes it regardless, and a thread that
 * draws letter after letter never lets the file write), and the words pdfkit has laid out are
 * forgotten every few hundred letters (on a run's letters most words are new: names, amounts).
 * Drawn on this thread, into a real file, read back with pdf.js.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { openLettersFile } from '../../electron/letters/render/pdf.ts';
import type { LetterPage } from '../../electron/letters/render/pages.ts';
import { tempDir } from '../helpers/server.ts';

const NAMES = [
  'Robert Brown',
  'Robert Brown',
  'Łukasz Żółć',
  'lukasz zolc',
  'Nguyễn Thị Minh',
  'Maria Lopez',
];

function letter(i: number): LetterPage {
  const name = `${NAMES[i % NAMES.length]} (${i})`;
  return {
    blocks: [
      { kind: 'letterhead', lines: ['Riverside Food Bank', '12 River Rd, Springfield'] },
      { kind: 'heading', text: `Your 2026 giving, ${name}` },
      { kind: 'paragraph', text: `Dear ${name},\nThank you for your support this year.` },
      {
        kind: 'table',
        columns: ['Date', 'Campaign', 'Method', 'Amount'],
        rows: [
          ['2026-03-14', 'Gala 2026', 'cash', '$19.99'],
          ['2026-03-14', 'Gala 2026', 'cash', '$19.99'],
          [`2026-11-${String((i % 28) + 1).padStart(2, '0')}`, 'Year-end appeal', 'check', `$${i}.00`],
        ],
        footer: ['', 'Total', '', `$${i + 39}.98`],
      },
    ],
  };
}

describe('a run’s PDF in bounded memory', () => {
  it('3,000 letters: the output waiting for the file and the words laid out stay bounded, and every letter is in the file', async () => {
    const out = path.join(tempDir('giftdesk-held-'), 'run.pdf');
    const file = openLettersFile(out, { title: 'Year-end statements' });
    let outputPeak = 0;
    let layoutsPeak = 0;
    for (let i = 0; i < 3000; i++) {
      await file.add(letter(i));
      const h = file.held();
      outputPeak = Math.max(outputPeak, h.outputBytes);
      layoutsPeak = Math.max(layoutsPeak, h.layouts);
    }
    await file.close();
    // The whole run's output is ~2 MiB; at most the backlog (64 KiB) and one letter wait.
    expect(outputPeak).toBeLessThan(96 * 1024);
    // Each letter brings about ten new words (its name, number, date and amounts): 3,000
    // letters lay out some 30,000; a few hundred letters' worth at a time about 5,000.
    expect(layoutsPeak).toBeLessThan(10_000);
    const doc = await getDocument({ data: new Uint8Array(fs.readFileSync(out)), verbosity: 0 }).promise;
    expect(doc.numPages).toBe(3000);
    const textOf = async (n: number) =>
      (await (await doc.getPage(n)).getTextContent()).items
        .map((item) => ('str' in item ? item.str.normalize('NFC') : ''))
        .join('');
    expect(await textOf(4)).toContain('lukasz zolc (3)');
    expect(await textOf(2997)).toContain('Łukasz Żółć (2996)');
    expect(await textOf(3000)).toContain('$3038.98');
    await doc.destroy();
  });
});
