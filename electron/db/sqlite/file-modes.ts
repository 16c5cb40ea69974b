/**
 * The SQLite file's permissions: the data folder and the database file for the user who runs
 * GiftDesk only, made so before SQLite opens the file.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Donor data is for the user who runs GiftDesk only: the data folder 0700, the database file
 * 0600 (SQLite gives its -wal and -shm files the database file's mode), backups 0600. A folder
 * or file made readable to others (an older version, a copy) is tightened. A folder shared by
 * design is left as it is — one with the sticky bit (/tmp, where `--data-dir /tmp` once made
 * every other user's programs fail to reach their own files) or another user's — and the
 * files in it are still 0600. POSIX only: on Windows the per-user app-data folder is private
 * already and modes mean little.
 */
export function ownerOnly(file: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const folder = fs.statSync(dir);
  const shared =
    (folder.mode & 0o1000) !== 0 || (process.getuid !== undefined && folder.uid !== process.getuid());
  if (!shared && (folder.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  fs.closeSync(fs.openSync(file, 'a', 0o600)); // created 0600 before SQLite opens it
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((fs.statSync(f).mode & 0o077) !== 0) fs.chmodSync(f, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}
