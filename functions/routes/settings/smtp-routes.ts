// PATCH /settings/smtp: the installation's own mail server (the password write-only, read as
// smtp_password_set), and POST /settings/smtp/test.
import type { Hono } from "hono";
import { SettingsWithSmtp, SmtpPatchSchema, SmtpTestQuery, SmtpTestSchema } from "../../../shared/schemas/settings-admin.ts";
import { testSmtp } from "../../../shared/verbs/settings/smtp-test.ts";
import { updateSmtpSettings } from "../../../shared/verbs/settings/smtp-update.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function smtpSettingsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "patch",
      path: "/api/v1/settings/smtp",
      tag: "settings",
      scope: updateSmtpSettings.scope,
      summary: "Change the SMTP server settings; answers every setting with the SMTP ones",
      description:
        'Only the fields given change (null restores a default). smtp_password is write-only: a string stores it sealed, null removes it, absent or "•••" keeps it. A host and sender given without smtp_enabled turn SMTP on. The host must pass the outbound policy.',
      body: SmtpPatchSchema,
      response: { schema: SettingsWithSmtp },
      errors: [503],
    },
    async (c, { body, reply }) => reply(await updateSmtpSettings({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/settings/smtp/test",
      tag: "settings",
      scope: testSmtp.scope,
      summary: "Test the SMTP settings: send a test email to send_to, or (without it) connect and log in only",
      description:
        "Answers {status, message}; an unreachable or refusing server is status error, not an HTTP error. Records smtp_last_test_at/status; a success turns SMTP on. Needs the Node server (the edge has no SMTP sockets).",
      query: SmtpTestQuery,
      response: { schema: SmtpTestSchema },
    },
    async (c, { query, reply }) => {
      const deps = c.get("deps");
      return reply(await testSmtp({ ctx: verbContext(c), input: { mailer: deps.mailer, sendTo: query.send_to } }));
    },
  );
}
