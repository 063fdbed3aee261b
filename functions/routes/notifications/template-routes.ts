// [notifications] /notifications/templates/preview: a sink's message templates rendered against the sample
// alert (docs/notifications.md, docs/adr/0446-message-templates.md).
import type { Hono } from "hono";
import { TemplatePreviewBody, TemplatePreviewOut } from "../../../shared/schemas/notifications.ts";
import { previewTemplates } from "../../../shared/verbs/notifications/preview-templates.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function templateRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/notifications/templates/preview",
      tag: "notifications",
      scope: previewTemplates.scope,
      body: TemplatePreviewBody,
      response: { schema: TemplatePreviewOut },
      summary: "Render a sink's title and body templates against a sample alert",
      description:
        "Answers `{title, body}` as a sink with these `title_template` and `body_template` (mustache over the fields of " +
        "docs/notifications.md, no HTML escaping) would send them for the sample alert: the ping monitor core-switch down, " +
        "with web-1 and db-1 folded into it. A template left out renders the server's own text. A template that does not parse or names an " +
        "unknown field answers 422 naming it, as a sink's save does.",
    },
    async (c, { body, reply }) => reply(await previewTemplates({ ctx: verbContext(c), input: { body } })),
  );
}
