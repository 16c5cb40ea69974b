// Loaded into the hub's process by `npm run bench` part `hub` (node --import, before the
// giftdesk command starts): the event loop's delay, as Node's monitorEventLoopDelay measures it
// in that very process. On SIGUSR2 it writes what it measured since the last signal to the file
// named by GIFTDESK_LOOP_PROBE (JSON, milliseconds, with a sequence number) and starts afresh.
// Without that variable it does nothing.
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.GIFTDESK_LOOP_PROBE;
if (file) {
  const resolutionMs = 10;
  const h = monitorEventLoopDelay({ resolution: resolutionMs });
  h.enable();
  let seq = 0;
  process.on('SIGUSR2', () => {
    const ms = (ns) => ns / 1e6;
    const snapshot = {
      seq: ++seq,
      at: Date.now(),
      resolutionMs,
      count: h.count,
      min: ms(h.min),
      p50: ms(h.percentile(50)),
      p99: ms(h.percentile(99)),
      max: ms(h.max),
      mean: ms(h.mean),
    };
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(snapshot));
    fs.renameSync(`${file}.tmp`, file);
    h.reset();
  });
}
