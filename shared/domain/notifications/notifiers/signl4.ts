// SIGNL4 inbound webhook (POST /webhook/<team secret>): X-S4-ExternalID is the incident's dedup_key and
// X-S4-Status "new" opens a Signl, "resolved" closes the one opened under that ID. The team secret is in the
// path, so it is the secret.
import { bodyWithLink } from "../message-text.ts";
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

export const signl4 = {
  type: "signl4",
  label: "SIGNL4",
  transport: "http",
  fields: {
    team_secret: {
      kind: "string",
      secret: true,
      required: true,
      hint: "The team (or integration) secret: the end of the team's webhook URL.",
    },
    base_url: { kind: "url", hint: "Default https://connect.signl4.com." },
    service: { kind: "string", hint: "X-S4-Service: the SIGNL4 category the Signls are filed under." },
    alerting_scenario: {
      kind: "choice",
      options: ["single_ack", "multi_ack", "emergency"],
      hint: "X-S4-AlertingScenario: who must acknowledge (one person, everyone on duty, or the whole team).",
    },
  },
  render: ({ config, secrets, message: m }) =>
    jsonRequest(`${baseUrl(config, "https://connect.signl4.com")}/webhook/${encodeURIComponent(secrets.team_secret!)}`, {
      Title: clip(m.title, 256),
      Message: bodyWithLink(m, 3900),
      // SIGNL4's webhook has no priority: the severity is a parameter the Signl shows (and rules may match).
      Severity: m.severity,
      "X-S4-ExternalID": m.dedup_key,
      "X-S4-Status": m.status === "resolved" ? "resolved" : "new",
      ...(config.service ? { "X-S4-Service": config.service } : {}),
      ...(config.alerting_scenario && m.status !== "resolved" ? { "X-S4-AlertingScenario": config.alerting_scenario } : {}),
    }),
} satisfies HttpNotifier<"signl4">;
