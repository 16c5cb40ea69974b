/**
 * The server of bench/renderer-entry-while-printing.ts, in a process of its own as at HQ: the
 * browser tests' server (test/helpers/app-server.ts: a temp SQLite file, or a fresh PostgreSQL
 * database with GIFTDESK_TEST_ENGINE=postgres and DATABASE_URL) serving the built renderer,
 * the letter settings and BENCH_LETTERS_ENTRY_DONORS donors' gifts seeded. The browser and
 * its driver (playwright-core) stay in the parent: in one process, the driver's own work (its
 * CDP writes and stack captures) took more of the server's thread than the server did while
 * the run printed.
 *
 * Spoken to over the fork's IPC channel (EntryServerRequest, one answer each); the year-end
 * run is started in the server's process, as POST /letters/runs starts it.
 */
import { getLetterRun, startLetterRun, waitForRun } from '../electron/letters/index.ts';
import { startAppServer } from '../test/helpers/app-server.ts';
import { seedLetterData } from './letters-data.ts';
import { letterSettings } from './letters-run.ts';

export type EntryServerRequest =
  | { type: 'link' }
  | { type: 'start-run' }
  | { type: 'run-status'; runId: string }
  | { type: 'wait-run'; runId: string }
  | { type: 'close' };

export type EntryServerAnswer =
  | {
      type: 'ready';
      url: string;
      accountId: string;
      keyId: string;
      secret: string;
      engine: string;
      donors: number;
      seedSeconds: number;
    }
  | { type: 'link'; link: string }
  | { type: 'started'; runId: string }
  | { type: 'status'; status: string }
  | { type: 'done'; status: string; documents: number }
  | { type: 'closed' }
  | { type: 'failed'; error: string };

const DONORS = Number(process.env.BENCH_LETTERS_ENTRY_DONORS ?? 100_000);

const send = (m: EntryServerAnswer) => process.send?.(m);

const server = await startAppServer();
const t0 = performance.now();
await letterSettings(server.ctx, server.accountId);
const data = await seedLetterData(server.ctx, server.accountId, { donors: DONORS, gifts: [2, 4] });

process.on('message', (m: EntryServerRequest) => {
  void (async (): Promise<EntryServerAnswer> => {
    switch (m.type) {
      case 'link':
        return { type: 'link', link: server.appLink() };
      case 'start-run': {
        const started = await startLetterRun(server.ctx, server.dataDir, {
          accountId: server.accountId,
          kind: 'year-end',
          year: 2026,
        });
        return { type: 'started', runId: started.id };
      }
      case 'run-status':
        return { type: 'status', status: (await getLetterRun(server.ctx, server.accountId, m.runId)).status };
      case 'wait-run': {
        const run = await waitForRun(server.ctx, server.accountId, m.runId);
        return { type: 'done', status: run.status, documents: run.documents };
      }
      case 'close':
        await server.close();
        return { type: 'closed' };
    }
  })().then(
    (answer) => {
      send(answer);
      if (answer.type === 'closed') process.disconnect();
    },
    (err: unknown) => send({ type: 'failed', error: err instanceof Error ? err.message : String(err) }),
  );
});

send({
  type: 'ready',
  url: server.url,
  accountId: server.accountId,
  keyId: server.keyId,
  secret: server.secret,
  engine: server.store.engine,
  donors: data.donors,
  seedSeconds: (performance.now() - t0) / 1000,
});
