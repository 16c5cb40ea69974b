/**
 * A GiftDesk server process with both kinds of session, for tests that kill it: serves a
 * stand-in app build with one-time links, opens the desktop window's session, and prints one
 * JSON line {url, token, desktop: {keyId, secret}}. Args: dataDir distDir.
 */
import { openStore } from '../../electron/db/open.ts';
import { createOneTimeTokens } from '../../electron/server/one-time-tokens.ts';
import { rendererStatic } from '../../electron/server/renderer-static.ts';
import { startServer } from '../../electron/server/serve.ts';
import { openDesktopSession } from '../../electron/shell/session.ts';

const [dataDir, dist] = process.argv.slice(2) as [string, string];
const tokens = createOneTimeTokens();
const store = await openStore({ dataDir });
const running = await startServer({
  store,
  port: 0,
  plugins: [rendererStatic({ dir: dist, browserSessions: { tokens } })],
});
const desktop = await openDesktopSession(running.ctx, running.url);
process.stdout.write(
  `${JSON.stringify({ url: running.url, token: tokens.issue(), desktop: { keyId: desktop.keyId, secret: desktop.secret } })}\n`,
);
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
