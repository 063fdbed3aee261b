// Microsoft Teams incoming webhook connector: a MessageCard.
import { clip, type HttpProvider, jsonRequest, SEVERITY_COLOR } from "./provider.ts";

export const teams = {
  type: "teams",
  transport: "http",
  fields: { webhook_url: { kind: "url", secret: true, required: true } },
  render: ({ secrets, message: m }) =>
    jsonRequest(secrets.webhook_url!, {
      "@type": "MessageCard",
      "@context": "http://schema.org/extensions",
      themeColor: SEVERITY_COLOR[m.severity].slice(1),
      summary: clip(m.title, 256),
      sections: [{ activityTitle: m.title, activityText: clip(m.body), facts: [{ name: "Severity", value: m.severity }] }],
    }),
} satisfies HttpProvider<"teams">;
