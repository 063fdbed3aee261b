// Microsoft Teams incoming webhook connector: a MessageCard.
import { clip, type HttpNotifier, jsonRequest, SECRET_WEBHOOK_URL, SEVERITY_COLOR } from "./notifier.ts";

export const teams = {
  type: "teams",
  transport: "http",
  fields: SECRET_WEBHOOK_URL,
  render: ({ secrets, message: m }) =>
    jsonRequest(secrets.webhook_url!, {
      "@type": "MessageCard",
      "@context": "http://schema.org/extensions",
      themeColor: SEVERITY_COLOR[m.severity].slice(1),
      summary: clip(m.title, 256),
      sections: [{ activityTitle: m.title, activityText: clip(m.body), facts: [{ name: "Severity", value: m.severity }] }],
    }),
} satisfies HttpNotifier<"teams">;
