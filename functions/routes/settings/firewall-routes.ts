// PATCH /settings/firewall (where the OPNsense API is; key and secret write-only) and GET
// /settings/firewall/test (its version, ARP and lease counts).
import type { Hono } from "hono";
import { FirewallPatchSchema, FirewallReadSchema, FirewallTestSchema } from "../../../shared/schemas/settings-admin.ts";
import { updateFirewallSettings } from "../../../shared/verbs/settings/firewall-settings.ts";
import { testFirewall } from "../../../shared/verbs/settings/firewall-test.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function firewallSettingsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "patch",
      path: "/api/v1/settings/firewall",
      tag: "settings",
      scope: updateFirewallSettings.scope,
      summary: "Where the OPNsense API is, and its API key and secret",
      description:
        'Only the fields given change. firewall_api_key and firewall_api_secret are write-only: a string stores it sealed, null removes it, absent or "•••" keeps it. The URL must pass the outbound policy.',
      body: FirewallPatchSchema,
      response: { schema: FirewallReadSchema },
      errors: [503],
    },
    async (c, { body, reply }) => reply(await updateFirewallSettings({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/settings/firewall/test",
      tag: "settings",
      scope: testFirewall.scope,
      summary: "Test the OPNsense API: its version, ARP table and DHCP lease counts",
      description: "Unconfigured, unreachable, refused or not OPNsense: 200 with ok false and the reason in error.",
      response: { schema: FirewallTestSchema },
    },
    async (c, { reply }) => reply(await testFirewall({ ctx: verbContext(c) })),
  );
}
