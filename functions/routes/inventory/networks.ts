// [networks] /networks, /networks/{id} (GET, PATCH, DELETE), compute members, hardware members and
// peers (symmetric).
import type { Hono } from "hono";
import * as v from "valibot";
import { networks } from "../../../shared/db/schema/index.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  ComputeMember, ComputeMemberBody, HardwareMember, HardwareMemberBody, Network, NetworkCreate, NetworkListQuery, NetworkPatch, Peer, PeerBody,
} from "../../../shared/schemas/networks.ts";
import { eqFilter, tagFilter } from "../../../shared/services/inventory/filters.ts";
import { networkDef } from "../../../shared/services/inventory/networks/def.ts";
import { addMember, COMPUTE_MEMBERS, HARDWARE_MEMBERS, listMembers, removeMember } from "../../../shared/services/inventory/networks/members.ts";
import { addPeer, listPeers, removePeer } from "../../../shared/services/inventory/networks/peers.ts";
import { resourceVerbs } from "../../../shared/services/inventory/resource.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "./resource-routes.ts";

export const networkVerbs = resourceVerbs(networkDef);

const base = "/api/v1/networks/:network_id";
const params = IdParam("network_id");
const pair = <const S extends string>(second: S) => IdParam("network_id", second);

export function networkRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: networkVerbs, tag: "networks", basePath: "/api/v1/networks", idParam: "network_id", noun: ["network", "networks"],
    item: Network, create: NetworkCreate, patch: NetworkPatch, query: NetworkListQuery,
    filters: (q) => [eqFilter(networks.site_id, q.site_id), eqFilter(networks.vlan_id, q.vlan_id), tagFilter(networks.tags, q.tag)],
    writeDescription:
      "cidr must be a network with the host bits zero (the 422 names the canonical form); gateway must lie inside it. A cidr change that would leave recorded addresses (IPAM, members) outside answers 409 listing them.",
    deleteDescription: "Removes the network's memberships, peerings and external-node links; its IPAM records stay, with network_id set to null.",
  });

  const members = [
    { kind: COMPUTE_MEMBERS, path: "members", field: "compute_id", noun: "compute unit", body: ComputeMemberBody, item: ComputeMember },
    { kind: HARDWARE_MEMBERS, path: "hardware-members", field: "hardware_id", noun: "hardware node", body: HardwareMemberBody, item: HardwareMember },
  ] as const;
  for (const m of members) {
    route(
      app,
      { method: "get", path: `${base}/${m.path}`, tag: "networks", scope: "read:networks", params, summary: `The ${m.noun}s on this network`, response: { schema: v.array(m.item) } },
      async (c, { params: p }) => c.json(await listMembers(m.kind, { ctx: verbContext(c), networkId: p.network_id! })),
    );
    route(
      app,
      {
        method: "post", path: `${base}/${m.path}`, tag: "networks", scope: "write:networks", params, body: m.body,
        summary: `Put a ${m.noun} on this network`, description: "ip_address, when given, must lie inside the network's cidr.",
        response: { status: 201, schema: m.item }, errors: [409],
      },
      async (c, { params: p, body }) => c.json(await addMember(m.kind, { ctx: verbContext(c), networkId: p.network_id!, input: body }), 201),
    );
    route(
      app,
      {
        method: "delete", path: `${base}/${m.path}/:${m.field}`, tag: "networks", scope: "write:networks", params: pair(m.field),
        summary: `Take a ${m.noun} off this network`, response: { status: 204, description: "Removed" },
      },
      async (c, { params: p }) => {
        await removeMember(m.kind, { ctx: verbContext(c), networkId: p.network_id!, refId: p[m.field]! });
        return c.body(null, 204);
      },
    );
  }

  route(
    app,
    { method: "get", path: `${base}/peers`, tag: "networks", scope: "read:networks", params, summary: "Networks peered with this one (either side)", response: { schema: v.array(Peer) } },
    async (c, { params: p }) => c.json(await listPeers({ ctx: verbContext(c), networkId: p.network_id! })),
  );
  route(
    app,
    {
      method: "post", path: `${base}/peers`, tag: "networks", scope: "write:networks", params, body: PeerBody,
      summary: "Peer this network with another", description: "Peering is symmetric: the pair shows on both networks, exists once, and never pairs a network with itself.",
      response: { status: 201, schema: Peer }, errors: [409],
    },
    async (c, { params: p, body }) => c.json(await addPeer({ ctx: verbContext(c), networkId: p.network_id!, input: body }), 201),
  );
  route(
    app,
    {
      method: "delete", path: `${base}/peers/:peer_network_id`, tag: "networks", scope: "write:networks", params: pair("peer_network_id"),
      summary: "End a peering (whichever side created it)", response: { status: 204, description: "Removed" },
    },
    async (c, { params: p }) => {
      await removePeer({ ctx: verbContext(c), networkId: p.network_id!, peerId: p.peer_network_id! });
      return c.body(null, 204);
    },
  );
}
