// PATCH /settings/smtp: the installation's own mail server (the password write-only, read as smtp_password_set).
import type { Hono } from "hono";
import * as v from "valibot";
import { SmtpPatchSchema, SmtpReadSchema } from "../../../shared/schemas/settings-admin.ts";
import { updateSmtpSettings } from "../../../shared/services/settings/smtp.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function smtpSettingsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "patch", path: "/api/v1/settings/smtp", tag: "settings", scope: updateSmtpSettings.scope,
      summary: "Change the SMTP server settings; answers every setting with the SMTP ones",
      description: "Only the fields given change (null restores a default). smtp_password is write-only: a string stores it sealed, null removes it, absent or \"•••\" keeps it. A host and sender given without smtp_enabled turn SMTP on. The host must pass the outbound policy.",
      body: SmtpPatchSchema, response: { schema: v.looseObject(SmtpReadSchema.entries) }, errors: [503],
    },
    async (c, { body }) => c.json(await updateSmtpSettings({ ctx: verbContext(c), input: { ...body, vault: c.get("deps").vault } })),
  );
}
