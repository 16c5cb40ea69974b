// Loaded into a giftdesk process by `npm run bench` part `hub-join` (node --import, before the
// command starts): when the process exits it writes its own peak resident set size and CPU
// time (process.resourceUsage: the kernel's figures for this very process, not its children)
// to the file named by GIFTDESK_PEAK_RSS_FILE, as JSON. Without that variable it does nothing.
import fs from 'node:fs';

const file = process.env.GIFTDESK_PEAK_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    fs.writeFileSync(
      file,
      JSON.stringify({ maxRssKb: u.maxRSS, userMs: u.userCPUTime / 1000, systemMs: u.systemCPUTime / 1000 }),
    );
  });
}
