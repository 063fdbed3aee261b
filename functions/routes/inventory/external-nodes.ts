// [external-nodes] /external-nodes (list, create), /external-nodes/{node_id} (GET, PATCH, DELETE), the
// node's network links (GET, POST; DELETE /external-node-networks/{relation_id}) and dependent services.
import type { Hono } from "hono";
import {
  ExternalNetworkLink,
  ExternalNetworkLinkBody,
  ExternalNetworkLinks,
  ExternalNode,
  ExternalNodeCreate,
  ExternalNodeListQuery,
  ExternalNodePatch,
  ExternalNodeServices,
} from "../../../shared/schemas/external-nodes.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { externalNodeVerbs } from "../../../shared/verbs/inventory/external-nodes/def.ts";
import {
  externalNodeNetworkLinks,
  externalNodeServices,
  linkExternalNodeNetwork,
  unlinkExternalNodeNetwork,
} from "../../../shared/verbs/inventory/external-nodes/links.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "./resource-routes.ts";

export function externalNodeRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: externalNodeVerbs,
    tag: "external-nodes",
    basePath: "/api/v1/external-nodes",
    idParam: "node_id",
    noun: ["external node", "external nodes"],
    bulk: { tags: true },
    item: ExternalNode,
    create: ExternalNodeCreate,
    patch: ExternalNodePatch,
    query: ExternalNodeListQuery,
    deleteDescription:
      "Removes the node's network links and unlinks the services that depend on it (service_external_dependencies); both are recorded in the audit log.",
  });
  const params = IdParam("node_id");

  route(
    app,
    {
      method: "get",
      path: "/api/v1/external-nodes/:node_id/networks",
      tag: "external-nodes",
      scope: externalNodeNetworkLinks.scope,
      params,
      summary: "Networks this external node is linked to",
      response: { schema: ExternalNetworkLinks },
    },
    async (c, { params: p, reply }) => reply(await externalNodeNetworkLinks({ ctx: verbContext(c), input: { nodeId: p.node_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/external-nodes/:node_id/networks",
      tag: "external-nodes",
      scope: linkExternalNodeNetwork.scope,
      params,
      summary: "Link this external node to a network",
      description: "A node links to a network once (409 for a second link); an unknown network_id is a 422 naming it.",
      body: ExternalNetworkLinkBody,
      response: { status: 201, schema: ExternalNetworkLink },
      errors: [409],
    },
    async (c, { params: p, body, reply }) =>
      reply(await linkExternalNodeNetwork({ ctx: verbContext(c), input: { nodeId: p.node_id, link: body } })),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/external-node-networks/:relation_id",
      tag: "external-nodes",
      scope: unlinkExternalNodeNetwork.scope,
      params: IdParam("relation_id"),
      summary: "Remove an external node's network link",
      response: { status: 204, description: "Deleted" },
    },
    async (c, { params: p }) => {
      await unlinkExternalNodeNetwork({ ctx: verbContext(c), input: { relationId: p.relation_id } });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/external-nodes/:node_id/services",
      tag: "external-nodes",
      scope: externalNodeServices.scope,
      params,
      summary: "Services that depend on this external node",
      response: { schema: ExternalNodeServices },
    },
    async (c, { params: p, reply }) => reply(await externalNodeServices({ ctx: verbContext(c), input: { nodeId: p.node_id } })),
  );
}
