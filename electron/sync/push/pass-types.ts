/** What a push pass is asked (PassOptions) and what it answers (PassResult); engine.ts runs it. */
export interface PassProgress {
  accountId: string;
  done: number;
  total: number;
}

export interface PassOptions {
  accountId?: string;
  onProgress?: (p: PassProgress) => void;
  /**
   * A person asked ("Sync now"): a record backing off after a failure that left HQ unchanged
   * is tried in this pass instead of at its backoff's end. The pacer's rate and HQ's
   * Retry-After still hold, the pass still stops after three failures in a row, and a record
   * whose last outcome is unknown is still looked for at HQ first, not before its deadline.
   */
  tryNow?: boolean;
}

export interface AccountPassResult {
  accountId: string;
  requests: number;
  applied: number;
  parked: number;
  failed: number;
  /** Why the pass stopped early, if it did (key refused, HQ unreachable). */
  stopped: string | null;
}

export interface PassResult {
  /** False when another process holds the lease. */
  ran: boolean;
  accounts: AccountPassResult[];
}
