// A live stream (spec 4.5): a WebSocket on this origin, authenticated by the session cookie, whose
// `{type: "event", channel, data}` frames go to the screen. Reconnects with a growing pause (up to 30 s)
// while the screen is open; answers the server's pings. A change made before the socket opened (the page's
// first read races the connection) or while it was away sent no event this screen heard, so `onLive` runs
// each time the stream goes live: the screen reads again what it shows.
import { useEffect, useRef, useState } from "preact/hooks";

export type LiveState = "connecting" | "live" | "offline";

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
    const open = () => {
      const url = new URL(path, location.href);
      url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(url);
      socket.onopen = () => {
        pause = 1000;
        setState("live");
        resync.current();
      };
      socket.onmessage = (m) => {
        if (typeof m.data !== "string") return;
        let frame: { type?: string; data?: Record<string, unknown> };
        try {
          frame = JSON.parse(m.data) as typeof frame;
        } catch {
          return;
        }
        if (frame.type === "ping") socket?.send(JSON.stringify({ type: "pong" }));
        else if (frame.type === "event" && frame.data) handler.current(frame.data);
      };
      socket.onclose = () => {
        setState("offline");
        if (closed) return;
        retry = setTimeout(open, pause);
        pause = Math.min(pause * 2, 30_000);
      };
    };
    open();
    return () => {
      closed = true;
      clearTimeout(retry);
      socket?.close(1000);
    };
  }, [path]);
  return state;
}

export function LiveBadge({ state }: { state: LiveState }) {
  return (
    <span class={`live live-${state}`} role="status">
      {state === "live" ? "Live" : state === "connecting" ? "Connecting…" : "Offline, retrying"}
    </span>
  );
}
