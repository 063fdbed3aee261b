// A live stream (spec 4.5): a WebSocket on this origin, authenticated by the session cookie, whose
// `{type: "event", channel, data}` frames go to the screen. Reconnects with a growing pause (up to 30 s)
// while the screen is open; answers the server's pings. The server subscribes a socket only once it has
// resolved its credential, and then sends `{type: "ready"}`: a change committed before that sent no event
// this screen heard, and neither did one made while the socket was away. So `onLive` runs on each
// `ready`, and the screen reads then what it shows; a screen that holds its first read until `onLive`
// (useLoad's `wait`) reads once a visit and misses nothing (docs/adr/0463). Before the first `ready`,
// `onLive` also runs when the socket fails or is not ready within a few seconds, so a screen without its
// stream still reads.
import { useEffect, useRef, useState } from "preact/hooks";
import { useT } from "./i18n/use-t.ts";

export type LiveState = "connecting" | "live" | "offline";

/** How long a screen waits for its stream's first `ready` before reading without it. */
const READY_WAIT_MS = 3000;

export function useStream(path: string, onEvent: (data: Record<string, unknown>) => void, onLive: () => void): LiveState {
  const [state, setState] = useState<LiveState>("connecting");
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const resync = useRef(onLive);
  resync.current = onLive;
  useEffect(() => {
    let socket: WebSocket | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let pause = 1000;
    let closed = false;
    // Whether the screen has been told to read without the stream (before its first ready).
    let readWithout = false;
    const withoutStream = () => {
      if (readWithout) return;
      readWithout = true;
      resync.current();
    };
    let everReady = false;
    const patience = setTimeout(() => everReady || withoutStream(), READY_WAIT_MS);
    const open = () => {
      const url = new URL(path, location.href);
      url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(url);
      socket.onmessage = (m) => {
        if (typeof m.data !== "string") return;
        let frame: { type?: string; data?: Record<string, unknown> };
        try {
          frame = JSON.parse(m.data) as typeof frame;
        } catch {
          return;
        }
        if (frame.type === "ping") socket?.send(JSON.stringify({ type: "pong" }));
        else if (frame.type === "ready") {
          everReady = true;
          pause = 1000;
          setState("live");
          resync.current();
        } else if (frame.type === "event" && frame.data) handler.current(frame.data);
      };
      socket.onclose = () => {
        setState("offline");
        if (closed) return;
        if (!everReady) withoutStream();
        retry = setTimeout(open, pause);
        pause = Math.min(pause * 2, 30_000);
      };
    };
    open();
    return () => {
      closed = true;
      clearTimeout(retry);
      clearTimeout(patience);
      socket?.close(1000);
    };
  }, [path]);
  return state;
}

/** Re-reads at most once a minute: what a screen that is open all day may ask of a route (docs/adr/0463). */
export const MIN_REREAD_MS = 60_000;

/** The gap for a change that is rare and only a read can show (an alert folded into an upstream's). */
export const RARE_REREAD_MS = 15_000;

/**
 * Coalesces a screen's requests to read again: `soon()` runs `read` after `settleMs` (a burst of events
 * is one read), and never sooner than `gapMs` (default a minute) after the previous run or `mark()` (the
 * screen's own read). A request with a shorter gap moves a pending read earlier.
 */
export function useCoalesced(read: () => void, { settleMs = 1500 } = {}): { soon(gapMs?: number): void; mark(): void } {
  const fn = useRef(read);
  fn.current = read;
  const last = useRef(0);
  const timer = useRef<{ id: ReturnType<typeof setTimeout>; at: number } | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current?.id), []);
  const ref = useRef({
    soon(gapMs = MIN_REREAD_MS) {
      const at = Date.now() + Math.max(settleMs, last.current + gapMs - Date.now());
      if (timer.current && timer.current.at <= at) return;
      clearTimeout(timer.current?.id);
      timer.current = {
        at,
        id: setTimeout(() => {
          timer.current = undefined;
          last.current = Date.now();
          fn.current();
        }, at - Date.now()),
      };
    },
    mark() {
      last.current = Date.now();
      clearTimeout(timer.current?.id);
      timer.current = undefined;
    },
  });
  return ref.current;
}

export function LiveBadge({ state }: { state: LiveState }) {
  const t = useT();
  return (
    <span class={`live live-${state}`} role="status">
      {state === "live" ? t("common:live.live") : state === "connecting" ? t("common:live.connecting") : t("common:live.offline")}
    </span>
  );
}
