// PATCH /settings/acme-dns: the DNS-01 credentials (cloudflare api_token, rfc2136 TSIG), secrets read as *_set.
import type { Hono } from "hono";
import { AcmeDnsPatchSchema, SettingsWithAcmeDns } from "../../../shared/schemas/settings-admin.ts";
import { updateAcmeDnsSettings } from "../../../shared/verbs/settings/acme-dns-update.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function acmeDnsSettingsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "patch",
      path: "/api/v1/settings/acme-dns",
      tag: "settings",
      scope: updateAcmeDnsSettings.scope,
      summary: "Set, change or clear the ACME DNS-01 provider credentials",
      description:
        'provider cloudflare (api_token) or rfc2136 (server, port 53, tsig_name, tsig_algorithm hmac-sha256, tsig_secret base64). Secrets are write-only: absent or "•••" keeps the stored one. Switching provider drops the old credential; provider null clears everything.',
      body: AcmeDnsPatchSchema,
      response: { schema: SettingsWithAcmeDns },
      errors: [503],
    },
    async (c, { body, reply }) => reply(await updateAcmeDnsSettings({ ctx: verbContext(c), input: body })),
  );
}
