// /notifications/routes: which alerts reach which sink, by minimum severity, event kind and inventory
// scope (a site, an environment, a tag). No PATCH, as in the original: delete and create again.
import { eq } from "drizzle-orm";
import { environments, notificationRoutes, sites } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type { RouteCreate, RouteShape } from "../../schemas/notifications.ts";
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
  created_at: r.created_at.toISOString(),
});

export const createRoute = defineVerb({ scope: ADMIN_NOTIFICATIONS }, async (s, body: RouteCreate): Promise<RouteShape> => {
  await requireSink(s.tx, body.sink_id);
  if (body.site_id != null && (await s.tx.select({ id: sites.id }).from(sites).where(eq(sites.id, body.site_id))).length === 0)
    throw ApiError.validation([{ loc: ["body", "site_id"], msg: `Site ${body.site_id} does not exist.`, type: "value_error" }]);
  if (
    body.environment_id != null &&
    (await s.tx.select({ id: environments.id }).from(environments).where(eq(environments.id, body.environment_id))).length === 0
  )
    throw ApiError.validation([
      { loc: ["body", "environment_id"], msg: `Environment ${body.environment_id} does not exist.`, type: "value_error" },
    ]);
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

export const deleteRoute = defineVerb({ scope: ADMIN_NOTIFICATIONS }, async (s, { id }: { id: number }): Promise<{ status: "ok" }> => {
  const [row] = await s.tx.delete(notificationRoutes).where(eq(notificationRoutes.id, id)).returning();
  if (!row) throw ApiError.notFound("Notification route", id);
  s.audit({
    action: "notification_route.delete",
    category: "notifications",
    entity_type: "notification_route",
    entity_id: id,
    diff: { before: present(row) },
  });
  return { status: "ok" };
});

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
