// [history] /history: an inventory object's change history, from the audit log, for whoever may read the
// object (docs/adr/0483-object-history-for-readers.md). The full log stays at GET /logs (admin:*).
import type { Hono } from "hono";
import { listResponse } from "../../../shared/schemas/list-query.ts";
import { ObjectHistoryEntry, ObjectHistoryQuery } from "../../../shared/schemas/object-history.ts";
import { listObjectHistory } from "../../../shared/verbs/inventory/history/list-object-history.ts";
import { OBJECT_TYPES } from "../../../shared/verbs/inventory/object-kinds.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function historyRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/history",
      tag: "history",
      summary: "An inventory object's change history, newest first",
      description: `object_type (${OBJECT_TYPES.join(", ")}) and object_id name the object (both required; 404 when it is not there). Each entry says when, which action, who (actor_id and actor_name) and the diff (before/after of the changed fields). Needs the read scope of the object's kind (read:hardware, read:compute, read:services for services, environments and categories, read:networks for networks, VLANs and IP addresses, ...); the audit log itself, with addresses and the hash chain, stays at GET /logs for administrators.`,
      query: ObjectHistoryQuery,
      response: { schema: listResponse(ObjectHistoryEntry) },
    },
    async (c, { query, reply }) => reply(await listObjectHistory({ ctx: verbContext(c), input: query })),
  );
}
