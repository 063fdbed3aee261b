// [prefixes] /prefixes, /prefixes/{prefix_id} (GET, PATCH, DELETE), plus the free child prefixes
// (GET, and POST to allocate one) and the free addresses of a prefix.
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  AllocatePrefixBody,
  AvailableIps,
  AvailableIpsQuery,
  AvailablePrefixes,
  AvailablePrefixesQuery,
  Prefix,
  PrefixCreate,
  PrefixListQuery,
  PrefixPatch,
} from "../../../shared/schemas/prefixes.ts";
import { availableIps } from "../../../shared/verbs/inventory/prefixes/available-ips.ts";
import { allocatePrefix, availablePrefixes } from "../../../shared/verbs/inventory/prefixes/available-prefixes.ts";
import { prefixVerbs } from "../../../shared/verbs/inventory/prefixes/verbs.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes, withEtag } from "./resource-routes.ts";

const base = "/api/v1/prefixes/:prefix_id";
const params = IdParam("prefix_id");

export function prefixRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: prefixVerbs,
    tag: "prefixes",
    basePath: "/api/v1/prefixes",
    idParam: "prefix_id",
    noun: ["prefix", "prefixes"],
    bulk: { tags: true },
    item: Prefix,
    create: PrefixCreate,
    patch: PrefixPatch,
    query: PrefixListQuery,
    writeDescription:
      "prefix is a network with the host bits zero (the 422 names the network address). Without vrf_id it is in the global table. In the global table and in a VRF with enforce_unique a prefix exists once (409 naming the holder). parent_id, depth, children and utilisation are computed from containment, never declared.",
    deleteDescription: "Nothing points at a prefix: its children and networks find their closest remaining parent.",
  });

  route(
    app,
    {
      method: "get",
      path: `${base}/available-prefixes`,
      tag: "prefixes",
      scope: availablePrefixes.scope,
      params,
      query: AvailablePrefixesQuery,
      summary: "The next free child prefixes of a length",
      description:
        "The first `limit` blocks of prefix length `length` inside this prefix that no prefix of the same VRF overlaps, lowest first. A length not longer than the prefix's, or past the family's bits, is a 422.",
      response: { schema: AvailablePrefixes },
    },
    async (c, { params: p, query, reply }) =>
      reply(await availablePrefixes({ ctx: verbContext(c), input: { prefixId: p.prefix_id, length: query.length, limit: query.limit } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${base}/available-prefixes`,
      tag: "prefixes",
      scope: allocatePrefix.scope,
      params,
      body: AllocatePrefixBody,
      summary: "Allocate the next free child prefix",
      description:
        "Creates the lowest free block of `length` inside this prefix as a new prefix in the same VRF (status active unless given; the parent's site unless given). Concurrent allocations are serialised on the parent: they never get the same block. 409 when no block is free.",
      response: { status: 201, schema: Prefix },
      errors: [409],
    },
    async (c, { params: p, body, reply }) =>
      withEtag(c, await allocatePrefix({ ctx: verbContext(c), input: { prefixId: p.prefix_id, ...body } }), reply),
  );

  route(
    app,
    {
      method: "get",
      path: `${base}/available-ips`,
      tag: "prefixes",
      scope: availableIps.scope,
      params,
      query: AvailableIpsQuery,
      summary: "The free addresses of a prefix",
      description:
        "The first `limit` addresses no IPAM record (other than free), hardware node, compute unit, service, network member or gateway uses, by the rules of /ipam/next-free; a pool's network and broadcast addresses count as usable. A suggestion, not a reservation.",
      response: { schema: AvailableIps },
    },
    async (c, { params: p, query, reply }) =>
      reply(await availableIps({ ctx: verbContext(c), input: { prefixId: p.prefix_id, limit: query.limit } })),
  );
}
