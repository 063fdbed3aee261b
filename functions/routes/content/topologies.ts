// [topologies] /topologies (list, create), /topologies/{topology_id} (get, put, delete), its node set
// (PUT .../nodes replaces it) and its graph export. Scope resource `layout`.
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { NodesBody, TopologyCreate, TopologyGraph, TopologyListQuery, TopologyView } from "../../../shared/schemas/topologies.ts";
import { topologyVerbs } from "../../../shared/verbs/topologies/def.ts";
import { topologyGraph } from "../../../shared/verbs/topologies/graph.ts";
import { replaceTopologyNodes } from "../../../shared/verbs/topologies/nodes.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "../inventory/resource-routes.ts";

const tag = "topologies" as const;
const params = IdParam("topology_id");

export function topologyRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: topologyVerbs,
    tag,
    basePath: "/api/v1/topologies",
    idParam: "topology_id",
    noun: ["topology", "topologies"],
    item: TopologyView,
    query: TopologyListQuery,
    create: TopologyCreate,
    put: TopologyCreate,
    putDefaults: { description: null },
    summaries: {
      list: "List saved topologies with their nodes",
      create: "Create a topology (add nodes with PUT .../nodes)",
      get: "Get a topology with its nodes",
      put: "Replace a topology's name and description (nodes are left alone)",
    },
  });

  route(
    app,
    {
      method: "put",
      path: "/api/v1/topologies/:topology_id/nodes",
      tag,
      scope: replaceTopologyNodes.scope,
      params,
      body: NodesBody,
      summary: "Replace the topology's nodes and their positions",
      description:
        "Node ids are the graph's (hw-1, cu-2, svc-3, st-4, net-5, misc-6, ext-7, cluster-8); each must name an object the inventory has, once.",
      response: { schema: TopologyView },
    },
    async (c, { params: p, body, reply }) =>
      reply(await replaceTopologyNodes({ ctx: verbContext(c), input: { topologyId: p.topology_id, nodes: body.nodes } })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/topologies/:topology_id/graph",
      tag,
      scope: topologyGraph.scope,
      params,
      summary: "Export the topology as a graph: its nodes with current labels and statuses, and the edges among them",
      description: "Nodes whose object has been deleted since are left out of `nodes` and listed in `missing`.",
      response: { schema: TopologyGraph },
    },
    async (c, { params: p, reply }) => reply(await topologyGraph({ ctx: verbContext(c), input: { topologyId: p.topology_id } })),
  );
}
