import { describe, expect, it } from 'vitest';
import { verifyApiKey } from '../../electron/domain/accounts/api-keys.ts';
import { DEFAULT_PORT, desktopPort } from '../../electron/shell/port.ts';
import { contentSecurityPolicy, externalUrlToOpen, isAppUrl } from '../../electron/shell/security.ts';
import { closeDesktopSession, openDesktopSession } from '../../electron/shell/session.ts';
import { startTestServer } from '../helpers/server.ts';

describe('the window CSP', () => {
  it('allows only the app itself: no remote scripts, styles, fonts or connections, no plugins, no framing', () => {
    const csp = contentSecurityPolicy();
    const directives = Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k, v]),
    );
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(csp).not.toMatch(/unsafe-eval|unsafe-inline|\*|https?:/);
  });
});

describe('URL checks use a URL parser, not string prefixes', () => {
  const origin = 'http://127.0.0.1:4870';
  it.each([
    ['http://127.0.0.1:4870/', true],
    ['http://127.0.0.1:4870/contacts?x=1#y', true],
    ['http://127.0.0.1:4870.evil.example/', false],
    ['http://127.0.0.1:48700/', false],
    ['https://127.0.0.1:4870/', false],
    ['http://127.0.0.1:4870@evil.example/', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('isAppUrl(%s) is %s', (url, expected) => {
    expect(isAppUrl(url, origin)).toBe(expected);
  });
  it.each([
    ['https://example.org/help', 'https://example.org/help'],
    ['mailto:treasurer@example.org', 'mailto:treasurer@example.org'],
    ['file:///etc/passwd', null],
    ['javascript:alert(1)', null],
    ['smb://share/x', null],
  ])('externalUrlToOpen(%s) is %s', (url, expected) => {
    expect(externalUrlToOpen(url)).toBe(expected);
  });
});

describe('the desktop port', () => {
  it('is fixed by default and configurable through GIFTDESK_PORT', () => {
    expect(desktopPort({})).toBe(DEFAULT_PORT);
    expect(desktopPort({ GIFTDESK_PORT: '5123' })).toBe(5123);
  });
  it.each(['0', '80', '70000', 'abc', '12.5', '-1'])('refuses GIFTDESK_PORT=%s with a clear message', (v) => {
    expect(() => desktopPort({ GIFTDESK_PORT: v })).toThrow(/GIFTDESK_PORT must be a port number/);
  });
});

describe('the per-launch session key', () => {
  it('is a working key for the organisation, revoked at quit', async () => {
    const s = await startTestServer();
    try {
      const session = await openDesktopSession(s.ctx, s.url);
      expect(session.accountId).toBe(s.accountId);
      expect(await verifyApiKey(s.ctx, session.keyId, session.secret)).toBe(s.accountId);
      await closeDesktopSession(s.ctx, session);
      expect(await verifyApiKey(s.ctx, session.keyId, session.secret)).toBeNull();
    } finally {
      await s.close();
    }
  });
});
