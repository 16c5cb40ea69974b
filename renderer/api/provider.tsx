/**
 * The API and the query cache for the whole app: <ApiProvider session=…> at the root,
 * useApi() in screens. Server state lives in TanStack Query; keys are in ./query-keys.ts so
 * screens invalidate each other's data consistently (a saved gift refreshes contact totals).
 * Whether the server answers at all is watched here too (./server-reach.ts, useServerDown()).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import type { AppSession } from '#shared/schemas/session.ts';
import { createApiClient } from './client.ts';
import { endpoints, type Api } from './endpoints.ts';
import { isApiError } from './errors.ts';
import { createWorkClock, useLiveRefresh } from './live-refresh.ts';
import { createServerReach, ServerReachContext, useServerWatch } from './server-reach.ts';

const ApiContext = createContext<Api | null>(null);

export function createQueryClient(): QueryClient {
  // networkMode 'always': the server is GiftDesk's own, on this machine, and answers whether the
  // machine has a network or not. TanStack's default ('online') pauses every query and mutation
  // once the browser says it is offline (the venue's Wi-Fi dropped): the donor box would offer
  // only "New donor" for a donor on file, and a save would wait with nothing said. Whether
  // the server answers is watched by the requests themselves (./server-reach.ts).
  return new QueryClient({
    defaultOptions: {
      queries: {
        networkMode: 'always',
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will answer the same again; the network may come back.
        retry: (count, err) => count < 2 && !(isApiError(err) && err.status >= 400 && err.status < 500),
      },
      mutations: { networkMode: 'always', retry: false }, // a write is never repeated behind the user's back
    },
  });
}

export function ApiProvider(props: {
  session: AppSession;
  onUnauthorized: () => void;
  queryClient?: QueryClient;
  children: ReactNode;
}) {
  const { session, onUnauthorized } = props;
  const reach = useMemo(() => createServerReach(), []);
  const work = useMemo(() => createWorkClock(), []);
  const api = useMemo(
    () =>
      endpoints(createApiClient({ session, onUnauthorized, onReach: reach.report, onWrite: work.worked })),
    [session, onUnauthorized, reach, work],
  );
  const client = useMemo(() => props.queryClient ?? createQueryClient(), [props.queryClient]);
  // While the server is not answering, ask it again (the sync status: small, and the header's).
  const probe = useCallback(() => api.sync.status(), [api]);
  useServerWatch(reach, client, probe);
  // What others write shows on the screen open here (./live-refresh.ts).
  const askLive = useCallback(() => api.live(), [api]);
  useLiveRefresh(client, askLive, work);
  return (
    <QueryClientProvider client={client}>
      <ServerReachContext.Provider value={reach}>
        <ApiContext.Provider value={api}>{props.children}</ApiContext.Provider>
      </ServerReachContext.Provider>
    </QueryClientProvider>
  );
}

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi() outside <ApiProvider>');
  return api;
}
