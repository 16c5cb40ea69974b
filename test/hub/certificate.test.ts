/**
 * The hub's certificate: made once in the data folder (both files 0600), named for localhost,
 * 127.0.0.1 and the address given, its fingerprint in the one form stations pin, and reused
 * at every later start; a certificate without its key is refused, not silently replaced.
 * And the pairing words both sides share: fingerprints typed any way, codes, the join link.
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  joinLinkFor,
  normaliseFingerprint,
  normalisePairingCode,
  showPairingCode,
} from '#shared/hub-link.ts';
import { parseJoinLink } from '#shared/hub-address.ts';
import { ensureHubCertificate, fingerprintOf } from '../../electron/hub/certificate.ts';
import { newPairingCode, pairingCodeHash } from '../../electron/hub/pairing.ts';
import { tempDir } from '../helpers/server.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe("the hub's certificate", () => {
  it('is made once, 0600, with its names, and reused after', async () => {
    const dir = tempDir('giftdesk-cert-');
    dirs.push(dir);
    const made = await ensureHubCertificate(dir, ['192.0.2.7', 'hub.local']);
    expect(made.created).toBe(true);
    for (const f of ['hub-cert.pem', 'hub-key.pem'])
      expect((fs.statSync(path.join(dir, f)).mode & 0o777).toString(8)).toBe('600');
    const x = new X509Certificate(made.cert);
    expect(made.fingerprint).toBe(`sha256:${x.fingerprint256.toLowerCase()}`);
    expect(made.fingerprint).toMatch(/^sha256:([0-9a-f]{2}:){31}[0-9a-f]{2}$/);
    expect(x.subjectAltName).toContain('DNS:localhost');
    expect(x.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(x.subjectAltName).toContain('IP Address:192.0.2.7');
    expect(x.subjectAltName).toContain('DNS:hub.local');
    expect(Date.parse(x.validTo) - Date.now()).toBeGreaterThan(365 * 24 * 3600 * 1000);
    expect(x.checkPrivateKey((await import('node:crypto')).createPrivateKey(made.key))).toBe(true);

    // Loosened by someone: tightened again at the next start, and the same certificate.
    fs.chmodSync(path.join(dir, 'hub-key.pem'), 0o644);
    const again = await ensureHubCertificate(dir, ['198.51.100.1']);
    expect(again.created).toBe(false);
    expect(again.fingerprint).toBe(made.fingerprint);
    expect(fingerprintOf(again.cert)).toBe(made.fingerprint);
    expect((fs.statSync(path.join(dir, 'hub-key.pem')).mode & 0o777).toString(8)).toBe('600');
  });

  it('refuses a certificate whose key is missing (stations pinned it: never replaced silently)', async () => {
    const dir = tempDir('giftdesk-cert-');
    dirs.push(dir);
    await ensureHubCertificate(dir);
    fs.rmSync(path.join(dir, 'hub-key.pem'));
    await expect(ensureHubCertificate(dir)).rejects.toThrow(/its key .* is not/);
  });
});

describe('the pairing words', () => {
  const fp = `sha256:${'ab:'.repeat(31)}ab`;

  it('takes a fingerprint typed with or without colons, in any case', () => {
    expect(normaliseFingerprint(fp)).toBe(fp);
    expect(normaliseFingerprint(fp.toUpperCase())).toBe(fp);
    expect(normaliseFingerprint('AB'.repeat(32))).toBe(fp);
    expect(normaliseFingerprint(`sha256:${'ab'.repeat(31)}`)).toBeNull();
    expect(normaliseFingerprint('sha256:zz')).toBeNull();
  });

  it('makes codes of the unambiguous alphabet, shown XXXX-XXXX, hashed as typed any way', () => {
    for (let i = 0; i < 200; i++) expect(newPairingCode()).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
    const code = newPairingCode();
    expect(showPairingCode(code)).toMatch(/^.{4}-.{4}$/);
    expect(pairingCodeHash(showPairingCode(code).toLowerCase())).toBe(pairingCodeHash(code));
    expect(pairingCodeHash(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(normalisePairingCode(' ab cd-ef gh ')).toBe('ABCDEFGH');
  });

  it('carries address, code and fingerprint in the join link, and reads them back', () => {
    const link = joinLinkFor({ url: 'https://192.168.1.20:4871', code: 'ABCDEFGH', fingerprint: fp });
    expect(link.startsWith('https://192.168.1.20:4871/join#')).toBe(true);
    expect(parseJoinLink(link)).toEqual({
      url: 'https://192.168.1.20:4871',
      code: 'ABCDEFGH',
      fingerprint: fp,
    });
    expect(parseJoinLink('https://192.168.1.20:4871')).toBeNull();
    expect(parseJoinLink('http://192.168.1.20:4871/join#code=ABCD-EFGH&fingerprint=x')).toBeNull();
  });
});
