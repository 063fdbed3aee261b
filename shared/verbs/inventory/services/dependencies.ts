// Service dependency edges ("service_id depends on depends_on_id"). Adding one is refused for a self
// edge (422), a duplicate (409) and a cycle (409 naming it as a path of names). The cycle check is one
// recursive query, run under a fixed advisory lock, so two concurrent inserts (a -> b, b -> a) cannot
// each pass the check and close a cycle together.
import { and, eq, sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import type { Db } from "../../../db/database.ts";
import { serviceDependencies, services } from "../../../db/schema/index.ts";
import { cyclePath, type DependencyEdge, describeCycle } from "../../../domain/dependency-cycle.ts";
import { ApiError } from "../../../errors.ts";
import { iso, namesById } from "../../resources/present.ts";
import { defineRead, defineVerb } from "../../verb.ts";
import { missingReference } from "./references.ts";
import { requireService } from "./require-service.ts";

const DEPENDENCY_LOCK = 7_246_040; // fixed advisory lock key: inserts into service_dependencies

/** Services this one depends on, or (dependents) the services that depend on it. */
export const listDependencies = defineRead(
  { scope: "read:services" },
  async (ctx, { serviceId, direction }: { serviceId: number; direction: "dependencies" | "dependents" }) => {
    await requireService(ctx.db, serviceId);
    const [self, other] =
      direction === "dependencies"
        ? [serviceDependencies.service_id, serviceDependencies.depends_on_id]
        : [serviceDependencies.depends_on_id, serviceDependencies.service_id];
    const rows = await ctx.db
      .select({
        id: services.id,
        name: services.name,
        slug: services.slug,
        status: services.status,
        environment: services.environment,
        linked_at: serviceDependencies.created_at,
      })
      .from(serviceDependencies)
      .innerJoin(services, eq(services.id, other))
      .where(eq(self, serviceId))
      .orderBy(services.name, services.id);
    return rows.map((r) => ({ ...r, linked_at: iso(r.linked_at) }));
  },
);

/**
 * The edges reachable from `dependsOnId`, but only when they lead back to `serviceId` (else none): one
 * recursive query. UNION keeps each (from, to) pair once, so the walk is bounded by the edge count.
 */
async function edgesClosingCycle(tx: Db, serviceId: number, dependsOnId: number): Promise<DependencyEdge[]> {
  return queryRows<DependencyEdge>(
    tx,
    sql`with recursive reach(node, parent) as (
          select ${dependsOnId}::int, null::int
          union
          select d.depends_on_id, d.service_id
          from reach r join service_dependencies d on d.service_id = r.node
          where r.node <> ${serviceId}
        )
        select parent as "from", node as "to" from reach
        where exists (select 1 from reach where node = ${serviceId})`,
  );
}

export interface DependencyEdgeRef {
  serviceId: number;
  dependsOnId: number;
}

export const addDependency = defineVerb(
  {
    scope: "write:services",
    prepare: async (_ctx, { serviceId, dependsOnId }: DependencyEdgeRef) => {
      if (serviceId === dependsOnId)
        throw ApiError.validation([{ loc: ["body", "depends_on_id"], msg: "A service cannot depend on itself.", type: "value_error" }]);
    },
  },
  async (s, { serviceId, dependsOnId }) => {
    await s.tx.execute(sql`select pg_advisory_xact_lock(${DEPENDENCY_LOCK})`);
    const service = await requireService(s.tx, serviceId);
    const [target] = await s.tx.select({ id: services.id, name: services.name }).from(services).where(eq(services.id, dependsOnId));
    if (!target) throw ApiError.validation([missingReference("depends_on_id", "Service", dependsOnId)]);
    const [dup] = await s.tx
      .select({ service_id: serviceDependencies.service_id })
      .from(serviceDependencies)
      .where(and(eq(serviceDependencies.service_id, serviceId), eq(serviceDependencies.depends_on_id, dependsOnId)));
    if (dup) throw ApiError.conflict(`Service ${serviceId} (${service.name}) already depends on service ${dependsOnId} (${target.name}).`);
    const cycle = cyclePath(serviceId, dependsOnId, await edgesClosingCycle(s.tx, serviceId, dependsOnId));
    if (cycle) {
      const names = await namesById(s.tx, services, services.id, services.name, cycle);
      throw ApiError.conflict(`Adding this dependency would form a cycle: ${describeCycle(cycle, names)}.`, { cycle });
    }
    const [row] = await s.tx.insert(serviceDependencies).values({ service_id: serviceId, depends_on_id: dependsOnId }).returning();
    const edge = { service_id: row!.service_id, depends_on_id: row!.depends_on_id, created_at: iso(row!.created_at) };
    s.audit({
      action: "service.dependency.create",
      category: "inventory",
      entity_type: "service",
      entity_id: serviceId,
      diff: { after: edge },
    });
    s.emit("topology", { entity: "service_dependency", action: "create", service_id: serviceId, depends_on_id: dependsOnId });
    return edge;
  },
);

export const removeDependency = defineVerb({ scope: "write:services" }, async (s, { serviceId, dependsOnId }: DependencyEdgeRef) => {
  const [row] = await s.tx
    .delete(serviceDependencies)
    .where(and(eq(serviceDependencies.service_id, serviceId), eq(serviceDependencies.depends_on_id, dependsOnId)))
    .returning();
  if (!row) {
    await requireService(s.tx, serviceId);
    throw new ApiError("RESOURCE_NOT_FOUND", `Dependency of service ${serviceId} on service ${dependsOnId} was not found.`);
  }
  s.audit({
    action: "service.dependency.delete",
    category: "inventory",
    entity_type: "service",
    entity_id: serviceId,
    diff: { before: { service_id: serviceId, depends_on_id: dependsOnId } },
  });
  s.emit("topology", { entity: "service_dependency", action: "delete", service_id: serviceId, depends_on_id: dependsOnId });
});
