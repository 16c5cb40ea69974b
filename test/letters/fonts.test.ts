/**
 * Why letters embed DejaVu Sans: set in PDF's standard Helvetica, names in Latin Extended and
 * Vietnamese come back from a PDF reader garbled; in the letters' own font every one comes
 * back exactly.
 */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import PDFDocument from 'pdfkit';
import { renderLettersToBuffer } from '../../electron/letters/index.ts';
import { pdfPages } from './pdf-text.ts';

const NAMES = [
  'Łukasz Żółć',
  'Nguyễn Thị Minh Khai',
  'Zoë Núñez',
  "Siobhán O'Brien",
  'Đặng Văn Lâm',
  'Ngô Bảo Châu',
];

async function helvetica(lines: string[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'LETTER' });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const end = once(doc, 'end');
  doc.font('Helvetica');
  for (const l of lines) doc.text(l);
  doc.end();
  await end;
  return Buffer.concat(chunks);
}

describe('the letters font', () => {
  it('reads every name back exactly, where a standard-font PDF garbles them', async () => {
    const ours = await renderLettersToBuffer([
      { blocks: NAMES.map((text) => ({ kind: 'paragraph' as const, text })) },
    ]);
    const [page] = await pdfPages(ours);
    expect(page).toEqual(NAMES);

    const [standard] = await pdfPages(await helvetica(NAMES));
    const garbled = NAMES.filter((n) => !standard!.includes(n));
    expect(garbled).toEqual(['Łukasz Żółć', 'Nguyễn Thị Minh Khai', 'Đặng Văn Lâm', 'Ngô Bảo Châu']);
  });
});
