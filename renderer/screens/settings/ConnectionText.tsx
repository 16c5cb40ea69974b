/** What the status says of HQ ("Offline — HQ not reached since 14:02"), its time as a <time>: the badge's and the panel's one wording. */
import { clockTime, type connectionWords } from './sync-keys.ts';

export function ConnectionText({ said }: { said: ReturnType<typeof connectionWords> }) {
  return (
    <>
      {said.text}
      {said.at ? (
        <>
          {' '}
          <time dateTime={said.at}>{clockTime(said.at)}</time>
        </>
      ) : null}
    </>
  );
}
