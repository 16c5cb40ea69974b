/**
 * What an import needs to know of a CSV file before it starts (the server's uploads, the
 * CLI's files): its header row, and its SHA-256 and records, by which a file imported before
 * is told (imported-before.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { DomainError } from '../errors.ts';
import { createRecordCounter, readCsv } from './csv-reader.ts';

/** The 400 for a header row the reader could not read (`malformed`: what is wrong with it). */
export function unreadableHeader(malformed: string): DomainError {
  return new DomainError('bad_request', 'invalid_header', `The header row cannot be read: ${malformed}`, [
    { field: '(header)', issue: malformed },
  ]);
}

/** The file's header row's cells; null for an empty file; a 400 naming the header when it cannot be read. */
export async function csvHeader(file: string): Promise<string[] | null> {
  for await (const batch of readCsv(fs.createReadStream(file, { highWaterMark: 64 * 1024 }))) {
    const first = batch[0];
    if (first) {
      if (first.malformed) throw unreadableHeader(first.malformed);
      return first.cells;
    }
  }
  return null;
}

/** The file's SHA-256 and its records (the header's included), read once. */
export async function csvFileDigest(file: string): Promise<{ sha256: string; records: number }> {
  const counter = createRecordCounter();
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024 })) {
    counter.push(chunk as Buffer);
    hash.update(chunk as Buffer);
  }
  return { sha256: hash.digest('hex'), records: counter.records() };
}
