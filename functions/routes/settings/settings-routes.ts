// Application settings: GET /settings, PUT /settings (merges like a PATCH), POST /settings/reset
// (high-impact), and the OAuth provider configuration at /settings/oauth. GET /settings and PATCH
// /settings/oauth are also open before first run to the setup token's holder (spec 5.4; functions/access.ts).
import type { Hono } from "hono";
import { CONFIRMATION_HEADER } from "../../../shared/verbs/confirm/confirm.ts";
import { OAuthPatchSchema, OAuthSettingsView } from "../../../shared/schemas/oauth-settings.ts";
import { AllSettings, SettingsPutSchema } from "../../../shared/schemas/settings-admin.ts";
import { ADMIN_REGISTRATION, getOAuthSettings, updateOAuthSettings } from "../../../shared/verbs/settings/oauth.ts";
import { resetSettings } from "../../../shared/verbs/settings/reset.ts";
import { updateSettings } from "../../../shared/verbs/settings/update.ts";
import { getSettings } from "../../../shared/verbs/settings/view.ts";
import { confirmationDoc, confirmed } from "../../confirmation.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const RESET_SETTINGS = { action: "reset-settings" } as const;

export function settingsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/settings",
      tag: "settings",
      scope: getSettings.scope,
      summary:
        "Every application setting with its value (defaults for those never set), with the SMTP, ACME DNS and firewall sections (secrets as *_set flags)",
      description:
        "Every key for an administrator (admin:*). Any other reader (a viewer, an editor, a token without admin:*) gets only what the console renders for everyone: rate_limit_profile. Settings holding URLs, addresses or secrets are never shown to them.",
      response: { schema: AllSettings },
    },
    async (c, { reply }) => reply(await getSettings({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "put",
      path: "/api/v1/settings",
      tag: "settings",
      scope: updateSettings.scope,
      summary: "Change settings: only the keys given change (null restores a key's default)",
      description:
        "Merges like a PATCH. Unknown keys answer 422 naming each; telemetry_warm_days must stay above telemetry_hot_days. The SMTP, ACME DNS and firewall keys of the read shape may be sent back unchanged; a changed one is a 422 naming the route that writes it.",
      body: SettingsPutSchema,
      response: { schema: AllSettings },
    },
    async (c, { body, reply }) => reply(await updateSettings({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/settings/reset",
      tag: "settings",
      scope: resetSettings.scope,
      summary: "Put every setting of GET /settings back to its default",
      description: `${confirmationDoc(RESET_SETTINGS)} OAuth, SMTP and the other settings with routes of their own are not touched.`,
      response: { schema: AllSettings },
      errors: [409, 428],
    },
    async (c, { reply }) => confirmed(c, RESET_SETTINGS, reply, (ctx) => resetSettings({ ctx })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/settings/oauth",
      tag: "settings",
      scope: getOAuthSettings.scope,
      summary: "OAuth/OIDC providers (client secrets are never shown: client_secret_set says whether one is stored)",
      response: { schema: OAuthSettingsView },
    },
    async (c, { reply }) => reply(await getOAuthSettings({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "patch",
      path: "/api/v1/settings/oauth",
      tag: "settings",
      scope: updateOAuthSettings.scope,
      summary: "Add, change or remove OAuth/OIDC providers ({providers: {name: {...} | null}})",
      description: `Only the fields given change. client_secret is write-only (null removes it). A provider is enabled only with client_id (and issuer for type oidc, tenant for microsoft); default_role must name a role. Before first run (with X-Setup-Token) allow_registration cannot be turned on nor an administering default_role set (422). Making a role that administers the installation a registering provider's default_role is 422 unless confirmed: ${confirmationDoc(ADMIN_REGISTRATION)} See docs/oauth.md.`,
      body: OAuthPatchSchema,
      response: { schema: OAuthSettingsView },
      errors: [428],
    },
    async (c, { body, reply }) => {
      // Only a request that asks for the confirmation goes through it (and must then get it right).
      if (c.req.header(CONFIRMATION_HEADER) !== undefined)
        return confirmed(c, ADMIN_REGISTRATION, reply, (ctx) => updateOAuthSettings({ ctx, input: { ...body, adminRoleConfirmed: true } }));
      return reply(await updateOAuthSettings({ ctx: verbContext(c), input: body }));
    },
  );
}
