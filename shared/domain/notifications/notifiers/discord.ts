// Discord execute-webhook: one embed (title 256, description 4000 characters at most).
import { clip, type HttpNotifier, jsonRequest, SECRET_WEBHOOK_URL, SEVERITY_COLOR } from "./notifier.ts";

export const discord = {
  type: "discord",
  transport: "http",
  fields: SECRET_WEBHOOK_URL,
  render: ({ secrets, message: m }) =>
    jsonRequest(secrets.webhook_url!, {
      embeds: [
        {
          title: clip(m.title, 256),
          description: clip(m.body, 4000),
          color: parseInt(SEVERITY_COLOR[m.severity].slice(1), 16),
          footer: { text: `Severity: ${m.severity}` },
        },
      ],
    }),
} satisfies HttpNotifier<"discord">;
