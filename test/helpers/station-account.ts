/**
 * A station's folder as the station tests start it: the event's account (named "Gala", no
 * default election) and its hub remote (Table A, station `stn_A`, a key that reaches no hub), in
 * the caller's transaction. The tests then apply feed pages or write records as a station would.
 */
import type { Db } from '../../electron/db/store.ts';
import { insertHubRemote } from '../../electron/sync/remote/hub-remote.ts';

export async function insertStationAccount(trx: Db, accountId: string, at: string): Promise<void> {
  await trx
    .insertInto('accounts')
    .values({
      id: accountId,
      name: 'Gala',
      defaultElectionType: null,
      defaultElectionYear: null,
      createdAt: at,
    })
    .execute();
  await insertHubRemote(
    trx,
    {
      accountId,
      baseUrl: 'https://127.0.0.1:1',
      keyId: 'gdk_STATION',
      secretSealed: 'v1.a.b.c',
      fingerprint: `sha256:${'00:'.repeat(31)}00`,
      stationId: 'stn_A',
      stationName: 'Table A',
    },
    at,
  );
}
