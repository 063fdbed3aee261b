// [networks] /networks, /networks/{id} (GET, PATCH, DELETE), compute members, hardware members and
// peers (symmetric).
import type { Hono } from "hono";
import type * as v from "valibot";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  ComputeMember,
  ComputeMemberBody,
  ComputeMembers,
  HardwareMember,
  HardwareMemberBody,
  HardwareMembers,
  Network,
  NetworkCreate,
  NetworkListQuery,
  NetworkPatch,
  Peer,
  PeerBody,
  Peers,
} from "../../../shared/schemas/networks.ts";
import { networkVerbs } from "../../../shared/verbs/inventory/networks/def.ts";
import { computeMembers, hardwareMembers, type MemberAdd } from "../../../shared/verbs/inventory/networks/members.ts";
import { addPeer, listPeers, removePeer } from "../../../shared/verbs/inventory/networks/peers.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "./resource-routes.ts";

const base = "/api/v1/networks/:network_id";
const params = IdParam("network_id");

/** GET, POST and DELETE of one kind of membership: /networks/{network_id}/<path>[/{field}]. */
function memberRoutes<I extends v.GenericSchema>(
  app: Hono<AppEnv>,
  m: {
    verbs: typeof computeMembers;
    path: string;
    field: "compute_id" | "hardware_id";
    noun: string;
    body: v.GenericSchema<unknown, MemberAdd["member"]>;
    item: I;
    items: v.ArraySchema<I, undefined>;
  },
) {
  route(
    app,
    {
      method: "get",
      path: `${base}/${m.path}`,
      tag: "networks",
      scope: m.verbs.list.scope,
      params,
      summary: `The ${m.noun}s on this network`,
      response: { schema: m.items },
    },
    async (c, { params: p, reply }) => reply(await m.verbs.list({ ctx: verbContext(c), input: { networkId: p.network_id } })),
  );
  route(
    app,
    {
      method: "post",
      path: `${base}/${m.path}`,
      tag: "networks",
      scope: m.verbs.add.scope,
      params,
      body: m.body,
      summary: `Put a ${m.noun} on this network`,
      description: "ip_address, when given, must lie inside the network's cidr.",
      response: { status: 201, schema: m.item },
      errors: [409],
    },
    async (c, { params: p, body, reply }) =>
      reply(await m.verbs.add({ ctx: verbContext(c), input: { networkId: p.network_id, member: body } })),
  );
  route(
    app,
    {
      method: "delete",
      path: `${base}/${m.path}/:${m.field}`,
      tag: "networks",
      scope: m.verbs.remove.scope,
      params: IdParam("network_id", m.field),
      summary: `Take a ${m.noun} off this network`,
      response: { status: 204, description: "Removed" },
    },
    async (c, { params: p }) => {
      await m.verbs.remove({ ctx: verbContext(c), input: { networkId: p.network_id, refId: p[m.field] } });
      return c.body(null, 204);
    },
  );
}

export function networkRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: networkVerbs,
    tag: "networks",
    basePath: "/api/v1/networks",
    idParam: "network_id",
    noun: ["network", "networks"],
    bulk: { tags: true },
    item: Network,
    create: NetworkCreate,
    patch: NetworkPatch,
    query: NetworkListQuery,
    writeDescription:
      "cidr must be a network with the host bits zero (the 422 names the canonical form); gateway must lie inside it. A cidr change that would leave recorded addresses (IPAM, members) outside answers 409 listing them.",
    deleteDescription:
      "Removes the network's memberships, peerings and external-node links; its IPAM records stay, with network_id set to null.",
  });

  memberRoutes(app, {
    verbs: computeMembers,
    path: "members",
    field: "compute_id",
    noun: "compute unit",
    body: ComputeMemberBody,
    item: ComputeMember,
    items: ComputeMembers,
  });
  memberRoutes(app, {
    verbs: hardwareMembers,
    path: "hardware-members",
    field: "hardware_id",
    noun: "hardware node",
    body: HardwareMemberBody,
    item: HardwareMember,
    items: HardwareMembers,
  });

  route(
    app,
    {
      method: "get",
      path: `${base}/peers`,
      tag: "networks",
      scope: listPeers.scope,
      params,
      summary: "Networks peered with this one (either side)",
      response: { schema: Peers },
    },
    async (c, { params: p, reply }) => reply(await listPeers({ ctx: verbContext(c), input: { networkId: p.network_id } })),
  );
  route(
    app,
    {
      method: "post",
      path: `${base}/peers`,
      tag: "networks",
      scope: addPeer.scope,
      params,
      body: PeerBody,
      summary: "Peer this network with another",
      description: "Peering is symmetric: the pair shows on both networks, exists once, and never pairs a network with itself.",
      response: { status: 201, schema: Peer },
      errors: [409],
    },
    async (c, { params: p, body, reply }) => reply(await addPeer({ ctx: verbContext(c), input: { networkId: p.network_id, peer: body } })),
  );
  route(
    app,
    {
      method: "delete",
      path: `${base}/peers/:peer_network_id`,
      tag: "networks",
      scope: removePeer.scope,
      params: IdParam("network_id", "peer_network_id"),
      summary: "End a peering (whichever side created it)",
      response: { status: 204, description: "Removed" },
    },
    async (c, { params: p }) => {
      await removePeer({ ctx: verbContext(c), input: { networkId: p.network_id, peerId: p.peer_network_id } });
      return c.body(null, 204);
    },
  );
}
