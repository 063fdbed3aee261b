// Writes one event subscription to a server-sent events response: a reset notice when the client's
// Last-Event-ID could not be resumed from, the replayed events, `ready`, then live events as
// `id:` / `event: <channel>` / `data: <JSON>`, with a comment line whenever the stream has been quiet
// for the heartbeat interval. The credential is resolved again every revalidate interval; when it no
// longer holds, or the process drains, a last `event: close` says why before the response ends. A
// client that reads too slowly is cut off without one (writing to it is what it cannot take).
import type { SSEStreamingApi } from "hono/streaming";
import type { Logger } from "../../shared/logger.ts";
import type { EventSubscription } from "../../shared/streams/event-feed.ts";

export interface PumpPlan {
  sub: EventSubscription;
  channels: readonly string[];
  heartbeatMs: number;
  revalidateMs: number;
  /** Resolves the credential again: undefined while it still holds, else the reason to end. */
  recheck: () => Promise<"unauthorized" | "forbidden" | undefined>;
  logger: Logger;
}

export async function pumpEvents(stream: SSEStreamingApi, plan: PumpPlan): Promise<void> {
  const { sub, heartbeatMs, revalidateMs, recheck } = plan;
  stream.onAbort(() => sub.close());
  // A stalled write would never return by itself: aborting the stream releases it.
  void sub.ended.then((reason) => reason === "slow_consumer" && stream.abort());
  let refused: "unauthorized" | "forbidden" | undefined;
  try {
    // The reset carries the newest id (or an empty one, which clears the client's), so the next
    // reconnect resumes from here rather than asking for the lost position again.
    if (sub.reset) await stream.writeSSE({ event: "reset", id: sub.reset.newest_id ?? "", data: JSON.stringify(sub.reset) });
    for (const e of sub.replay) await stream.writeSSE({ id: e.id, event: e.channel, data: e.data });
    await stream.writeSSE({
      event: "ready",
      data: JSON.stringify({ channels: plan.channels, replayed: sub.replay.length, heartbeat_interval_s: heartbeatMs / 1000 }),
    });
    let checkedAt = performance.now();
    for (;;) {
      const events = await sub.next(heartbeatMs);
      if (events === null) break;
      if (events.length === 0) await stream.write(": heartbeat\n\n");
      for (const e of events) await stream.writeSSE({ id: e.id, event: e.channel, data: e.data });
      if (performance.now() - checkedAt >= revalidateMs) {
        checkedAt = performance.now();
        refused = await recheck();
        if (refused) sub.close();
      }
    }
  } catch (e) {
    plan.logger.error("event stream failed", { error: String(e) });
    sub.close();
    if (!stream.aborted) await stream.writeSSE({ event: "close", data: JSON.stringify({ reason: "internal_error" }) });
    return;
  }
  // Ended by close(): the client left (nothing to say) or its credential was refused (say which).
  const reason = refused ?? (await sub.ended);
  if (stream.aborted || reason === "slow_consumer" || reason === "closed") return;
  await stream.writeSSE({ event: "close", data: JSON.stringify({ reason }) });
}
