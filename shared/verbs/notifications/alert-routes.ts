// /notifications/routes: which alerts reach which sink, by minimum severity, event kind and inventory
// scope (a site, an environment, a tag); a route may name an escalation policy (adr/0448) and quiet hours
// (adr/0450). The original had no PATCH; ours changes a route in place under If-Match (its updated_at).
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { environments, notificationEscalationPolicies, notificationRoutes, sites } from "../../db/schema/index.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type { RouteCreate, RoutePatch, RouteShape } from "../../schemas/notifications.ts";
import { type ListPage, listPage } from "../resources/list.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";
import { requireSink } from "./sink-secrets.ts";

type RouteRow = typeof notificationRoutes.$inferSelect;

const present = (r: RouteRow): RouteShape => ({
  id: r.id,
  sink_id: r.sink_id,
  alert_severity: r.alert_severity,
  event_kinds: r.event_kinds,
  site_id: r.site_id,
  environment_id: r.environment_id,
  tag: r.tag,
  enabled: r.enabled,
  escalation_policy_id: r.escalation_policy_id,
  // Stored only through QuietHoursBody, so its days are weekdays.
  quiet_hours: r.quiet_hours as RouteShape["quiet_hours"],
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

/** The rows a route names must exist: one 422 naming each that does not. */
async function checkReferences(db: Db, body: RoutePatch): Promise<void> {
  if (body.sink_id !== undefined) await requireSink(db, body.sink_id);
  const issues: ValidationIssue[] = [];
  const missing = async (field: string, what: string, id: number | null | undefined, exists: (id: number) => Promise<unknown[]>) => {
    if (id != null && (await exists(id)).length === 0)
      issues.push({ loc: ["body", field], msg: `${what} ${id} does not exist.`, type: "value_error" });
  };
  await missing("site_id", "Site", body.site_id, (id) => db.select({ id: sites.id }).from(sites).where(eq(sites.id, id)));
  await missing("environment_id", "Environment", body.environment_id, (id) =>
    db.select({ id: environments.id }).from(environments).where(eq(environments.id, id)),
  );
  await missing("escalation_policy_id", "Escalation policy", body.escalation_policy_id, (id) =>
    db
      .select({ id: notificationEscalationPolicies.id })
      .from(notificationEscalationPolicies)
      .where(eq(notificationEscalationPolicies.id, id)),
  );
  if (issues.length > 0) throw ApiError.validation(issues);
}

async function requireRoute(db: Db, id: number): Promise<RouteRow> {
  const [row] = await db.select().from(notificationRoutes).where(eq(notificationRoutes.id, id)).for("update");
  if (!row) throw ApiError.notFound("Notification route", id);
  return row;
}

function checkVersion(row: RouteRow, ifMatch: number | undefined): void {
  if (ifMatch !== undefined && row.updated_at.getTime() !== ifMatch)
    throw new ApiError("PRECONDITION_FAILED", `Notification route ${row.id} changed since it was read: read it again.`);
}

export const getRoute = defineRead({ scope: ADMIN_NOTIFICATIONS }, async (ctx, { id }: { id: number }): Promise<RouteShape> => {
  const [row] = await ctx.db.select().from(notificationRoutes).where(eq(notificationRoutes.id, id));
  if (!row) throw ApiError.notFound("Notification route", id);
  return present(row);
});

export const patchRoute = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, { id, body, ifMatch }: { id: number; body: RoutePatch; ifMatch?: number | undefined }): Promise<RouteShape> => {
    const before = await requireRoute(s.tx, id);
    checkVersion(before, ifMatch);
    await checkReferences(s.tx, body);
    // The version must move on even within one millisecond: it is the ETag.
    const updated_at = new Date(Math.max(s.now.getTime(), before.updated_at.getTime() + 1));
    const [row] = await s.tx
      .update(notificationRoutes)
      .set({ ...body, ...(body.event_kinds ? { event_kinds: [...new Set(body.event_kinds)] } : {}), updated_at })
      .where(eq(notificationRoutes.id, id))
      .returning();
    s.audit({
      action: "notification_route.update",
      category: "notifications",
      entity_type: "notification_route",
      entity_id: id,
      diff: { before: present(before), after: present(row!) },
    });
    return present(row!);
  },
);

export const createRoute = defineVerb({ scope: ADMIN_NOTIFICATIONS }, async (s, body: RouteCreate): Promise<RouteShape> => {
  await checkReferences(s.tx, body);
  const [row] = await s.tx
    .insert(notificationRoutes)
    .values({ ...body, event_kinds: [...new Set(body.event_kinds)], created_at: s.now, updated_at: s.now })
    .returning();
  s.audit({
    action: "notification_route.create",
    category: "notifications",
    entity_type: "notification_route",
    entity_id: row!.id,
    diff: { after: present(row!) },
  });
  return present(row!);
});

export const deleteRoute = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, { id, ifMatch }: { id: number; ifMatch?: number | undefined }): Promise<{ status: "ok" }> => {
    const row = await requireRoute(s.tx, id);
    checkVersion(row, ifMatch);
    await s.tx.delete(notificationRoutes).where(eq(notificationRoutes.id, id));
    s.audit({
      action: "notification_route.delete",
      category: "notifications",
      entity_type: "notification_route",
      entity_id: id,
      diff: { before: present(row) },
    });
    return { status: "ok" };
  },
);

const SPEC = {
  table: notificationRoutes,
  id: notificationRoutes.id,
  sortable: { id: notificationRoutes.id, sink_id: notificationRoutes.sink_id, created_at: notificationRoutes.created_at },
  search: [notificationRoutes.tag],
};

export const listRoutes = defineRead<ListParams & { sink_id?: number | undefined }, ListPage<RouteShape>>(
  { scope: ADMIN_NOTIFICATIONS },
  (ctx, query) =>
    listPage<RouteRow, RouteShape>(
      ctx.db,
      SPEC,
      query,
      [query.sink_id !== undefined ? eq(notificationRoutes.sink_id, query.sink_id) : undefined],
      (rows) => rows.map(present),
    ),
);
