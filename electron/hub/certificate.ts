/**
 * The hub's certificate: made on the first start as a hub and kept in the data folder
 * (hub-cert.pem and hub-key.pem, both 0600), then reused, so the fingerprint stations pinned
 * stays good across restarts. Self-signed: stations trust it by its SHA-256 fingerprint, which
 * the person hosting reads to them (or the QR code carries), never by a certificate authority.
 *
 * Its names (localhost, 127.0.0.1, the machine's IPv4 addresses and the address it was first
 * hosted on) are a courtesy for tools that look at them; a station checks the fingerprint
 * alone, so a hub reached later by another address keeps its certificate.
 */
import type { JsonGeneralName } from '@peculiar/x509';
import { KeyObject, X509Certificate, createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { machineIpv4Addresses } from './addresses.ts';

export const HUB_CERT_FILE = 'hub-cert.pem';
export const HUB_KEY_FILE = 'hub-key.pem';

/** Ten years: an event laptop must never find its hub's certificate expired mid-gala. */
const VALID_DAYS = 3650;

export interface HubCertificate {
  cert: Buffer;
  key: Buffer;
  /** `sha256:` and the certificate's SHA-256 in lowercase hex pairs joined by `:`. */
  fingerprint: string;
  /** Made by this call (false: read from the data folder). */
  created: boolean;
}

/** The fingerprint stations pin, of a PEM certificate. */
export function fingerprintOf(certPem: Buffer | string): string {
  return `sha256:${new X509Certificate(certPem).fingerprint256.toLowerCase()}`;
}

/**
 * The data folder's hub certificate, made when there is none. `hosts`: addresses to name in a
 * new certificate beside localhost, 127.0.0.1 and the machine's IPv4 addresses.
 */
export async function ensureHubCertificate(dataDir: string, hosts: string[] = []): Promise<HubCertificate> {
  const certFile = path.join(dataDir, HUB_CERT_FILE);
  const keyFile = path.join(dataDir, HUB_KEY_FILE);
  if (fs.existsSync(certFile)) {
    if (!fs.existsSync(keyFile))
      throw new Error(
        `The hub's certificate ${certFile} is there but its key ${keyFile} is not: restore the key from a backup, or move the certificate away to make a new pair (stations then pair again).`,
      );
    // Kept private even if someone loosened the files' modes meanwhile.
    fs.chmodSync(certFile, 0o600);
    fs.chmodSync(keyFile, 0o600);
    const cert = fs.readFileSync(certFile);
    const key = fs.readFileSync(keyFile);
    if (!new X509Certificate(cert).checkPrivateKey(createPrivateKey(key)))
      throw new Error(`The hub's key ${keyFile} does not belong to its certificate ${certFile}.`);
    return { cert, key, fingerprint: fingerprintOf(cert), created: false };
  }
  const made = await makeCertificate(hosts);
  fs.mkdirSync(dataDir, { recursive: true });
  // The key first, the certificate last: a certificate on disk always has its key beside it.
  writePrivately(keyFile, made.key);
  writePrivately(certFile, made.cert);
  return { ...made, fingerprint: fingerprintOf(made.cert), created: true };
}

/** Writes a file only its owner can read, atomically (a temp file renamed over it). */
function writePrivately(file: string, data: Buffer): void {
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.chmodSync(tmp, 0o600); // a umask cannot widen it, but a platform may ignore the mode above
  fs.renameSync(tmp, file);
}

async function makeCertificate(hosts: string[]): Promise<{ cert: Buffer; key: Buffer }> {
  const x509 = await import('@peculiar/x509'); // loaded only the first time a hub starts
  const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ]);
  const names = new Set(['127.0.0.1', ...machineIpv4Addresses(), ...hosts]);
  names.delete('0.0.0.0');
  names.delete('::');
  const altNames: JsonGeneralName[] = [{ type: 'dns', value: 'localhost' }];
  for (const n of names) {
    if (!/^[A-Za-z0-9.:-]+$/.test(n)) continue; // not a name a certificate can carry
    altNames.push({ type: isIpAddress(n) ? 'ip' : 'dns', value: n });
  }
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomBytes(16)
        .toString('hex')
        .replace(/^[89a-f]/, '1'),
      name: 'CN=GiftDesk event hub',
      notBefore: new Date(now - 24 * 60 * 60 * 1000),
      notAfter: new Date(now + VALID_DAYS * 24 * 60 * 60 * 1000),
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(altNames),
      ],
    },
    webcrypto as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1],
  );
  const key = KeyObject.from(keys.privateKey).export({
    type: 'pkcs8',
    format: 'pem',
  });
  return { cert: Buffer.from(cert.toString('pem')), key: Buffer.from(key) };
}

function isIpAddress(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':');
}
