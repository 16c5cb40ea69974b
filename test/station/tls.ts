/**
 * Self-signed certificates for the station's tests (openssl, as a hub makes its own), and their
 * fingerprints in the pinned form.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/server.ts';

export interface TestCert {
  cert: Buffer;
  key: Buffer;
  /** `sha256:` and lowercase hex pairs. */
  fingerprint: string;
}

export function makeCert(name = 'hub'): TestCert {
  const dir = tempDir('giftdesk-cert-');
  const certFile = path.join(dir, `${name}-cert.pem`);
  const keyFile = path.join(dir, `${name}-key.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const cert = fs.readFileSync(certFile);
  const key = fs.readFileSync(keyFile);
  fs.rmSync(dir, { recursive: true, force: true });
  const fingerprint = `sha256:${new crypto.X509Certificate(cert).fingerprint256.toLowerCase()}`;
  return { cert, key, fingerprint };
}
