// [ip-check] POST /ip-check: which inventory objects already hold an address or a service port on it.
// Unlike the original it needs a credential (docs/architecture.md, API contracts): it tells which addresses the inventory holds.
// Rate category ip_check (shared/ratelimit/policy.ts matches the path).
import type { Hono } from "hono";
import { IpCheckBody, IpCheckResult } from "../../../shared/schemas/discovery-ipam.ts";
import { ipCheck } from "../../../shared/verbs/discovery/ipam/ip-check.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function ipCheckRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/ip-check",
      tag: "ip-check",
      scope: ipCheck.scope,
      body: IpCheckBody,
      response: { schema: IpCheckResult },
      summary: "Which inventory objects already use an address (and ports on it)",
      description:
        "`conflicts` lists every hardware node, compute unit and service whose address is `ip`, every IPAM record holding it (entity_type `ip_address`, status other than free), and for each entry of `ports` ({ip defaults to `ip`, port, protocol tcp}) the services publishing that port on that address. `exclude_entity_type` with `exclude_entity_id` leaves out the object being edited. An empty list means free. Reads the inventory only: no packet is sent. Needs write:networks (editors and administrators: it is asked while placing something on the network). Rate category ip_check.",
      errors: [429],
    },
    async (c, { body, reply }) => reply(await ipCheck({ ctx: verbContext(c), input: body })),
  );
}
