// [hardware] /hardware, /hardware/{id} (GET, PATCH, PUT, DELETE), connections, clusters, network
// memberships and /hardware-connections/{id}.
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  ConnectionCreate,
  Hardware,
  HardwareClusters,
  HardwareConnection,
  HardwareConnections,
  HardwareCreate,
  HardwareListQuery,
  HardwareNetworkMemberships,
  HardwarePatch,
} from "../../../shared/schemas/hardware.ts";
import { hardwareVerbs } from "../../../shared/verbs/inventory/hardware/def.ts";
import {
  addConnection,
  hardwareClustersOf,
  hardwareNetworkMemberships,
  listConnections,
  removeConnection,
} from "../../../shared/verbs/inventory/hardware/connections.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "./resource-routes.ts";

export function hardwareRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: hardwareVerbs,
    tag: "hardware",
    basePath: "/api/v1/hardware",
    idParam: "hardware_id",
    noun: ["hardware node", "hardware nodes"],
    bulk: { tags: true },
    item: Hardware,
    create: HardwareCreate,
    patch: HardwarePatch,
    put: HardwareCreate,
    query: HardwareListQuery,
  });
  const params = IdParam("hardware_id");

  route(
    app,
    {
      method: "post",
      path: "/api/v1/hardware/:hardware_id/connections",
      tag: "hardware",
      scope: addConnection.scope,
      params,
      summary: "Connect this node to another (a blast-radius edge)",
      body: ConnectionCreate,
      response: { status: 201, schema: HardwareConnection },
      errors: [409],
    },
    async (c, { params: p, body, reply }) =>
      reply(await addConnection({ ctx: verbContext(c), input: { hardwareId: p.hardware_id, connection: body } })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/hardware/:hardware_id/connections",
      tag: "hardware",
      scope: listConnections.scope,
      params,
      summary: "This node's connections, both directions",
      response: { schema: HardwareConnections },
    },
    async (c, { params: p, reply }) => reply(await listConnections({ ctx: verbContext(c), input: { hardwareId: p.hardware_id } })),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/hardware-connections/:connection_id",
      tag: "hardware",
      scope: removeConnection.scope,
      params: IdParam("connection_id"),
      summary: "Remove a connection",
      response: { status: 204, description: "Deleted" },
    },
    async (c, { params: p }) => {
      await removeConnection({ ctx: verbContext(c), input: { connectionId: p.connection_id } });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/hardware/:hardware_id/clusters",
      tag: "hardware",
      scope: hardwareClustersOf.scope,
      params,
      summary: "Clusters this node belongs to",
      response: { schema: HardwareClusters },
    },
    async (c, { params: p, reply }) => reply(await hardwareClustersOf({ ctx: verbContext(c), input: { hardwareId: p.hardware_id } })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/hardware/:hardware_id/network-memberships",
      tag: "hardware",
      scope: hardwareNetworkMemberships.scope,
      params,
      summary: "Networks this node is a member of",
      response: { schema: HardwareNetworkMemberships },
    },
    async (c, { params: p, reply }) =>
      reply(await hardwareNetworkMemberships({ ctx: verbContext(c), input: { hardwareId: p.hardware_id } })),
  );
}
