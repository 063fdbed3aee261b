// POST /notifications/sinks/{id}/test, second half (docs/adr/0449-sink-test-answers.md): after the test
// delivery is queued and committed (test-sink.ts), wait for the notification worker's one attempt and
// answer what the receiver said. A short poll of the delivery, bounded in count and in time: it works on
// every deployment, the edge included, where the functions cannot LISTEN; the worker itself is woken by
// the NOTIFY the queueing sent. No worker within the wait: ok false, state pending, and the delivery
// stays queued (a sidecar that starts later sends it).
import { and, eq } from "drizzle-orm";
import { notificationAttempts, notificationDeliveries } from "../../db/schema/index.ts";
import { defineRead } from "../verb.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";
import type { TestAnswer } from "./test-sink.ts";

/** The pauses between reads: quick at first (an idle worker sends within a few ms), then steady. */
const PAUSES_MS = [50, 100, 200, 300, 500];
const STEADY_MS = 500;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const awaitTestAnswer = defineRead(
  { scope: ADMIN_NOTIFICATIONS },
  async (ctx, { queued, waitMs }: { queued: TestAnswer; waitMs: number }): Promise<TestAnswer> => {
    const id = queued.delivery_id;
    if (id === null) return queued;
    const started = performance.now();
    // The count bounds the loop even if the time source stood still.
    const maxReads = 2 + Math.ceil(waitMs / STEADY_MS) + PAUSES_MS.length;
    let state = queued.state;
    for (let read = 0; read < maxReads; read++) {
      const [row] = await ctx.db
        .select({
          state: notificationDeliveries.state,
          outcome: notificationAttempts.outcome,
          http_status: notificationAttempts.http_status,
          error: notificationAttempts.error,
          duration_ms: notificationAttempts.duration_ms,
        })
        .from(notificationDeliveries)
        .leftJoin(
          notificationAttempts,
          and(eq(notificationAttempts.delivery_id, notificationDeliveries.id), eq(notificationAttempts.attempt, 1)),
        )
        .where(eq(notificationDeliveries.id, id));
      if (!row) return { ...queued, ok: false, error: "The test delivery was deleted before it was sent.", state: null };
      state = row.state;
      if (row.outcome != null) {
        const outcome = row.outcome as "delivered" | "failed" | "timeout";
        return {
          ok: outcome === "delivered",
          error: outcome === "delivered" ? null : (row.error ?? `The attempt ended ${outcome}.`),
          delivery_id: id,
          state,
          http_status: row.http_status,
          duration_ms: row.duration_ms,
          attempt_outcome: outcome,
        };
      }
      const left = waitMs - (performance.now() - started);
      if (left <= 0) break;
      await pause(Math.min(PAUSES_MS[read] ?? STEADY_MS, left));
    }
    return {
      ...queued,
      ok: false,
      state,
      error: `No notification worker sent the test within ${waitMs / 1000} s: it stays queued as delivery ${id} (is the sidecar running?).`,
    };
  },
);
