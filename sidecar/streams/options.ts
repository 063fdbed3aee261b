// The numbers the streams run on. Spec 8.3 fixes the first-frame timeout; the rest are ours (docs/architecture.md, API contracts
// and the sidecar brief). Tests pass smaller ones so they never wait on real intervals.
export interface StreamOptions {
  /** How long a socket may wait for its first-frame token (spec 8.3: 10 s). */
  firstFrameTimeoutMs: number;
  /** How often the server sends {type: "ping"} (and a protocol ping, which browsers answer by themselves). */
  pingIntervalMs: number;
  /** A socket from which nothing (frame or protocol pong) has come for this long is closed. */
  idleTimeoutMs: number;
  /** How often an open socket's credential is checked again, so revocation and role changes reach it. */
  revalidateMs: number;
  /** A socket whose unsent data grows past this is dropped (1013) rather than buffered without end. */
  maxBufferedBytes: number;
  /** Clients only send auth and pong frames. */
  maxPayloadBytes: number;
  /** Open sockets per user across all streams; one more is closed 1013. */
  maxConnectionsPerUser: number;
  /** Sockets still waiting for their first-frame token, process-wide; one more is closed 1013. */
  maxPendingSockets: number;
  /** How long to wait before trying LISTEN again after it failed (database unreachable). */
  listenRetryMs: number;
}

export const DEFAULT_STREAM_OPTIONS: StreamOptions = {
  firstFrameTimeoutMs: 10_000,
  pingIntervalMs: 20_000,
  idleTimeoutMs: 60_000,
  revalidateMs: 60_000,
  maxBufferedBytes: 1024 * 1024,
  maxPayloadBytes: 16 * 1024,
  maxConnectionsPerUser: 20,
  maxPendingSockets: 500,
  listenRetryMs: 5_000,
};
