// The order-link sync's HTTP contract (POST /api/sync-order-links, GET /api/admin/sync-runs). Browser-safe.

/** What one sync did; rows are 1-based sheet row numbers, so the owner can find them. */
export interface SyncResult {
  /** Events whose order link was written. */
  updatedCount: number;
  /** Events that matched a row and already had its link. */
  unchanged: number;
  unmatchedRows: Array<{ row: number; name: string }>;
  /** Rows never written: no http(s) link, no name, or a different link from another row for the same event. */
  invalidRows: Array<{ row: number; name: string; link: string; reason: string }>;
  /** Rows whose name matches two or more events. */
  ambiguousRows: Array<{ row: number; name: string; eventIds: number[] }>;
}

export type SyncTrigger = 'admin' | 'schedule' | 'cli';

export interface SyncRun {
  id: number;
  trigger: SyncTrigger;
  status: 'running' | 'succeeded' | 'failed';
  /** ISO timestamps. */
  startedAt: string;
  finishedAt: string | null;
  /** Set when the run succeeded. */
  result: SyncResult | null;
  /** Why the run failed (or, while running, why the last attempt failed before a retry). */
  failureReason: string | null;
}

/** POST /api/sync-order-links → 202: the queued sync, or the one already waiting or running. */
export interface SyncStarted {
  jobId: string;
  queue: 'sync-order-links';
}

/** GET /api/admin/sync-runs */
export interface SyncRunsResponse {
  /** False when neither a sheet nor a CSV is configured (the button would get a 409). */
  configured: boolean;
  /** A sync is waiting, running or waiting to retry. */
  running: boolean;
  /** Its progress, 0-100, while running. */
  progress: number | null;
  /** The sync's job while running (follow it at GET /api/admin/jobs/{queue}/{jobId}); null otherwise. */
  job: { jobId: string; queue: 'sync-order-links'; state: string } | null;
  /** The last 10 runs, newest first. */
  runs: SyncRun[];
}
