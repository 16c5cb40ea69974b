/**
 * The import's worker thread: reads a CSV file and checks its rows (import-rows.ts), a
 * chunk at a time, as the importing thread asks. Nothing here touches the database.
 */
import { parentPort } from 'node:worker_threads';
import { type FromWorker, type RowSource, type ToWorker, fileSource, serializeError } from './import-rows.ts';

function workerPort() {
  if (!parentPort) throw new Error('import-worker.ts runs in a worker thread');
  return parentPort;
}
const port = workerPort();

let source: RowSource | null = null;
const reply = (m: FromWorker) => port.postMessage(m);

async function handle(msg: ToWorker): Promise<void> {
  try {
    switch (msg.type) {
      case 'start':
        source = fileSource(msg.kind, msg.accountId, msg.file);
        await source.start(msg.defs);
        reply({ type: 'started' });
        return;
      case 'next':
        if (!source) throw new Error('next before start');
        reply({ type: 'chunk', chunk: await source.next(msg.n, msg.at, msg.defs) });
        return;
      case 'close':
        await source?.close();
        port.close();
        return;
    }
  } catch (err) {
    reply({ type: 'failed', error: serializeError(err) });
  }
}

// One message at a time, in order.
let queue = Promise.resolve();
port.on('message', (msg: ToWorker) => {
  queue = queue.then(() => handle(msg));
});
