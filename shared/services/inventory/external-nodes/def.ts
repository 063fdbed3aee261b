// External nodes (cloud hosts, SaaS, ISPs: things outside the lab). Deleting one removes its network
// links and unlinks the services that depend on it (service_external_dependencies).
import { externalNodeNetworks, externalNodes, serviceExternalDependencies } from "../../../db/schema/index.ts";
import type { ResourceDef } from "../resource.ts";
import { iso } from "../present.ts";
import { removeLinks } from "../storage/remove-links.ts";

type Row = typeof externalNodes.$inferSelect;

export const externalNodeDef: ResourceDef<ReturnType<typeof presentOne>> = {
  label: "External node",
  entityType: "external_node",
  scopeResource: "external",
  table: externalNodes,
  columns: { id: externalNodes.id, version: externalNodes.version, tags: externalNodes.tags },
  channels: ["inventory", "topology"],
  list: {
    sortable: {
      name: externalNodes.name, provider: externalNodes.provider, kind: externalNodes.kind, region: externalNodes.region,
      ip_address: externalNodes.ip_address, created_at: externalNodes.created_at, updated_at: externalNodes.updated_at,
    },
    search: [externalNodes.name, externalNodes.provider, externalNodes.region, externalNodes.ip_address, externalNodes.url],
  },
  async beforeDelete(s, row) {
    await removeLinks(s, { entityType: "external_node", id: row.id }, [
      { name: "external_node_networks", table: externalNodeNetworks, column: externalNodeNetworks.external_node_id },
      { name: "service_external_dependencies", table: serviceExternalDependencies, column: serviceExternalDependencies.external_node_id },
    ]);
  },
  async present(_db, rows) {
    return rows.map((r) => presentOne(r as Row));
  },
};

/** The row as it is, with ISO timestamps (every column is part of the API shape). */
function presentOne(r: Row) {
  return { ...r, created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)! };
}
