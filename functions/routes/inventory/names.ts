// [search] GET /inventory/names: the names of inventory records by kind and id, every kind in one
// request (docs/adr/0468): how the console names the records a screen refers to.
import type { Hono } from "hono";
import { NamesAnswer, NamesQuery } from "../../../shared/schemas/inventory-names.ts";
import { lookUpNames } from "../../../shared/verbs/inventory/names.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function namesRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/inventory/names",
      tag: "search",
      summary: "The names of inventory records, asked by kind and id",
      description:
        "One parameter per kind (hardware, compute_unit, service, network, storage, cluster, external_node, misc, site, vlan, ip_address, environment, category), each up to 100 comma-separated ids: `?hardware=1,2&site=3`. Answers the records that exist, each with its type, id and name (an IP address's name is its address); an unknown id is left out. Each kind asked needs its read scope (read:hardware, read:compute, read:services for services, environments and categories, read:networks for networks, VLANs and addresses, …): 403 naming the kinds the caller cannot read.",
      query: NamesQuery,
      response: { schema: NamesAnswer },
    },
    async (c, { query, reply }) => reply(await lookUpNames({ ctx: verbContext(c), input: query })),
  );
}
