/**
 * Prints the text of each PDF named on the command line as pdf.js reads it (JSON: one array of
 * pages of lines per file). Its own process because pdf.js's legacy build installs core-js
 * polyfills that replace the process's `JSON.parse` and `JSON.stringify` with slower ones:
 * loaded into the bench's process, they slowed every server timed after them (bench/RESULTS.md).
 *
 *   node --import tsx bench/pdf-pages.ts A.pdf [B.pdf …]
 */
import { pdfPages } from '../test/letters/pdf-text.ts';

const out: string[][][] = [];
for (const file of process.argv.slice(2)) out.push(await pdfPages(file));
process.stdout.write(JSON.stringify(out));
