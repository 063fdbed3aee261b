// [clusters] /hardware-clusters, /hardware-clusters/{cluster_id} (GET, PATCH, DELETE) and members.
import type { Hono } from "hono";
import * as v from "valibot";
import { hardwareClusters } from "../../../shared/db/schema/index.ts";
import { Cluster, ClusterCreate, ClusterListQuery, ClusterMember, ClusterMemberCreate, ClusterMemberPatch, ClusterPatch } from "../../../shared/schemas/clusters.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { clusterDef } from "../../../shared/services/inventory/clusters/def.ts";
import { addClusterMember, listClusterMembers, removeClusterMember, updateClusterMember } from "../../../shared/services/inventory/clusters/members.ts";
import { eqFilter } from "../../../shared/services/inventory/filters.ts";
import { resourceVerbs } from "../../../shared/services/inventory/resource.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "./resource-routes.ts";

export const clusterVerbs = resourceVerbs(clusterDef);

const members = "/api/v1/hardware-clusters/:cluster_id/members";
const params = IdParam("cluster_id");
const memberParams = v.object({ ...IdParam("cluster_id").entries, ...IdParam("member_id").entries });

export function clusterRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: clusterVerbs, tag: "clusters", basePath: "/api/v1/hardware-clusters", idParam: "cluster_id", noun: ["hardware cluster", "hardware clusters"],
    item: Cluster, create: ClusterCreate, patch: ClusterPatch, query: ClusterListQuery,
    filters: (q) => [eqFilter(hardwareClusters.type, q.type), eqFilter(hardwareClusters.environment_id, q.environment_id)],
    writeDescription: "name is unique (409 naming the cluster that has it); environment_id must exist.",
    deleteDescription: "Removes the cluster's memberships; the hardware nodes stay.",
  });

  route(
    app,
    { method: "get", path: members, tag: "clusters", scope: "read:clusters", params, summary: "The hardware nodes in this cluster", response: { schema: v.array(ClusterMember) } },
    async (c, { params: p }) => c.json(await listClusterMembers({ ctx: verbContext(c), clusterId: p.cluster_id! })),
  );
  route(
    app,
    {
      method: "post", path: members, tag: "clusters", scope: "write:clusters", params, body: ClusterMemberCreate, summary: "Add a hardware node to this cluster",
      description: "A node is in a cluster once (409); an unknown hardware_id is 422.", response: { status: 201, schema: ClusterMember }, errors: [409],
    },
    async (c, { params: p, body }) => c.json(await addClusterMember({ ctx: verbContext(c), clusterId: p.cluster_id!, input: body }), 201),
  );
  route(
    app,
    { method: "patch", path: `${members}/:member_id`, tag: "clusters", scope: "write:clusters", params: memberParams, body: ClusterMemberPatch, summary: "Change a member's role", response: { schema: ClusterMember } },
    async (c, { params: p, body }) => c.json(await updateClusterMember({ ctx: verbContext(c), clusterId: p.cluster_id!, memberId: p.member_id!, input: body })),
  );
  route(
    app,
    { method: "delete", path: `${members}/:member_id`, tag: "clusters", scope: "write:clusters", params: memberParams, summary: "Take a node out of this cluster", response: { status: 204, description: "Removed" } },
    async (c, { params: p }) => {
      await removeClusterMember({ ctx: verbContext(c), clusterId: p.cluster_id!, memberId: p.member_id! });
      return c.body(null, 204);
    },
  );
}
