/**
 * Moving this window to another session without a reload: joining an event as a station
 * makes the event's account here (the hub's), and the join answers a key for it, which the
 * window takes from then on (main.tsx provides the switch; the screens start afresh on it).
 */
import { createContext, useContext } from 'react';
import type { AppSession } from '#shared/schemas/session.ts';

export const SessionSwitchContext = createContext<(session: AppSession) => void>(() => undefined);

export function useSwitchSession(): (session: AppSession) => void {
  return useContext(SessionSwitchContext);
}
