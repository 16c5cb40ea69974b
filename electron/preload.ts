/**
 * The renderer's only bridge to the shell: one call that returns this launch's API session.
 * Data itself goes over HTTP to the same /api/v1 scripts use.
 */
import { contextBridge, ipcRenderer } from 'electron';

export interface GiftDeskBridge {
  session(): Promise<{ apiBase: string; accountId: string; keyId: string; secret: string }>;
}

contextBridge.exposeInMainWorld('giftdesk', {
  session: () => ipcRenderer.invoke('giftdesk:session'),
} satisfies GiftDeskBridge);
