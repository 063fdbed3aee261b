// External nodes (cloud hosts, SaaS, ISPs: things outside the lab). Deleting one removes its network
// links and unlinks the services that depend on it (service_external_dependencies).
import type * as v from "valibot";
import { externalNodeNetworks, externalNodes, serviceExternalDependencies } from "../../../db/schema/index.ts";
import type { ExternalNodeListQuery } from "../../../schemas/external-nodes.ts";
import { eqFilter, tagFilter } from "../../resources/filters.ts";
import { withIsoTimestamps } from "../../resources/present.ts";
import { removeLinks } from "../../resources/remove-links.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";

const externalNodeDef = defineResource({
  label: "External node",
  entityType: "external_node",
  scopeResource: "external",
  table: externalNodes,
  columns: { id: externalNodes.id, version: externalNodes.version, tags: externalNodes.tags },
  channels: ["inventory", "topology"],
  list: {
    sortable: {
      name: externalNodes.name,
      provider: externalNodes.provider,
      kind: externalNodes.kind,
      region: externalNodes.region,
      ip_address: externalNodes.ip_address,
      created_at: externalNodes.created_at,
      updated_at: externalNodes.updated_at,
    },
    search: [externalNodes.name, externalNodes.provider, externalNodes.region, externalNodes.ip_address, externalNodes.url],
  },
  filters: (q: v.InferOutput<typeof ExternalNodeListQuery>) => [
    eqFilter(externalNodes.provider, q.provider),
    eqFilter(externalNodes.kind, q.kind),
    eqFilter(externalNodes.region, q.region),
    tagFilter(externalNodes.tags, q.tag),
  ],
  async beforeDelete(s, row) {
    await removeLinks(s, { entityType: "external_node", id: row.id }, [
      { name: "external_node_networks", table: externalNodeNetworks, column: externalNodeNetworks.external_node_id },
      { name: "service_external_dependencies", table: serviceExternalDependencies, column: serviceExternalDependencies.external_node_id },
    ]);
  },
  async present(_db, rows) {
    return rows.map(withIsoTimestamps);
  },
});

export const externalNodeVerbs = resourceVerbs(externalNodeDef);
