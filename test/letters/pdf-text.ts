/**
 * Reading a PDF back as a person's PDF reader would: pdf.js (its legacy build, for Node)
 * extracts each page's text; each text run is a line here.
 */
import fs from 'node:fs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export async function pdfPages(fileOrBytes: string | Uint8Array): Promise<string[][]> {
  const data =
    typeof fileOrBytes === 'string'
      ? new Uint8Array(fs.readFileSync(fileOrBytes))
      : new Uint8Array(fileOrBytes);
  const doc = await getDocument({ data, verbosity: 0 }).promise;
  const pages: string[][] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str.normalize('NFC').trim() : ''))
        .filter((s) => s !== ''),
    );
  }
  await doc.destroy();
  return pages;
}

/** The amounts on a page, in order ("$1,234.56"). */
export function amountsOn(lines: string[]): string[] {
  return lines.filter((l) => /^\$[\d,]+\.\d\d$/.test(l));
}
