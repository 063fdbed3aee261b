// PagerDuty Events API v2 (POST /v2/enqueue): a firing alert triggers with the incident's dedup_key, its
// recovery resolves that same dedup_key (docs/adr/0443-paging-providers.md); an event triggers under its own key.
import { bodyWithLink } from "../message-text.ts";
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

const REGION = { us: "https://events.pagerduty.com", eu: "https://events.eu.pagerduty.com" } as const;

export const pagerduty = {
  type: "pagerduty",
  label: "PagerDuty",
  transport: "http",
  fields: {
    routing_key: {
      kind: "string",
      secret: true,
      required: true,
      hint: "The Integration Key of an Events API v2 integration on the PagerDuty service (32 characters).",
    },
    region: { kind: "choice", options: ["us", "eu"], hint: "Where the PagerDuty account lives (eu: events.eu.pagerduty.com). Default us." },
    base_url: { kind: "url", hint: "Instead of the region: an Events API gateway or proxy of your own." },
    source: {
      kind: "string",
      hint: "payload.source, the affected system PagerDuty shows (default: the monitored host, else infra-control-plane).",
    },
  },
  render: ({ config, secrets, message: m }) => {
    const url = `${baseUrl(config, REGION[(config.region as keyof typeof REGION) ?? "us"])}/v2/enqueue`;
    if (m.status === "resolved")
      return jsonRequest(url, { routing_key: secrets.routing_key, event_action: "resolve", dedup_key: m.dedup_key });
    const host = (m.data.detail as { host?: unknown } | undefined)?.host;
    return jsonRequest(url, {
      routing_key: secrets.routing_key,
      event_action: "trigger",
      dedup_key: m.dedup_key,
      payload: {
        // The documented limit of payload.summary.
        summary: clip(m.title, 1024),
        source: String(config.source ?? (typeof host === "string" && host ? host : "infra-control-plane")),
        severity: m.severity,
        timestamp: m.occurred_at,
        class: m.kind,
        custom_details: { message: bodyWithLink(m, 8000) },
      },
      client: "infra-control-plane",
      ...(m.links.alert ? { client_url: m.links.alert, links: [{ href: m.links.alert, text: "The alert in the control plane" }] } : {}),
    });
  },
} satisfies HttpNotifier<"pagerduty">;
