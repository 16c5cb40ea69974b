/**
 * A syncing process for the kill -9 and two-engine tests: opens the local SQLite file in its
 * own process and runs sync passes until nothing is left, printing one JSON line per pass.
 *   node --import tsx test/sync/engine-child.ts <dataDir> <accountId> <holderId|auto> <leaseMs> <timeoutMs> [maxPasses]
 * (holderId 'auto': the engine's own process holder id, as in production)
 * (maxPasses, default 400: enough to wait out a test's short lease; the bench's production
 * lease of 30 s needs more)
 * Exit 0 when drained; the parent may kill -9 it at any point.
 */
import { openStore } from '../../electron/db/open.ts';
import { createSyncEngine } from '../../electron/sync/push/engine.ts';
import { queueCounts } from '../../electron/sync/outbox/outbox.ts';
import { fastClientFactory, testKeys } from './rig.ts';

const [dataDir, accountId, holderId, leaseMs, timeoutMs, maxPasses] = process.argv.slice(2);
if (!dataDir || !accountId || !holderId) {
  process.stderr.write('usage: engine-child.ts <dataDir> <accountId> <holderId> [leaseMs] [timeoutMs]\n');
  process.exit(64);
}

const store = await openStore({ dataDir });
const deadline = Number(timeoutMs ?? 1000);
// 'auto': the production holder id (host/pid/deadline), which a restart may take over from at once after a kill -9.
const engine = createSyncEngine({
  store,
  keys: testKeys,
  makeClient: fastClientFactory(deadline),
  requestTimeoutMs: deadline,
  ...(holderId === 'auto' ? {} : { holderId }),
  leaseMs: Number(leaseMs ?? 3000),
});
const say = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(o)}\n`);
say({ started: engine.holder, pid: process.pid });
for (let i = 0; i < Number(maxPasses ?? 400); i++) {
  const r = await engine.runPass({ accountId });
  const c = await queueCounts(store.db, accountId);
  const open = await store.db
    .selectFrom('syncItems')
    .select('entityId')
    .where('accountId', '=', accountId)
    .where('state', 'in', ['unknown', 'in_flight'])
    .executeTakeFirst();
  say({ pass: i, ran: (r as { ran: boolean }).ran, ...c, open: Boolean(open) });
  if ((r as { ran: boolean }).ran && c.pending === 0 && c.inFlight === 0 && !open) {
    await engine.stop();
    await store.close();
    say({ drained: true });
    process.exit(0);
  }
  const next = await engine.nextRetryAt();
  await new Promise((res) =>
    setTimeout(res, next === null ? 20 : Math.min(Math.max(0, next - Date.now()), 250)),
  );
}
say({ drained: false });
process.exit(1);
