// The numbers GET /events/stream runs on (ours; docs/adr/0076-0079, "Server-sent events"). Tests pass
// smaller ones so they never wait on real intervals.
export interface SseOptions {
  /** Events kept for resumption with Last-Event-ID (a ring: the oldest falls out first). */
  replayBufferSize: number;
  /** A comment line goes out after this long without an event, so proxies keep the response open. */
  heartbeatMs: number;
  /** Events queued for one client and not yet written; past this the client is dropped, not buffered for. */
  maxQueuedBytes: number;
}

export const DEFAULT_SSE_OPTIONS: SseOptions = {
  replayBufferSize: 1000,
  heartbeatMs: 15_000,
  maxQueuedBytes: 1024 * 1024,
};
