// The audit log: GET /logs (filtered list), GET /logs/actions, GET /logs/stream (SSE) and DELETE /logs
// (high-impact: confirmation headers, a verified backup, and a new chain).
import type { Hono } from "hono";
import { deleteLogs } from "../../../shared/verbs/audit/delete-logs.ts";
import { listAuditActions } from "../../../shared/verbs/audit/list-actions.ts";
import { listAuditEntries } from "../../../shared/verbs/audit/list-entries.ts";
import { confirmationDoc, confirmed } from "../../confirmation.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { AuditActions, AuditPageSchema, DeleteLogsBody, DeleteLogsQuery, LogQuery, LogsDeleted } from "../../../shared/schemas/logs.ts";
import { logStreamRoute } from "./stream.ts";

const DELETE_LOGS = { action: "delete-logs", requiresBackup: true } as const;

export function logRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/logs",
      tag: "logs",
      scope: listAuditEntries.scope,
      summary: "The audit log, filtered and paged (newest first by default)",
      description:
        "Filters: level, category, action, actor_id, entity_type, entity_id, since/until (inclusive, ISO 8601), q (case-insensitive text in action, category, actor e-mail, entity and diff).",
      query: LogQuery,
      response: { schema: AuditPageSchema },
    },
    async (c, { query, reply }) => reply(await listAuditEntries({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/logs/actions",
      tag: "logs",
      scope: listAuditActions.scope,
      summary: "Every action name in the audit log with its number of entries",
      response: { schema: AuditActions },
    },
    async (c, { reply }) => reply(await listAuditActions({ ctx: verbContext(c) })),
  );

  logStreamRoute(app);

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/logs",
      tag: "logs",
      scope: deleteLogs.scope,
      summary: "Delete every audit entry; the deletion becomes the first entry of a new chain",
      description: `${confirmationDoc(DELETE_LOGS)} The reason (?reason= or body {reason}) is recorded.`,
      query: DeleteLogsQuery,
      body: DeleteLogsBody,
      response: { schema: LogsDeleted },
      errors: [409, 428],
    },
    async (c, { query, body, reply }) => {
      const reason = query.reason ?? body?.reason ?? null;
      return confirmed(c, DELETE_LOGS, reply, (ctx) => deleteLogs({ ctx, input: { reason } }));
    },
  );
}
