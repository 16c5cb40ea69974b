/**
 * CSV in and out, as spreadsheets write it (RFC 4180): comma-separated, cells quoted with
 * double quotes when they hold a comma, a quote ("" inside) or a line break; CRLF or LF.
 *
 * Hand-written rather than csv-parse for a measured reason: the import's budget is a few
 * microseconds a row, and csv-parse took ~13 µs per 12-cell record here (this reader ~1–4 µs,
 * most lines taking a split(',') fast path). It also keeps going after a malformed record,
 * reporting it by line, where csv-parse's recovery dropped the good record after it.
 */

/** One record: its cells, and the line of the file it starts on (the header is line 1). */
export interface CsvRecord {
  cells: string[];
  line: number;
  /** Why the record cannot be read as written (a stray quote, an unclosed quote, bad bytes). */
  malformed?: string;
}

const QUOTE = 34;
const COMMA = 44;
const CR = 13;
const LF = 10;

interface ParseState {
  /** The line the next record starts on. */
  line: number;
}

/**
 * Parses the complete records at the start of `text`. Returns them and how far it got: the
 * rest (an incomplete record) waits for more text, unless `atEnd`.
 */
function parseRecords(
  text: string,
  state: ParseState,
  atEnd: boolean,
): { records: CsvRecord[]; consumed: number } {
  const records: CsvRecord[] = [];
  const n = text.length;
  let i = 0;
  let nextQuote = -2; // where the next quote is at or after i (-1: none left); -2: not looked yet
  while (i < n) {
    const start = i;
    const startLine = state.line;
    const nl = text.indexOf('\n', i);
    if (nl < 0 && !atEnd) break; // wait for the rest of this line
    const lineEnd = nl < 0 ? n : nl;
    if (nextQuote !== -1 && nextQuote < i) nextQuote = text.indexOf('"', i);
    if (nextQuote < 0 || nextQuote > lineEnd) {
      // Fast path: a line without quotes is a record of its comma-separated cells.
      let end = lineEnd;
      if (end > i && text.charCodeAt(end - 1) === CR) end -= 1;
      records.push({ cells: text.slice(i, end).split(','), line: startLine });
      i = nl < 0 ? n : nl + 1;
      state.line += 1;
      continue;
    }
    const r = quotedRecord(text, i, startLine, atEnd);
    if (r === null) return { records, consumed: start };
    const rec: CsvRecord = { cells: r.cells, line: startLine };
    if (r.malformed) rec.malformed = r.malformed;
    records.push(rec);
    i = r.next;
    state.line = startLine + r.lines;
  }
  return { records, consumed: i };
}

/** A record read cell by cell: its cells, why it is malformed, where the next one starts. */
interface QuotedRecord {
  cells: string[];
  malformed: string | undefined;
  next: number;
  /** Line breaks the record spans, its own line end included. */
  lines: number;
}

/**
 * The slow path: the record at `start` (on line `startLine`), cell by cell; quoted cells may
 * hold commas, quotes and line breaks. Null when it is not complete in `text`: it waits for
 * more, unless `atEnd`.
 */
function quotedRecord(text: string, start: number, startLine: number, atEnd: boolean): QuotedRecord | null {
  const n = text.length;
  const cells: string[] = [];
  let malformed: string | undefined;
  let lines = 0;
  let i = start;
  for (;;) {
    if (text.charCodeAt(i) === QUOTE) {
      const q = quotedCell(text, i, atEnd);
      lines += q.lineBreaks;
      if (!q.closed) {
        if (!atEnd) return null;
        // An opened quote never closed: the rest of the file is this one broken record.
        cells.push(q.cell + text.slice(q.end));
        malformed = `a quoted cell opened on line ${startLine + lines} is never closed`;
        return { cells, malformed, next: n, lines };
      }
      i = q.end;
      let cell = q.cell;
      // Text between the closing quote and the next comma: "abc"x is not a valid cell.
      const k = cellEnd(text, i);
      if (k > i) {
        malformed ??= `line ${startLine + lines}: a quoted cell has text after its closing quote`;
        cell += text.slice(i, k);
        i = k;
      }
      cells.push(cell);
    } else {
      // An unquoted cell runs to the next comma or line end; a quote inside it is kept as is.
      const k = cellEnd(text, i);
      cells.push(text.slice(i, k));
      i = k;
    }
    if (i >= n) return atEnd ? { cells, malformed, next: i, lines } : null;
    const c = text.charCodeAt(i);
    if (c === COMMA) {
      i += 1;
      if (i < n) continue;
      if (!atEnd) return null;
      cells.push('');
      return { cells, malformed, next: i, lines };
    }
    if (c === CR) {
      if (i + 1 >= n && !atEnd) return null;
      i += text.charCodeAt(i + 1) === LF ? 2 : 1;
    } else {
      i += 1; // LF
    }
    return { cells, malformed, next: i, lines: lines + 1 };
  }
}

/**
 * The quoted cell opening at `open`: its text ("" read as one quote), where it ends (after
 * its closing quote) and the line breaks in it. Not closed when `text` holds no closing quote,
 * or (more to come) when a "" may be split across reads; `end` is then how far it got.
 */
function quotedCell(
  text: string,
  open: number,
  atEnd: boolean,
): { cell: string; end: number; lineBreaks: number; closed: boolean } {
  const n = text.length;
  let cell = '';
  let lineBreaks = 0;
  let j = open + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) return { cell, end: j, lineBreaks, closed: false };
    const part = text.slice(j, q);
    cell += part;
    for (let k = part.indexOf('\n'); k >= 0; k = part.indexOf('\n', k + 1)) lineBreaks += 1;
    if (q + 1 < n && text.charCodeAt(q + 1) === QUOTE) {
      cell += '"';
      j = q + 2;
      continue;
    }
    if (q + 1 >= n && !atEnd) return { cell, end: j, lineBreaks, closed: false }; // "" may be split across reads: wait
    return { cell, end: q + 1, lineBreaks, closed: true };
  }
}

/** Where a cell that is not quoted (or a quoted cell's stray tail) ends: at a comma or a line end. */
function cellEnd(text: string, i: number): number {
  const n = text.length;
  let k = i;
  while (k < n) {
    const d = text.charCodeAt(k);
    if (d === COMMA || d === LF || d === CR) break;
    k += 1;
  }
  return k;
}

/** Longer than this, a record that is still open is taken to be a stray quote. */
const MAX_RECORD_CHARS = 2 ** 20;

export interface CsvProgress {
  /** Bytes of the source read so far. */
  bytes: number;
}

/**
 * Reads CSV text from a byte stream, in batches of records (one batch per piece of input).
 * Blank lines (and lines of empty cells) are skipped but counted. A UTF-8 byte-order mark is
 * dropped. Bytes that are not UTF-8 become U+FFFD; callers reject such records.
 */
export async function* readCsv(
  source: AsyncIterable<Uint8Array | string>,
  progress: CsvProgress = { bytes: 0 },
): AsyncGenerator<CsvRecord[]> {
  const decoder = new TextDecoder('utf-8');
  const state: ParseState = { line: 1 };
  let pending = '';
  let first = true;
  for await (const piece of source) {
    let text: string;
    if (typeof piece === 'string') {
      text = piece;
      progress.bytes += Buffer.byteLength(piece);
    } else {
      text = decoder.decode(piece, { stream: true });
      progress.bytes += piece.byteLength;
    }
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    pending = pending.length > 0 ? pending + text : text;
    const kept: CsvRecord[] = [];
    for (;;) {
      const { records, consumed } = parseRecords(pending, state, false);
      for (const r of records) if (hasContent(r)) kept.push(r);
      pending = pending.slice(consumed);
      if (pending.length <= MAX_RECORD_CHARS) break;
      // A record this long is a quote opened by mistake: report its first line, go on after it.
      const nl = pending.indexOf('\n');
      kept.push({
        cells: [],
        line: state.line,
        malformed: `line ${state.line}: a quoted cell is not closed within ${MAX_RECORD_CHARS / 2 ** 20} MiB`,
      });
      pending = pending.slice(nl + 1);
      state.line += 1;
    }
    if (kept.length > 0) yield kept;
  }
  pending += decoder.decode();
  if (first && pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
  if (pending.length > 0) {
    const { records } = parseRecords(pending, state, true);
    const kept = records.filter(hasContent);
    if (kept.length > 0) yield kept;
  }
}

function hasContent(r: CsvRecord): boolean {
  if (r.malformed) return true;
  for (const c of r.cells) if (c.trim() !== '') return true;
  return false;
}

/** Parses a whole CSV text at once (tests, small inputs). */
export function parseCsv(text: string): CsvRecord[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return parseRecords(body, { line: 1 }, true).records.filter(hasContent);
}

/** One CSV cell: quoted when it holds a comma, a quote, a line break or edge spaces. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const s = String(value);
  if (/[",\r\n]/.test(s) || (s.length > 0 && (s.charCodeAt(0) === 32 || s.charCodeAt(s.length - 1) === 32)))
    return `"${s.replace(/"/g, '""')}"`;
  return s;
}

/** One CSV line (CRLF-terminated, as spreadsheets write it). */
export function csvLine(cells: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * Counts the records of CSV bytes as they arrive, without parsing cells: line ends outside
 * quotes, of lines with something on them. For a progress total (the header counts too).
 */
export function createRecordCounter() {
  let inQuote = false;
  let lineHasContent = false;
  let records = 0;
  return {
    push(chunk: Uint8Array): void {
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i]!;
        if (b === QUOTE) {
          inQuote = !inQuote;
          lineHasContent = true;
        } else if (b === LF) {
          if (!inQuote) {
            if (lineHasContent) records += 1;
            lineHasContent = false;
          }
        } else if (b !== CR && b !== 32 && b !== COMMA && b !== 9) {
          lineHasContent = true;
        }
      }
    },
    /** Records so far, counting an unterminated last line. */
    records(): number {
      return records + (lineHasContent ? 1 : 0);
    },
  };
}
