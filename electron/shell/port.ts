/**
 * The desktop app serves its API at a fixed port so staff scripts find the running app.
 * GIFTDESK_PORT overrides the default. Pure.
 */
export const DEFAULT_PORT = 4870;

export function desktopPort(env: Record<string, string | undefined>): number {
  const raw = env.GIFTDESK_PORT;
  if (raw === undefined || raw.trim() === '') return DEFAULT_PORT;
  if (!/^\d+$/.test(raw.trim()))
    throw new Error(`GIFTDESK_PORT must be a port number from 1024 to 65535, not "${raw}"`);
  const port = Number(raw);
  if (port < 1024 || port > 65535)
    throw new Error(`GIFTDESK_PORT must be a port number from 1024 to 65535, not ${port}`);
  return port;
}
