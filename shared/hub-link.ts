/**
 * The event hub's pairing words, for both sides: a certificate fingerprint in the one form
 * stations pin (`sha256:` and lowercase hex pairs joined by `:`), a pairing code as typed,
 * and the join link a QR code carries (the hub's address, a code and the fingerprint).
 */

/** The alphabet of pairing codes: no 0/O, 1/I/L (nothing a person can misread). */
export const PAIRING_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/**
 * A fingerprint as typed (`sha256:` optional, colons optional, any case) in the pinned form,
 * or null when it is not 32 bytes of hex.
 */
export function normaliseFingerprint(typed: string): string | null {
  const hex = typed
    .trim()
    .replace(/^sha256:/i, '')
    .replace(/[:\s]/g, '')
    .toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hex)) return null;
  return `sha256:${hex.match(/../g)!.join(':')}`;
}

/** A pairing code as typed (dashes, spaces and case ignored): the 8 characters, upper case. */
export function normalisePairingCode(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase();
}

/** A code as shown: XXXX-XXXX. */
export function showPairingCode(code: string): string {
  const c = normalisePairingCode(code);
  return c.length === 8 ? `${c.slice(0, 4)}-${c.slice(4)}` : c;
}

/** The link a QR code carries: the hub's address, then the code and fingerprint after `#`. */
export function joinLinkFor(hub: { url: string; code: string; fingerprint: string }): string {
  const params = new URLSearchParams({ code: showPairingCode(hub.code), fingerprint: hub.fingerprint });
  return `${hub.url}/join#${params.toString()}`;
}
