// Hardware clusters: the name is unique (409 naming the cluster that has it). Deleting a cluster
// removes its memberships (links); the hardware stays.
import type * as v from "valibot";
import { environments, hardwareClusters } from "../../../db/schema/index.ts";
import type { ClusterListQuery } from "../../../schemas/clusters.ts";
import { eqFilter } from "../../resources/filters.ts";
import { iso, namesById } from "../../resources/present.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { requireOptionalRow, requireUnique } from "../../resources/row-checks.ts";

type Row = typeof hardwareClusters.$inferSelect;

const clusterDef = defineResource({
  label: "Hardware cluster",
  entityType: "cluster",
  scopeResource: "clusters",
  table: hardwareClusters,
  columns: { id: hardwareClusters.id, version: hardwareClusters.version },
  channels: ["inventory", "topology"],
  list: {
    sortable: {
      name: hardwareClusters.name,
      type: hardwareClusters.type,
      created_at: hardwareClusters.created_at,
      updated_at: hardwareClusters.updated_at,
    },
    search: [hardwareClusters.name, hardwareClusters.type, hardwareClusters.description],
  },
  filters: (q: v.InferOutput<typeof ClusterListQuery>) => [
    eqFilter(hardwareClusters.type, q.type),
    eqFilter(hardwareClusters.environment_id, q.environment_id),
  ],
  async toValues(s, input, existing) {
    await requireOptionalRow(s.tx, environments, environments.id, input.environment_id, "Environment", "environment_id");
    if ("name" in input)
      await requireUnique(s.tx, {
        table: hardwareClusters,
        id: hardwareClusters.id,
        column: hardwareClusters.name,
        value: input.name,
        exceptId: existing?.id,
        field: "name",
        label: "Hardware cluster",
      });
    return input;
  },
  async present(db, rows) {
    const names = await namesById(
      db,
      environments,
      environments.id,
      environments.name,
      rows.map((r) => r.environment_id),
    );
    return rows.map((r) => presentOne(r, names));
  },
});

export const clusterVerbs = resourceVerbs(clusterDef);

function presentOne(r: Row, envNames: Map<number, string>) {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    description: r.description,
    environment_id: r.environment_id,
    environment_name: r.environment_id == null ? null : (envNames.get(r.environment_id) ?? null),
    version: r.version,
    custom_fields: r.custom_fields,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
