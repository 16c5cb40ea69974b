/**
 * Waits until the engine's next retry is due (an unknown create is looked for at HQ only once
 * its request's deadline has passed, reconcile.ts), then runs one pass.
 */
import type { PassResult, SyncEngine } from '../../electron/sync/push/engine.ts';

export async function passWhenDue(engine: SyncEngine, accountId?: string): Promise<PassResult> {
  const next = await engine.nextRetryAt();
  if (next !== null && next > Date.now()) await new Promise((r) => setTimeout(r, next - Date.now() + 5));
  return engine.runPass(accountId ? { accountId } : {});
}
