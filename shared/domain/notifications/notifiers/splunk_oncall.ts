// Splunk On-Call (VictorOps) REST endpoint integration: POST .../alert/<api key>/<routing key>; the
// incident's dedup_key is the entity_id, so a RECOVERY resolves what the CRITICAL opened. The API key is in
// the path, so it is the secret.
import { bodyWithLink, unixSeconds } from "../message-text.ts";
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

/** message_type from our severity: CRITICAL pages, WARNING may (the team's setting), INFO only records. */
const MESSAGE_TYPE = { critical: "CRITICAL", warning: "WARNING", info: "INFO" } as const;

export const splunk_oncall = {
  type: "splunk_oncall",
  label: "Splunk On-Call (VictorOps)",
  transport: "http",
  fields: {
    api_key: {
      kind: "string",
      secret: true,
      required: true,
      hint: "The REST endpoint integration's key: the part of its URL between /alert/ and the routing key.",
    },
    routing_key: { kind: "string", required: true, hint: "The routing key that picks the team (Settings → Routing Keys)." },
    base_url: { kind: "url", hint: "Default https://alert.victorops.com." },
  },
  render: ({ config, secrets, message: m }) =>
    jsonRequest(
      `${baseUrl(config, "https://alert.victorops.com")}/integrations/generic/20131114/alert/${encodeURIComponent(secrets.api_key!)}/${encodeURIComponent(String(config.routing_key))}`,
      {
        message_type: m.status === "resolved" ? "RECOVERY" : MESSAGE_TYPE[m.severity],
        entity_id: m.dedup_key,
        entity_display_name: clip(m.title, 512),
        state_message: bodyWithLink(m, 3900),
        state_start_time: unixSeconds(m),
        monitoring_tool: "infra-control-plane",
        // A URL annotation: shown as a link on the incident.
        ...(m.links.alert ? { "vo_annotate.u.Alert": m.links.alert } : {}),
      },
    ),
} satisfies HttpNotifier<"splunk_oncall">;
