/**
 * The desktop shell's security rules as small pure functions (Electron's security
 * checklist): a strict CSP, URLs checked with a URL parser (never startsWith), and only
 * web links handed to the system browser.
 */

/**
 * The Content-Security-Policy of the app's window: everything bundled, nothing from the network.
 * Frames show only the app's own pages and the PDFs it fetched itself (blob: URLs it made:
 * a letter's preview, a receipt sent to print).
 */
export function contentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Whether `url` belongs to the app itself (same scheme, host and port as `appOrigin`). */
export function isAppUrl(url: string, appOrigin: string): boolean {
  try {
    return new URL(url).origin === new URL(appOrigin).origin;
  } catch {
    return false;
  }
}

/** The URL to open in the system browser, or null: only http(s) and mailto links leave the app. */
export function externalUrlToOpen(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' || u.protocol === 'mailto:'
      ? u.toString()
      : null;
  } catch {
    return null;
  }
}
