// [graph] /graph/topology, /graph/edges/{edge_id}, /graph/layout, /graph/place-node; ours: /graph/summary.
import type { Hono } from "hono";
import { compress } from "hono/compress";
import {
  EdgeParam,
  EdgePatchBody,
  EdgeView,
  GraphSummary,
  Layout,
  LayoutQuery,
  LayoutSaveBody,
  PlaceNodeBody,
  SummaryQuery,
  Topology,
  TopologyQuery,
} from "../../../shared/schemas/graph.ts";
import { deleteEdge, patchEdge } from "../../../shared/verbs/graph/edges.ts";
import { getLayout, saveLayout } from "../../../shared/verbs/graph/layout.ts";
import { graphSummary } from "../../../shared/verbs/graph/summary.ts";
import { graphTopology } from "../../../shared/verbs/graph/topology.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function graphRoutes(app: Hono<AppEnv>): void {
  // The whole graph is tens of MB of JSON on a big inventory (issue 37): gzipped for a client that
  // takes it (about a tenth on the wire). Only this answer: it holds no secret an attacker's reflected
  // input could be compressed beside (BREACH), and small answers gain little.
  app.use("/api/v1/graph/topology", compress({ encoding: "gzip" }));
  route(
    app,
    {
      method: "get",
      path: "/api/v1/graph/topology",
      tag: "graph",
      scope: graphTopology.scope,
      summary: "The whole inventory as a graph: nodes (hw-N, cu-N, svc-N, ...) and edges with their relation",
      query: TopologyQuery,
      response: { schema: Topology },
    },
    async (c, { query, reply }) => reply(await graphTopology({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/graph/summary",
      tag: "graph",
      scope: graphSummary.scope,
      summary:
        "How big the topology is: nodes per kind and edges per pair of kinds, without the nodes (ours; the console draws it before the whole graph arrives)",
      query: SummaryQuery,
      response: { schema: GraphSummary },
    },
    async (c, { query, reply }) => reply(await graphSummary({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "patch",
      path: "/api/v1/graph/edges/:edge_id",
      tag: "graph",
      scope: patchEdge.scope,
      params: EdgeParam,
      summary: "Change an edge's own attributes (e.g. a connection's bandwidth, a membership's IP)",
      body: EdgePatchBody,
      response: { schema: EdgeView },
    },
    async (c, { params, body, reply }) => reply(await patchEdge({ ctx: verbContext(c), input: { edgeId: params.edge_id, changes: body } })),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/graph/edges/:edge_id",
      tag: "graph",
      scope: deleteEdge.scope,
      params: EdgeParam,
      summary: "Remove an edge: deletes the link, or clears the reference it stands for (a VM's host, a service's host)",
      response: { status: 204, description: "Deleted" },
    },
    async (c, { params }) => {
      await deleteEdge({ ctx: verbContext(c), input: { edgeId: params.edge_id } });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/graph/layout",
      tag: "graph",
      scope: getLayout.scope,
      summary: "Saved node positions of a layout",
      query: LayoutQuery,
      response: { schema: Layout },
    },
    async (c, { query, reply }) => reply(await getLayout({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/graph/layout",
      tag: "graph",
      scope: saveLayout.scope,
      summary: "Save node positions (merged into the layout, or replacing it with replace: true)",
      body: LayoutSaveBody,
      response: { schema: Layout },
    },
    async (c, { body, reply }) => reply(await saveLayout({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/graph/place-node",
      tag: "graph",
      scope: saveLayout.scope,
      summary: "Place one node in a layout",
      body: PlaceNodeBody,
      response: { schema: Layout },
    },
    async (c, { body, reply }) =>
      reply(
        await saveLayout({
          ctx: verbContext(c),
          input: { name: body.layout, positions: { [body.node_id]: { x: body.x, y: body.y } }, replace: false },
        }),
      ),
  );
}
