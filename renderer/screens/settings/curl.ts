/**
 * The ready-to-paste `curl` line for a script's API key: this machine's address (the one the
 * app itself is served from), the account, and the key's two headers. Single quotes, so a
 * POSIX shell takes every character literally.
 */
export interface CurlInput {
  origin: string;
  accountId: string;
  keyId: string;
  /** The secret, or a placeholder such as "$GIFTDESK_SECRET" when it is no longer known. */
  secret: string;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlExample({ origin, accountId, keyId, secret }: CurlInput): string {
  const url = `${origin.replace(/\/$/, '')}/api/v1/contacts?accountId=${encodeURIComponent(accountId)}&limit=5`;
  const auth = secret.startsWith('$')
    ? `"Authorization: Bearer ${secret}"`
    : quote(`Authorization: Bearer ${secret}`);
  return `curl -s ${quote(url)} \\\n  -H ${quote(`X-API-Key: ${keyId}`)} \\\n  -H ${auth}`;
}
