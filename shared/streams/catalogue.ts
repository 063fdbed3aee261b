// The UI live streams of spec 4.5: each forwards one NOTIFY channel to signed-in browsers. Spec 5.5
// lets only some of them take the token from a first text frame instead of the handshake cookie. The
// sidecar serves the sockets (sidecar/streams/); functions/routes/stream-status.ts answers their status.
import type { EventChannel } from "../verbs/verb.ts";

export interface StreamDef {
  path: string;
  channel: EventChannel;
  /** The caller needs read:<channel> (every role holds read:*; a narrowed API token may not). */
  scope: string;
  /** Whether the token may arrive in the first text frame (spec 5.5.1). */
  firstFrameAuth: boolean;
}

const stream = (channel: EventChannel, firstFrameAuth: boolean): StreamDef => ({
  path: `/api/v1/${channel}/stream`,
  channel,
  scope: `read:${channel}`,
  firstFrameAuth,
});

export const STREAMS: readonly StreamDef[] = [
  stream("topology", false),
  stream("discovery", false),
  stream("telemetry", true),
  stream("monitors", true),
  stream("agents", true),
];

export function streamByChannel(channel: EventChannel): StreamDef {
  const def = STREAMS.find((s) => s.channel === channel);
  if (!def) throw new Error(`no stream forwards the ${channel} channel`);
  return def;
}
