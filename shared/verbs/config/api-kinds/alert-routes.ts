// Alert routes in a lab file (docs/cli.md, docs/adr/0507): which alerts go to which sink. A route has no
// name, so each entry gives its `key`. `sink`, `site` and `environment` name entries of the file;
// escalation policies are left out (they are not a kind of the file).
import { toJsonSchema } from "@valibot/to-json-schema";
import { inArray } from "drizzle-orm";
import { notificationRoutes } from "../../../db/schema/index.ts";
import { ROUTE_SEVERITIES } from "../../../domain/notifications/severity.ts";
import { QuietHoursBody } from "../../../schemas/notification-escalation.ts";
import { RouteCreateBody, RoutePatchBody } from "../../../schemas/notifications.ts";
import { createRoute, deleteRoute, patchRoute } from "../../notifications/alert-routes.ts";
import { type ApiConfigKind, type NamedKey, NOT_YET, type Row } from "../api-kind.ts";

/** Reference fields: the file's field, the API's column, the kind whose key it names. */
const REFS = [
  { field: "sink", column: "sink_id", kind: "notification_sinks" },
  { field: "site", column: "site_id", kind: "sites" },
  { field: "environment", column: "environment_id", kind: "environments" },
] as const;

export const alertRoutesKind: ApiConfigKind = {
  key: "alert_routes",
  table: "notification_routes",
  nameField: null,
  schema: {
    ...Object.fromEntries(
      REFS.map((r) => [r.field, { type: ["string", "null"], description: `The key of a ${r.kind} entry.`, "x-ref": r.kind }]),
    ),
    alert_severity: { enum: [...ROUTE_SEVERITIES] },
    event_kinds: { type: "array", items: { type: "string" }, maxItems: 50 },
    tag: { type: ["string", "null"] },
    enabled: { type: "boolean" },
    quiet_hours: { anyOf: [{ type: "null" }, toJsonSchema(QuietHoursBody, { errorMode: "ignore" })] },
  },
  references(fields) {
    const named: NamedKey[] = [];
    for (const r of REFS)
      if (typeof fields[r.field] === "string") named.push({ path: r.field, kind: r.kind, key: fields[r.field] as string });
    return named;
  },
  async read(ctx, ids, keyOf) {
    const rows = ids.length === 0 ? [] : await ctx.db.select().from(notificationRoutes).where(inArray(notificationRoutes.id, ids));
    const out = new Map<number, Row>();
    for (const r of rows) {
      const view: Row = {
        alert_severity: r.alert_severity,
        event_kinds: r.event_kinds,
        tag: r.tag,
        enabled: r.enabled,
        quiet_hours: r.quiet_hours,
      };
      for (const ref of REFS) {
        const id = r[ref.column];
        view[ref.field] = id == null ? null : keyOf(ref.kind, id);
      }
      out.set(r.id, view);
    }
    return out;
  },
  body(fields, idOf) {
    const body: Row = { ...fields };
    for (const r of REFS) {
      if (!(r.field in fields)) continue;
      delete body[r.field];
      const key = fields[r.field];
      body[r.column] = key === null ? null : (idOf(r.kind, String(key)) ?? NOT_YET);
    }
    return body;
  },
  createRule: RouteCreateBody,
  patchRule: RoutePatchBody,
  async create(ctx, body) {
    return (await createRoute({ ctx, input: body as never })).id;
  },
  async update(ctx, id, body) {
    await patchRoute({ ctx, input: { id, body: body as never } });
  },
  async remove(ctx, id) {
    await deleteRoute({ ctx, input: { id } });
  },
};
