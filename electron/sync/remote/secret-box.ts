/**
 * The HQ API secret at rest: AES-256-GCM under a 32-byte key that a KeySource provides.
 * Where the key lives is the KeySource's business:
 * - the desktop app (electron/main.ts): a random key sealed by Electron's safeStorage (the OS
 *   keychain) in `sync-key.safestorage` beside the database;
 * - outside Electron: the environment variable GIFTDESK_SYNC_KEY (64 hex characters, or
 *   base64 of 32 bytes), else the key file `sync.key` in the data folder, created on first
 *   use with mode 0600 and refused when other users can read it.
 * The sealed text (`v1.<iv>.<tag>.<ciphertext>`, base64url) is what the database stores; the
 * plain secret is never stored, logged or returned.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface KeySource {
  /** The 32-byte key. */
  key(): Promise<Buffer>;
  /** Where the key lives, for messages (never the key). */
  readonly describe: string;
}

export const KEY_ENV = 'GIFTDESK_SYNC_KEY';
export const KEY_FILE = 'sync.key';

function parseKey(text: string, where: string): Buffer {
  const t = text.trim();
  const buf = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (buf.length !== 32) throw new Error(`${where} must hold a 32-byte key (64 hex characters or base64)`);
  return buf;
}

/** The key from GIFTDESK_SYNC_KEY, or null when the variable is not set. */
export function envKeySource(env: Record<string, string | undefined> = process.env): KeySource | null {
  const v = env[KEY_ENV];
  if (!v) return null;
  return { describe: `the environment variable ${KEY_ENV}`, key: async () => parseKey(v, KEY_ENV) };
}

/** The key in `<dataDir>/sync.key` (mode 0600), created on first use. */
export function keyFileSource(dataDir: string): KeySource {
  const file = path.join(dataDir, KEY_FILE);
  return {
    describe: `the key file ${file}`,
    async key() {
      if (!fs.existsSync(file)) {
        fs.mkdirSync(dataDir, { recursive: true });
        const fresh = crypto.randomBytes(32).toString('hex');
        try {
          fs.writeFileSync(file, `${fresh}\n`, { mode: 0o600, flag: 'wx' });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process made it first: use theirs
        }
      }
      if (process.platform !== 'win32') {
        const mode = fs.statSync(file).mode & 0o077;
        if (mode !== 0)
          throw new Error(
            `${file} can be read by other users: run "chmod 600 ${file}" (it holds the key of the HQ secret)`,
          );
      }
      return parseKey(fs.readFileSync(file, 'utf8'), file);
    },
  };
}

/** Outside Electron: the environment variable when set, else the key file. */
export function defaultKeySource(
  dataDir: string,
  env: Record<string, string | undefined> = process.env,
): KeySource {
  return envKeySource(env) ?? keyFileSource(dataDir);
}

const b64 = (b: Buffer) => b.toString('base64url');

export async function sealSecret(source: KeySource, plain: string): Promise<string> {
  const key = await source.key();
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${b64(iv)}.${b64(cipher.getAuthTag())}.${b64(ct)}`;
}

export async function openSecret(source: KeySource, sealed: string): Promise<string> {
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1')
    throw new Error('The stored HQ secret is not in a known format: run "giftdesk sync configure" again');
  const key = await source.key();
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(parts[1]!, 'base64url'));
    decipher.setAuthTag(Buffer.from(parts[2]!, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(parts[3]!, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new Error(
      `The stored HQ secret cannot be decrypted with ${source.describe} (it was saved with another key, e.g. by the desktop app): run "giftdesk sync configure" again here`,
    );
  }
}
