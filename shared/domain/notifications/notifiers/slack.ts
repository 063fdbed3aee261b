// Slack incoming webhooks: `text` (mrkdwn) and one coloured attachment with the severity.
import { clip, type HttpNotifier, jsonRequest, SECRET_WEBHOOK_URL, SEVERITY_COLOR } from "./notifier.ts";

export const slack = {
  type: "slack",
  transport: "http",
  fields: SECRET_WEBHOOK_URL,
  render: ({ secrets, message: m }) =>
    jsonRequest(secrets.webhook_url!, {
      text: clip(`*${m.title}*\n${m.body}`),
      attachments: [{ color: SEVERITY_COLOR[m.severity], fields: [{ title: "Severity", value: m.severity, short: true }] }],
    }),
} satisfies HttpNotifier<"slack">;
