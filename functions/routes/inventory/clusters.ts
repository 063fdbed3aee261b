// [clusters] /hardware-clusters, /hardware-clusters/{cluster_id} (GET, PATCH, DELETE) and members.
import type { Hono } from "hono";
import {
  Cluster,
  ClusterCreate,
  ClusterListQuery,
  ClusterMember,
  ClusterMemberCreate,
  ClusterMembers,
  ClusterMemberPatch,
  ClusterPatch,
} from "../../../shared/schemas/clusters.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { clusterVerbs } from "../../../shared/verbs/inventory/clusters/def.ts";
import {
  addClusterMember,
  listClusterMembers,
  removeClusterMember,
  updateClusterMember,
} from "../../../shared/verbs/inventory/clusters/members.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "./resource-routes.ts";

const members = "/api/v1/hardware-clusters/:cluster_id/members";
const params = IdParam("cluster_id");
const memberParams = IdParam("cluster_id", "member_id");

export function clusterRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: clusterVerbs,
    tag: "clusters",
    basePath: "/api/v1/hardware-clusters",
    idParam: "cluster_id",
    noun: ["hardware cluster", "hardware clusters"],
    bulk: { tags: false },
    item: Cluster,
    create: ClusterCreate,
    patch: ClusterPatch,
    query: ClusterListQuery,
    writeDescription: "name is unique (409 naming the cluster that has it); environment_id must exist.",
    deleteDescription: "Removes the cluster's memberships; the hardware nodes stay.",
  });

  route(
    app,
    {
      method: "get",
      path: members,
      tag: "clusters",
      scope: listClusterMembers.scope,
      params,
      summary: "The hardware nodes in this cluster",
      response: { schema: ClusterMembers },
    },
    async (c, { params: p, reply }) => reply(await listClusterMembers({ ctx: verbContext(c), input: { clusterId: p.cluster_id } })),
  );
  route(
    app,
    {
      method: "post",
      path: members,
      tag: "clusters",
      scope: addClusterMember.scope,
      params,
      body: ClusterMemberCreate,
      summary: "Add a hardware node to this cluster",
      description: "A node is in a cluster once (409); an unknown hardware_id is 422.",
      response: { status: 201, schema: ClusterMember },
      errors: [409],
    },
    async (c, { params: p, body, reply }) =>
      reply(await addClusterMember({ ctx: verbContext(c), input: { clusterId: p.cluster_id, member: body } })),
  );
  route(
    app,
    {
      method: "patch",
      path: `${members}/:member_id`,
      tag: "clusters",
      scope: updateClusterMember.scope,
      params: memberParams,
      body: ClusterMemberPatch,
      summary: "Change a member's role",
      response: { schema: ClusterMember },
    },
    async (c, { params: p, body, reply }) =>
      reply(await updateClusterMember({ ctx: verbContext(c), input: { clusterId: p.cluster_id, memberId: p.member_id, changes: body } })),
  );
  route(
    app,
    {
      method: "delete",
      path: `${members}/:member_id`,
      tag: "clusters",
      scope: removeClusterMember.scope,
      params: memberParams,
      summary: "Take a node out of this cluster",
      response: { status: 204, description: "Removed" },
    },
    async (c, { params: p }) => {
      await removeClusterMember({ ctx: verbContext(c), input: { clusterId: p.cluster_id, memberId: p.member_id } });
      return c.body(null, 204);
    },
  );
}
