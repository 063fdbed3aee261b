// [topologies] /topologies (list, create), /topologies/{topology_id} (get, put, delete), its node set
// (PUT .../nodes replaces it) and its graph export. Scope resource `layout`.
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { NodesBody, TopologyCreate, TopologyGraph, TopologyList, TopologyListQuery, TopologyView } from "../../../shared/schemas/topologies.ts";
import { topologiesDef } from "../../../shared/services/topologies/def.ts";
import { topologyGraph } from "../../../shared/services/topologies/graph.ts";
import { replaceTopologyNodes } from "../../../shared/services/topologies/nodes.ts";
import { resourceVerbs } from "../../../shared/services/inventory/resource.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export const topologyVerbs = resourceVerbs(topologiesDef);
const { scopes } = topologyVerbs;
const tag = "topologies" as const;
const params = IdParam("topology_id");
const id = (p: Record<string, number>) => p.topology_id!;

export function topologyRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    { method: "get", path: "/api/v1/topologies", tag, scope: scopes.read, query: TopologyListQuery, summary: "List saved topologies with their nodes", response: { schema: TopologyList } },
    async (c, { query }) => c.json(await topologyVerbs.list({ ctx: verbContext(c), params: query })),
  );

  route(
    app,
    { method: "post", path: "/api/v1/topologies", tag, scope: scopes.write, body: TopologyCreate, summary: "Create a topology (add nodes with PUT .../nodes)", response: { status: 201, schema: TopologyView } },
    async (c, { body }) => c.json((await topologyVerbs.create({ ctx: verbContext(c), input: body })).item, 201),
  );

  route(
    app,
    { method: "get", path: "/api/v1/topologies/:topology_id", tag, scope: scopes.read, params, summary: "Get a topology with its nodes", response: { schema: TopologyView } },
    async (c, { params: p }) => c.json((await topologyVerbs.get({ ctx: verbContext(c), id: id(p) })).item),
  );

  route(
    app,
    { method: "put", path: "/api/v1/topologies/:topology_id", tag, scope: scopes.write, params, body: TopologyCreate, summary: "Replace a topology's name and description (nodes are left alone)", response: { schema: TopologyView } },
    async (c, { params: p, body }) => c.json((await topologyVerbs.update({ ctx: verbContext(c), id: id(p), input: { description: null, ...body } })).item),
  );

  route(
    app,
    { method: "delete", path: "/api/v1/topologies/:topology_id", tag, scope: scopes.delete, params, summary: "Delete a topology", response: { status: 204, description: "Deleted" } },
    async (c, { params: p }) => {
      await topologyVerbs.remove({ ctx: verbContext(c), id: id(p) });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "put", path: "/api/v1/topologies/:topology_id/nodes", tag, scope: "write:layout", params, body: NodesBody,
      summary: "Replace the topology's nodes and their positions",
      description: "Node ids are the graph's (hw-1, cu-2, svc-3, st-4, net-5, misc-6, ext-7, cluster-8); each must name an object the inventory has, once.",
      response: { schema: TopologyView },
    },
    async (c, { params: p, body }) => c.json(await replaceTopologyNodes({ ctx: verbContext(c), topologyId: id(p), nodes: body.nodes })),
  );

  route(
    app,
    {
      method: "get", path: "/api/v1/topologies/:topology_id/graph", tag, scope: "read:layout", params,
      summary: "Export the topology as a graph: its nodes with current labels and statuses, and the edges among them",
      description: "Nodes whose object has been deleted since are left out of `nodes` and listed in `missing`.",
      response: { schema: TopologyGraph },
    },
    async (c, { params: p }) => c.json(await topologyGraph({ ctx: verbContext(c), topologyId: id(p) })),
  );
}
