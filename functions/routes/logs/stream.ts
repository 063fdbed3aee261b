// GET /logs/stream (spec 6.3): Server-Sent Events. First the newest `limit` entries (oldest of them
// first), then every 2 s the entries appended since, as `event: audit` with the entry id as the SSE id
// (a reconnect with Last-Event-ID resumes after it). Closes with `event: end` after max_seconds, or
// when the process starts stopping; a reconnecting client resumes where it left off.
import type { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { AuditEntry } from "../../../shared/verbs/audit/entry.ts";
import { auditFeed } from "../../../shared/verbs/audit/feed.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { AuditEntrySchema, StreamQuery } from "../../../shared/schemas/logs.ts";

export const POLL_MS = 2000;
const BATCH = 100;
const KEEPALIVE_MS = 15_000;

function lastEventId(header: string | undefined): number | null {
  return header && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : null;
}

export function logStreamRoute(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/logs/stream",
      tag: "logs",
      scope: auditFeed.scope,
      summary: "Live audit entries as Server-Sent Events (newest first batch, then new ones every 2 s)",
      description:
        "Events: `audit` (data: one entry, id: its id), `end` (data: {reason}), `error`. Send Last-Event-ID to resume after an entry. The stream closes after max_seconds (default 300).",
      query: StreamQuery,
      response: { schema: AuditEntrySchema, contentType: "text/event-stream", description: "An SSE stream of audit entries" },
    },
    async (c, { query }) => {
      const deps = c.get("deps");
      const base = verbContext(c);
      // The stream outlives the request's database lease (released when this handler returns), so
      // every poll takes its own: on the edge a lease is one client, on Node the shared pool.
      const feed = async (after_id: number | null, limit: number) => {
        const lease = deps.database.lease();
        try {
          return await auditFeed({ ctx: { ...base, db: lease.db }, input: { after_id, limit } });
        } finally {
          await lease.release();
        }
      };
      const resumeAfter = lastEventId(c.req.header("last-event-id"));
      // Read before the stream opens, so a failure here is an ordinary JSON error response.
      const initial = await feed(resumeAfter, query.limit);
      const deadline = deps.clock.now().getTime() + query.max_seconds * 1000;

      return streamSSE(c, async (stream) => {
        let open = true;
        stream.onAbort(() => {
          open = false;
        });
        let after = resumeAfter ?? 0;
        let lastWrite = deps.clock.now().getTime();
        const send = async (entries: AuditEntry[]) => {
          for (const e of entries) {
            await stream.writeSSE({ event: "audit", id: String(e.id), data: JSON.stringify(e) });
            after = e.id;
            lastWrite = deps.clock.now().getTime();
          }
        };
        let reason = "max_seconds";
        try {
          await send(initial);
          for (;;) {
            const left = deadline - deps.clock.now().getTime();
            if (!open || left <= 0) break;
            if (deps.lifecycle?.state === "stopping") {
              reason = "server_stopping";
              break;
            }
            await stream.sleep(Math.min(POLL_MS, left));
            if (!open) break;
            let batch: AuditEntry[];
            do {
              batch = await feed(after, BATCH);
              await send(batch);
            } while (open && batch.length === BATCH);
            // A comment line now and then keeps proxies from closing an idle stream.
            if (deps.clock.now().getTime() - lastWrite >= KEEPALIVE_MS) {
              await stream.write(": keepalive\n\n");
              lastWrite = deps.clock.now().getTime();
            }
          }
        } catch (err) {
          deps.logger.warn("audit stream stopped", { request_id: base.requestId, error: err instanceof Error ? err.message : String(err) });
          reason = "error";
          if (open)
            await stream.writeSSE({
              event: "error",
              data: JSON.stringify({ error_code: "SERVICE_NOT_READY", detail: "The audit log could not be read; reconnect to resume." }),
            });
        }
        if (open) await stream.writeSSE({ event: "end", data: JSON.stringify({ reason }) });
      });
    },
  );
}
