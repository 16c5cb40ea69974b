/**
 * The PDF itself, with pdfkit (chosen by measurement: docs/design.md, "Letters"): US Letter,
 * DejaVu Sans embedded (regular and bold, subset to the glyphs used), which covers Latin
 * Extended and Vietnamese, so every name prints and reads back exactly. Pure and synchronous
 * apart from the file: the render worker calls it, and so does the benchmark, with the bare
 * render beside it as its baseline.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import { type LetterBlock, type LetterPage } from './pages.ts';

const require = createRequire(import.meta.url);
const SANS = 'GiftDeskSans';
const SANS_BOLD = 'GiftDeskSans-Bold';
let fonts: { regular: fontkit.Font; bold: fontkit.Font } | null = null;

function openFont(file: string): fontkit.Font {
  const font = fontkit.create(fs.readFileSync(require.resolve(file)));
  if (!('layout' in font)) throw new Error(`${file} is a font collection, not one font`);
  return font;
}

/**
 * DejaVu Sans, from the dejavu-fonts-ttf package (its licence: the package's LICENSE), read
 * and parsed once per thread and shared by every document it renders (pdfkit embeds each
 * document's own subset).
 */
function fontFiles(): { regular: fontkit.Font; bold: fontkit.Font } {
  fonts ??= {
    regular: openFont('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
    bold: openFont('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  };
  return fonts;
}

function newDocument(title: string): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'LETTER',
    margins: { top: 60, bottom: 60, left: 72, right: 72 },
    autoFirstPage: false,
    info: { Title: title, Producer: 'GiftDesk', Creator: 'GiftDesk' },
  });
  const { regular, bold } = fontFiles();
  // pdfkit takes a parsed fontkit font as a source too (its types say only files and bytes).
  doc.registerFont(SANS, regular as unknown as Buffer);
  doc.registerFont(SANS_BOLD, bold as unknown as Buffer);
  return doc;
}

/**
 * How much of the document's output may wait in memory for the file. pdfkit pushes its output
 * whatever the stream says, and a letter drawn holds the thread: without a wait, a run's whole
 * PDF queued up in the document (each compressed page pinning a 16 KiB zlib buffer, about
 * 16 KiB a letter: 1.6 GiB for 100,000), since the file is written only when the thread turns.
 */
const BACKLOG_BYTES = 64 * 1024;

/**
 * pdfkit keeps the layout of every word it has drawn, per font, for the document's life: on a
 * run's letters (names, amounts, dates: most words new) about 5 KiB a letter, some 500 MiB for
 * 100,000. Emptied every so many letters; the words every letter shares are laid out again once.
 */
const LAYOUT_CACHE_LETTERS = 500;

/** The document's fonts, each with its layout cache: pdfkit's own fields (its types leave them out). */
function fontsOf(doc: PDFKit.PDFDocument): Record<string, { layoutCache?: object }> {
  return (doc as unknown as { _fontFamilies?: Record<string, { layoutCache?: object }> })._fontFamilies ?? {};
}

function forgetLayouts(doc: PDFKit.PDFDocument): void {
  for (const font of Object.values(fontsOf(doc)))
    if (font.layoutCache) font.layoutCache = Object.create(null) as object;
}

/** A document piped to its file: `done` once it is written, `room` once its backlog is small. */
interface Written {
  done: Promise<void>;
  room: () => Promise<void>;
}

/** Pipes the document to `out` (a file). */
function written(doc: PDFKit.PDFDocument, out: string): Written {
  const file = fs.createWriteStream(out, { highWaterMark: BACKLOG_BYTES });
  const done = new Promise<void>((resolve, reject) => {
    file.on('finish', resolve).on('error', reject);
    doc.on('error', reject);
    doc.pipe(file);
  });
  // A failure before it is awaited is not an unhandled rejection: whoever awaits `done` hears it.
  done.catch(() => undefined);
  const room = async () => {
    while (doc.readableLength > BACKLOG_BYTES && !file.destroyed)
      await new Promise<void>((resolve) => {
        if (!file.writableNeedDrain) return setImmediate(resolve);
        const go = () => {
          file.off('drain', go).off('close', go);
          resolve();
        };
        file.on('drain', go).on('close', go);
      });
  };
  return { done, room };
}

function collected(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

const TABLE_WIDTHS = [0.22, 0.38, 0.18, 0.22];

function drawRow(doc: PDFKit.PDFDocument, cells: string[], bold: boolean): void {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const widths = cells.map((_, i) => (TABLE_WIDTHS[i] ?? 1 / cells.length) * width);
  doc.font(bold ? SANS_BOLD : SANS).fontSize(10);
  // Most rows fit on one line (a date, a campaign, a method, an amount): those are placed
  // without the line wrapper, which measures each cell again; a longer cell wraps.
  const textWidths = cells.map((c) => doc.widthOfString(c));
  const oneLine = textWidths.every((w, i) => w <= widths[i]! - 6);
  const height = oneLine
    ? doc.currentLineHeight(true)
    : Math.max(...cells.map((c, i) => doc.heightOfString(c || ' ', { width: widths[i]! - 6 })));
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
  const y = doc.y;
  let x = left;
  cells.forEach((cell, i) => {
    const last = i === cells.length - 1;
    if (oneLine) {
      if (cell) doc.text(cell, last ? x + widths[i]! - 6 - textWidths[i]! : x, y, { lineBreak: false });
    } else doc.text(cell, x, y, { width: widths[i]! - 6, align: last ? 'right' : 'left', lineBreak: true });
    x += widths[i]!;
  });
  doc.x = left;
  doc.y = y + height + 4;
}

function rule(doc: PDFKit.PDFDocument): void {
  const left = doc.page.margins.left;
  doc
    .moveTo(left, doc.y - 2)
    .lineTo(doc.page.width - doc.page.margins.right, doc.y - 2)
    .lineWidth(0.5)
    .stroke('#777777');
  doc.y += 2;
}

function drawBlock(doc: PDFKit.PDFDocument, b: LetterBlock): void {
  switch (b.kind) {
    case 'letterhead': {
      const [first = '', ...rest] = b.lines;
      doc.font(SANS_BOLD).fontSize(13).text(first);
      if (rest.length > 0) doc.font(SANS).fontSize(9).text(rest.join('\n'));
      doc.moveDown(1.5);
      return;
    }
    case 'heading':
      doc.font(SANS_BOLD).fontSize(15).text(b.text);
      doc.moveDown(0.8);
      return;
    case 'paragraph':
      doc.font(SANS).fontSize(11).text(b.text, { lineGap: 2 });
      doc.moveDown(0.8);
      return;
    case 'table':
      drawRow(doc, b.columns, true);
      rule(doc);
      for (const row of b.rows) drawRow(doc, row, false);
      if (b.footer) {
        rule(doc);
        drawRow(doc, b.footer, true);
      }
      doc.moveDown(0.8);
      return;
  }
}

function drawLetter(doc: PDFKit.PDFDocument, page: LetterPage): void {
  doc.addPage();
  for (const b of page.blocks) drawBlock(doc, b);
}

export interface RenderOptions {
  /** Also write each letter alone, as `page.fileName` in this folder. */
  perDonorDir?: string | null;
  /** Called as letters are drawn, with how many are done. */
  onProgress?: (rendered: number) => void;
  title?: string;
}

/** A PDF being written, letter by letter, as the letters arrive (the run's render). */
export interface LettersFile {
  /** Draws the next letter (and writes it alone too, with a per-donor folder). */
  add(page: LetterPage): Promise<void>;
  /** Ends the document; resolves once the file is written, with its pages. */
  close(): Promise<{ pages: number }>;
  /** What the document holds in memory now: output not yet handed to the file, words laid out. */
  held(): { outputBytes: number; layouts: number };
}

/** Opens the PDF at `out` for letters to be added (and one file per letter on request). */
export function openLettersFile(
  out: string,
  opts: Pick<RenderOptions, 'perDonorDir' | 'title'> = {},
): LettersFile {
  const doc = newDocument(opts.title ?? 'Letters');
  const { done, room } = written(doc, out);
  if (opts.perDonorDir) fs.mkdirSync(opts.perDonorDir, { recursive: true });
  let count = 0;
  let pages = 0;
  doc.on('pageAdded', () => (pages += 1));
  return {
    async add(page) {
      count += 1;
      drawLetter(doc, page);
      await room();
      if (count % LAYOUT_CACHE_LETTERS === 0) forgetLayouts(doc);
      if (opts.perDonorDir) {
        const one = newDocument(opts.title ?? 'Letter');
        const file = written(
          one,
          path.join(opts.perDonorDir, page.fileName ?? `${String(count).padStart(5, '0')}.pdf`),
        ).done;
        drawLetter(one, page);
        one.end();
        await file;
      }
    },
    async close() {
      doc.end();
      await done;
      return { pages };
    },
    held() {
      let layouts = 0;
      for (const font of Object.values(fontsOf(doc))) layouts += Object.keys(font.layoutCache ?? {}).length;
      return { outputBytes: doc.readableLength, layouts };
    },
  };
}

/** Renders the letters into one PDF at `out` (and one per letter on request). */
export async function renderLettersToFile(
  pages: LetterPage[],
  out: string,
  opts: RenderOptions = {},
): Promise<void> {
  const file = openLettersFile(out, opts);
  for (let i = 0; i < pages.length; i++) {
    await file.add(pages[i]!);
    opts.onProgress?.(i + 1);
  }
  await file.close();
}

/** The letters as PDF bytes (the preview). */
export async function renderLettersToBuffer(pages: LetterPage[], title = 'Letter'): Promise<Buffer> {
  const doc = newDocument(title);
  const bytes = collected(doc);
  for (const page of pages) drawLetter(doc, page);
  doc.end();
  return bytes;
}

/**
 * The bare render: pages of plain text lines, in the same font, one text call per page and
 * no layout. What the benchmark measures the real render against.
 */
export async function renderBarePdf(pages: string[][], out: string): Promise<void> {
  const doc = newDocument('Letters');
  const { done } = written(doc, out);
  for (const lines of pages) {
    doc.addPage();
    doc.font(SANS).fontSize(11).text(lines.join('\n'));
  }
  doc.end();
  await done;
}
