/**
 * Which PDF library renders letters: pdfkit or @react-pdf/renderer, on the same 1,000
 * one-page letters with DejaVu Sans (regular and bold) embedded. Each library runs in a child
 * process of its own, so its peak memory (max RSS) is its own; then every page of each PDF is
 * read back with pdf.js's text extractor and the donors' names looked for, exactly.
 *
 *   node --import tsx bench/letters-library.ts [letters]   (JSON on stdout)
 *
 * @react-pdf/renderer is not a dependency of GiftDesk (pdfkit won; see docs/design.md,
 * "Letters"): install it first to run its half (`npm install --no-save @react-pdf/renderer`);
 * without it that half is reported as skipped.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(import.meta.url);
const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

export const NAMES = [
  'Nguyễn Thị Minh Khai',
  'Łukasz Żółć',
  'Zoë Núñez',
  "Siobhán O'Brien",
  'Robert Brown',
  'Ana María Ibáñez',
  'Đặng Văn Lâm',
  'Grzegorz Brzęczyszczykiewicz',
];

interface Letter {
  name: string;
  lines: string[];
}

/** The same letter text for both libraries: heading, address, body, a gifts table, the signer. */
export function sampleLetters(n: number): Letter[] {
  return Array.from({ length: n }, (_, i) => {
    const name = `${NAMES[i % NAMES.length]} ${i + 1}`;
    return {
      name,
      lines: [
        'Riverside Food Bank · 12 Harbour Road · Springfield',
        '',
        name,
        `${100 + i} Main Street`,
        'Springfield, IL 62701',
        '',
        `Dear ${name},`,
        'Thank you for your generous support of Riverside Food Bank this year. Your gifts put meals on the tables of families across the valley, and we are grateful for every one of them.',
        '',
        `2026-03-0${(i % 9) + 1}   Spring appeal   $19.99`,
        `2026-06-1${i % 10}   Summer drive    $250.00`,
        'Total   $269.99',
        '',
        'No goods or services were provided in exchange for these contributions.',
        '',
        'With thanks,',
        'Maria Lopez, Executive Director',
      ],
    };
  });
}

async function renderPdfkit(letters: Letter[], out: string): Promise<void> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'LETTER', margin: 72, autoFirstPage: false });
  doc.registerFont('Sans', FONT);
  doc.registerFont('Sans-Bold', FONT_BOLD);
  const done = new Promise<void>((resolve, reject) => {
    const file = fs.createWriteStream(out);
    file.on('finish', resolve).on('error', reject);
    doc.pipe(file);
  });
  for (const letter of letters) {
    doc.addPage();
    doc.font('Sans-Bold').fontSize(14).text(letter.lines[0]!);
    doc.font('Sans').fontSize(11);
    for (const line of letter.lines.slice(1)) doc.text(line || ' ');
  }
  doc.end();
  await done;
}

/** The part of @react-pdf/renderer used here (it is not a dependency, so not typed by it). */
interface ReactPdf {
  Document: unknown;
  Page: unknown;
  Text: unknown;
  Font: {
    register(f: { family: string; fonts: { src: string; fontWeight?: string }[] }): void;
    registerHyphenationCallback(cb: (word: string) => string[]): void;
  };
  renderToFile(element: unknown, out: string): Promise<unknown>;
}

async function renderReactPdf(letters: Letter[], out: string): Promise<void> {
  const React = await import('react');
  const name = '@react-pdf/renderer';
  const { Document, Page, Text, Font, renderToFile } = (await import(name)) as ReactPdf;
  Font.register({
    family: 'DejaVu',
    fonts: [{ src: FONT }, { src: FONT_BOLD, fontWeight: 'bold' }],
  });
  Font.registerHyphenationCallback((word) => [word]);
  const h = React.createElement as (type: unknown, props: object | null, ...children: unknown[]) => unknown;
  const pages = letters.map((letter, i) =>
    h(
      Page,
      { key: i, size: 'LETTER', style: { padding: 72, fontFamily: 'DejaVu', fontSize: 11 } },
      h(Text, { style: { fontSize: 14, fontWeight: 'bold' } }, letter.lines[0]),
      ...letter.lines.slice(1).map((line, j) => h(Text, { key: j }, line || ' ')),
    ),
  );
  await renderToFile(h(Document, null, ...pages), out);
}

/** Every page's text, as pdf.js extracts it (one string per page). */
export async function extractPages(file: string): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const data = new Uint8Array(fs.readFileSync(file));
  const doc = await pdfjs.getDocument({ data, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const page = await doc.getPage(p);
    const content = await page.getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('')
        .normalize('NFC'),
    );
  }
  await doc.destroy();
  return pages;
}

interface ChildResult {
  library: string;
  ms: number;
  maxRssMiB: number;
  bytes: number;
}

async function child(library: string, n: number, out: string): Promise<void> {
  const letters = sampleLetters(n);
  const start = performance.now();
  if (library === 'pdfkit') await renderPdfkit(letters, out);
  else await renderReactPdf(letters, out);
  const ms = performance.now() - start;
  const result: ChildResult = {
    library,
    ms: Math.round(ms),
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    bytes: fs.statSync(out).size,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function hasPackage(name: string): boolean {
  try {
    return fs.existsSync(path.join(path.dirname(HERE), '..', 'node_modules', name, 'package.json'));
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 1000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftdesk-letters-bench-'));
  const letters = sampleLetters(n);
  const results: unknown[] = [];
  for (const library of ['pdfkit', '@react-pdf/renderer']) {
    if (!hasPackage(library)) {
      results.push({ library, skipped: 'not installed' });
      continue;
    }
    const out = path.join(dir, `${library.replace(/\W/g, '_')}.pdf`);
    const stdout = execFileSync(
      process.execPath,
      ['--import', 'tsx', HERE, '--child', library, String(n), out],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      },
    );
    const r = JSON.parse(stdout.trim().split('\n').pop()!) as ChildResult;
    const pages = await extractPages(out);
    const missing = letters.filter((l, i) => !pages[i]?.includes(l.name)).length;
    results.push({ ...r, pages: pages.length, namesReadBackExactly: n - missing, namesMissing: missing });
  }
  fs.rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ letters: n, node: process.version, results }, null, 2)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === HERE) {
  if (process.argv[2] === '--child') await child(process.argv[3]!, Number(process.argv[4]), process.argv[5]!);
  else await main();
}
