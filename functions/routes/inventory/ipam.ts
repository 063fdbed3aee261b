// [ipam] /ipam, /ipam/{ip_id} (GET, PATCH, DELETE), plus allocation and conflict checks:
// GET /ipam/next-free?network_id=N and POST /ipam/check {address}. (POST /ipam/scan/{network_id}
// belongs to discovery.)
import type { Hono } from "hono";
import { CheckBody, CheckResult, IpCreate, IpListQuery, IpPatch, IpRecord, NextFree, NextFreeQuery } from "../../../shared/schemas/ipam.ts";
import { checkAddress } from "../../../shared/verbs/inventory/ipam/check-address.ts";
import { ipamVerbs } from "../../../shared/verbs/inventory/ipam/def.ts";
import { nextFreeAddress } from "../../../shared/verbs/inventory/ipam/next-free.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "./resource-routes.ts";

export function ipamRoutes(app: Hono<AppEnv>): void {
  // Before /ipam/{ip_id}, which would otherwise claim "next-free" as an id.
  route(
    app,
    {
      method: "get",
      path: "/api/v1/ipam/next-free",
      tag: "ipam",
      scope: nextFreeAddress.scope,
      query: NextFreeQuery,
      summary: "The lowest free host address of a network",
      description:
        "Skips the IPv4 network and broadcast addresses (except /31, /32), the IPv6 subnet-router anycast address, the gateway and every address recorded in IPAM (status other than free) or used by hardware, compute units, services, their ports and network members. A suggestion, not a reservation. 409 when the network is full; 422 when it has no cidr.",
      response: { schema: NextFree },
      errors: [404, 409],
    },
    async (c, { query, reply }) => reply(await nextFreeAddress({ ctx: verbContext(c), input: { networkId: query.network_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/ipam/check",
      tag: "ipam",
      scope: checkAddress.scope,
      body: CheckBody,
      summary: "Who uses an address (conflict check)",
      description:
        "Lists every IPAM record, hardware node, compute unit, service (address or port), network membership and gateway using the address, and the networks whose cidr holds it. `in_use` is false when nothing but free IPAM records name it. Changes nothing.",
      response: { schema: CheckResult },
    },
    async (c, { body, reply }) => reply(await checkAddress({ ctx: verbContext(c), input: { address: body.address } })),
  );

  resourceRoutes(app, {
    verbs: ipamVerbs,
    tag: "ipam",
    basePath: "/api/v1/ipam",
    idParam: "ip_id",
    noun: ["recorded IP address", "recorded IP addresses"],
    bulk: { tags: false },
    item: IpRecord,
    create: IpCreate,
    patch: IpPatch,
    query: IpListQuery,
    writeDescription:
      "The address is stored canonical and recorded once (409 naming the record that holds it); with network_id it must lie in that network's cidr; assigned_type (hardware, compute_unit, service) and assigned_id go together and must name something that exists.",
    deleteDescription: "Nothing points at an IPAM record: deleting it frees the address.",
  });
}
