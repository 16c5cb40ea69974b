/**
 * Passwords, kept as a memory-hard hash: Node's own scrypt with a fresh random salt per
 * password and its parameters stored beside the hash (`scrypt$N$r$p$salt$hash`), so a later
 * change of the parameters still checks the passwords set before it. Compared in constant
 * time; a person who is not there costs the same hash as one who is.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** N = 2^15, r = 8, p = 1: about 32 MiB and a few tens of milliseconds per hash. */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** scrypt needs 128·N·r bytes (32 MiB here); Node's default limit is exactly that, so room above it. */
const maxmemFor = (n: number, r: number) => 128 * n * r * 2;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { N: n, r, p, maxmem: maxmemFor(n, r) }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface Parsed {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): Parsed | null {
  const [alg, n, r, p, salt, key] = stored.split('$');
  if (alg !== 'scrypt' || !n || !r || !p || !salt || !key) return null;
  const parsed = { n: Number(n), r: Number(r), p: Number(p) };
  if (![parsed.n, parsed.r, parsed.p].every((x) => Number.isInteger(x) && x > 0)) return null;
  if (parsed.n > 2 ** 20 || parsed.r > 32 || parsed.p > 16) return null;
  return { ...parsed, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
}

/** A hash of no password anybody has: what a sign-in for an unknown email is checked against. */
let dummy: Promise<string> | null = null;

/**
 * True when `password` is the one `stored` was made from. `stored` null (no such person, or no
 * password set yet) still costs one hash, and answers false.
 */
export async function checkPassword(password: string, stored: string | null): Promise<boolean> {
  dummy ??= hashPassword(randomBytes(24).toString('base64url'));
  const target = (stored !== null ? parse(stored) : null) ?? parse(await dummy)!;
  const key = await derive(password, target.salt, target.n, target.r, target.p);
  const same = key.length === target.key.length && timingSafeEqual(key, target.key);
  return same && stored !== null && parse(stored) !== null;
}
