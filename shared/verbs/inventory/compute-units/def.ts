// Compute units (VMs and containers). Deleting one that services still run on answers 409 listing
// them; its network memberships go with it (links, not things). An icon_slug must name a known icon.
import { eq, inArray, sql, type SQL } from "drizzle-orm";
import type * as v from "valibot";
import { computeUnits, environments, hardware, networkMembers, services } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { ComputeUnitListQuery } from "../../../schemas/compute-units.ts";
import { refuseWhileDependents } from "../../resources/dependents-conflict.ts";
import { eqFilter, tagFilter } from "../../resources/filters.ts";
import { iso } from "../../resources/present.ts";
import { removeLinks } from "../../resources/remove-links.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { requireOptionalRow } from "../../resources/row-checks.ts";
import { iconExists } from "./icons.ts";

type Row = typeof computeUnits.$inferSelect;
type Names = Map<number, { hardware_name: string | null; environment_name: string | null }>;

const computeUnitDef = defineResource({
  label: "Compute unit",
  entityType: "compute_unit",
  scopeResource: "compute",
  table: computeUnits,
  columns: { id: computeUnits.id, version: computeUnits.version, tags: computeUnits.tags },
  channels: ["inventory", "topology"],
  list: {
    sortable: {
      name: computeUnits.name,
      kind: computeUnits.kind,
      status: computeUnits.status,
      ip_address: computeUnits.ip_address,
      os: computeUnits.os,
      memory_mb: computeUnits.memory_mb,
      cpu_cores: computeUnits.cpu_cores,
      disk_gb: computeUnits.disk_gb,
      hardware_id: computeUnits.hardware_id,
      created_at: computeUnits.created_at,
      updated_at: computeUnits.updated_at,
    },
    search: [computeUnits.name, computeUnits.ip_address, computeUnits.os, computeUnits.status],
  },
  filters: (q: v.InferOutput<typeof ComputeUnitListQuery>) => [
    eqFilter(computeUnits.kind, q.kind),
    eqFilter(computeUnits.status, q.status),
    eqFilter(computeUnits.hardware_id, q.hardware_id),
    eqFilter(computeUnits.environment_id, q.environment_id),
    tagFilter(computeUnits.tags, q.tag),
    inEnvironmentNamed(q.environment),
  ],
  async toValues(s, input, existing) {
    await requireOptionalRow(s.tx, hardware, hardware.id, input.hardware_id, "Hardware node", "hardware_id");
    await requireOptionalRow(s.tx, environments, environments.id, input.environment_id, "Environment", "environment_id");
    const slug = input.icon_slug;
    if (typeof slug === "string" && slug !== existing?.icon_slug && !(await iconExists(s.tx, slug)))
      throw ApiError.validation([
        {
          loc: ["body", "icon_slug"],
          msg: `No compute icon "${slug}": pick one from GET /api/v1/compute-units/icons.`,
          type: "foreign_key",
        },
      ]);
    return input;
  },
  async beforeDelete(s, row) {
    const where = eq(services.compute_id, row.id);
    await refuseWhileDependents(s.tx, "Compute unit", row.id, {
      type: "service",
      table: services,
      id: services.id,
      name: services.name,
      where,
    });
    await removeLinks(s, { entityType: "compute_unit", id: row.id }, [
      { name: "network_members", table: networkMembers, column: networkMembers.compute_id },
    ]);
  },
  async present(db, rows) {
    const ids = rows.map((r) => r.id);
    // One query for the page: the hosting node's and the environment's names.
    const named =
      ids.length === 0
        ? []
        : await db
            .select({ id: computeUnits.id, hardware_name: hardware.name, environment_name: environments.name })
            .from(computeUnits)
            .leftJoin(hardware, eq(hardware.id, computeUnits.hardware_id))
            .leftJoin(environments, eq(environments.id, computeUnits.environment_id))
            .where(inArray(computeUnits.id, ids));
    const names: Names = new Map(named.map((n) => [n.id, n]));
    return rows.map((r) => presentOne(r, names));
  },
});

export const computeUnitVerbs = resourceVerbs(computeUnitDef);

/** The `environment` list filter: units whose environment has this name. */
function inEnvironmentNamed(name: string | undefined): SQL | undefined {
  if (name === undefined) return undefined;
  return sql`${computeUnits.environment_id} in (select ${environments.id} from ${environments} where ${environments.name} = ${name})`;
}

function presentOne(r: Row, names: Names) {
  const n = names.get(r.id);
  return {
    id: r.id,
    name: r.name,
    kind: r.kind as "vm" | "container",
    hardware_id: r.hardware_id,
    hardware_name: n?.hardware_name ?? null,
    memory_mb: r.memory_mb,
    cpu_cores: r.cpu_cores,
    disk_gb: r.disk_gb,
    ip_address: r.ip_address,
    status: r.status,
    os: r.os,
    icon_slug: r.icon_slug,
    environment_id: r.environment_id,
    environment_name: n?.environment_name ?? null,
    notes: r.notes,
    tags: r.tags,
    version: r.version,
    custom_fields: r.custom_fields,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
