/**
 * `giftdesk serve`'s TLS and event-hub parts: the certificate files of --tls-cert/--tls-key,
 * and with --hub the account whose event this server hosts, the hub's own certificate (made on
 * the first start, kept in the data folder) and what is printed once it listens: the address,
 * the fingerprint stations pin and a fresh pairing code.
 */
import { joinLinkFor } from '#shared/hub-link.ts';
import fs from 'node:fs';
import type { Store } from '../db/store.ts';
import { createContext } from '../domain/index.ts';
import { chooseHubAccount, createPairingCode, ensureHubCertificate } from '../hub/index.ts';
import type { RunningServer } from '../server/serve.ts';
import { CliError, print } from './output.ts';

export interface TlsFiles {
  tlsCert?: string;
  tlsKey?: string;
}

/** The certificate and key of --tls-cert and --tls-key (both or neither). */
export function readTls(o: TlsFiles & { hub?: boolean }): { cert: Buffer; key: Buffer } | undefined {
  if (Boolean(o.tlsCert) !== Boolean(o.tlsKey))
    throw new CliError('--tls-cert and --tls-key go together: give both, or neither', 64, 'usage');
  if (o.hub && o.tlsCert)
    throw new CliError(
      "--hub serves with the hub's own certificate (kept in the data folder, the one stations pin): leave out --tls-cert and --tls-key",
      64,
      'usage',
    );
  if (!o.tlsCert || !o.tlsKey) return undefined;
  try {
    return { cert: fs.readFileSync(o.tlsCert), key: fs.readFileSync(o.tlsKey) };
  } catch (err) {
    throw new CliError(`cannot read the TLS certificate or key: ${(err as Error).message}`, 66, 'no_input');
  }
}

export interface HubStart {
  account: { id: string; fingerprint: string };
  tls: { cert: Buffer; key: Buffer };
}

/**
 * With --hub: the account (--account, else the only one in the data folder) and the
 * hub's certificate. The store is closed when this fails (the command ends there).
 */
export async function prepareHub(
  o: { hub?: boolean; account?: string; host: string },
  store: Store,
  dataDir: string,
): Promise<HubStart | null> {
  if (!o.hub) {
    if (o.account !== undefined) {
      await store.close();
      throw new CliError('--account names the account of the event with --hub', 64, 'usage');
    }
    return null;
  }
  try {
    const chosen = await chooseHubAccount(createContext(store), o.account);
    if ('problem' in chosen) throw new CliError(`serve --hub: ${chosen.problem}`, 64, 'usage');
    const cert = await ensureHubCertificate(dataDir, [o.host]);
    return { account: { id: chosen.accountId, fingerprint: cert.fingerprint }, tls: cert };
  } catch (err) {
    await store.close();
    throw err;
  }
}

/** Once the hub listens: a fresh pairing code, and the hub's address, fingerprint and code printed. */
export async function announceHub(
  o: { json?: boolean },
  running: RunningServer,
  start: HubStart,
  logFile: string,
): Promise<void> {
  const code = await createPairingCode(running.ctx, start.account.id);
  const hub = {
    fingerprint: start.account.fingerprint,
    pairingCode: code.code,
    expiresAt: code.expiresAt,
    accountId: start.account.id,
    joinLink: joinLinkFor({ url: running.url, code: code.code, fingerprint: start.account.fingerprint }),
  };
  print(o, { url: running.url, hub }, () =>
    [
      `GiftDesk hosts the event of account ${start.account.id} at ${running.url} (HTTPS only)`,
      `Certificate fingerprint (stations pin it): ${hub.fingerprint}`,
      `Pairing code: ${hub.pairingCode} (one station, good for 10 minutes; \`giftdesk hub code\` makes another)`,
      ...(/^https:\/\/(127\.|localhost|\[::1\])/.test(running.url)
        ? [
            "Only this machine reaches it: give --host 0.0.0.0 (or this machine's address) to serve the venue's network.",
          ]
        : []),
      `Log (warnings, errors and every request): ${logFile}`,
      'Stop with Ctrl+C (requests in flight finish first).',
    ].join('\n'),
  );
}
