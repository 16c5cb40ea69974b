/**
 * What the desktop app's error box says when start-up fails: what happened and what the person
 * at the computer can do about it. Pure: the start-up (startup.ts) shows it and exits.
 */
import { isMigrationFailure } from '../db/migrate.ts';
import { databaseFile } from '../paths.ts';

export interface StartupFailure {
  title: string;
  message: string;
}

export interface FailureContext {
  /** The data folder (app.getPath('userData')); '' when Electron failed before it was known. */
  dataDir: string;
  /** The port the app was to serve on, once known. */
  port: number | null;
  /** Whether GIFTDESK_PORT chose that port. */
  portFromEnv: boolean;
}

const codeOf = (err: unknown): string | undefined =>
  err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined;

export function startupFailure(err: unknown, ctx: FailureContext): StartupFailure {
  const text = err instanceof Error ? err.message : String(err);
  const code = codeOf(err);

  if (code === 'database_damaged') return { title: 'GiftDesk: the database is damaged', message: text }; // says how to restore

  if (code === 'database_newer')
    return {
      title: 'GiftDesk: the database is from a newer version',
      message: [
        `The database in ${ctx.dataDir} was last opened by a newer version of GiftDesk than this one.`,
        text,
        'Install that newer version again (ask whoever looks after GiftDesk for it) and start it: your gifts and contacts are in the file.',
      ].join('\n\n'),
    };

  if (isMigrationFailure(err)) {
    const file = databaseFile(ctx.dataDir);
    const keepWorking =
      err.applied.length === 0
        ? 'To keep working, start the GiftDesk version you used before: it opens the database as it is.'
        : err.backup
          ? `The version you used before will not open the file as it is now (the steps applied before the failure are newer than it). To keep working with that version, move ${file} (and its -wal and -shm files) aside and copy the backup in its place: cp "${err.backup}" "${file}". The backup holds everything the file held before this update.`
          : 'The version you used before will not open the database as it is now (the steps applied before the failure are newer than it): to keep working with it, restore the backup taken before this update.';
    return {
      title: 'GiftDesk could not update its database',
      message: [
        `This version of GiftDesk updates the database in ${ctx.dataDir} when it starts, and the update failed.`,
        text,
        `Your gifts and contacts are still in the file: keep it. ${keepWorking}`,
        'Send this message to whoever looks after GiftDesk for you, so that the update can be fixed.',
      ].join('\n\n'),
    };
  }

  if ((code === 'EADDRINUSE' || code === 'EACCES') && ctx.port !== null) {
    const port = ctx.port;
    const chosen = ctx.portFromEnv ? ` (chosen by GIFTDESK_PORT=${port})` : '';
    const what =
      code === 'EADDRINUSE'
        ? `another program on this computer is already using port ${port}${chosen}`
        : `this computer does not allow GiftDesk to use port ${port}${chosen}`;
    return {
      title:
        code === 'EADDRINUSE' ? `GiftDesk: port ${port} is in use` : `GiftDesk: port ${port} is not allowed`,
      message: [
        `GiftDesk could not start: ${what}. GiftDesk serves its screens and the API your scripts use at http://127.0.0.1:${port}.`,
        code === 'EADDRINUSE'
          ? 'It is most often GiftDesk itself, started by another person signed in to this computer, or `giftdesk serve` left running in a terminal: close it, then start GiftDesk again.'
          : 'A security program or a system policy may be blocking it.',
        `Or start GiftDesk on another port: set GIFTDESK_PORT to a free port from 1024 to 65535 (for example GIFTDESK_PORT=${port === 4871 ? 4872 : 4871}); scripts then use that port too.`,
        'Nothing was served, and your data is as it was.',
      ].join('\n\n'),
    };
  }

  return {
    title: 'GiftDesk could not start',
    message: ctx.dataDir ? `${text}\n\nThe data folder is ${ctx.dataDir}.` : text, // none yet: Electron did not start
  };
}
