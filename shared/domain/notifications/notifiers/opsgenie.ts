// Opsgenie Alert API: a firing alert creates (POST /v2/alerts) under alias = the incident's dedup_key, its
// recovery closes that alias (POST /v2/alerts/{alias}/close?identifierType=alias); an event creates under
// its own key. Opsgenie answers 202 to both: the request is queued, processed asynchronously.
import { bodyWithLink } from "../message-text.ts";
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

const REGION = { us: "https://api.opsgenie.com", eu: "https://api.eu.opsgenie.com" } as const;
/** Opsgenie priority P1 (highest) .. P5 from our severity, unless the sink fixes one. */
const PRIORITY = { critical: "P1", warning: "P3", info: "P5" } as const;
const SOURCE = "infra-control-plane";

export const opsgenie = {
  type: "opsgenie",
  label: "Opsgenie",
  transport: "http",
  fields: {
    api_key: {
      kind: "string",
      secret: true,
      required: true,
      hint: "The key of an API integration (Settings → Integrations → API), sent as GenieKey.",
    },
    region: { kind: "choice", options: ["us", "eu"], hint: "Where the Opsgenie account lives (eu: api.eu.opsgenie.com). Default us." },
    base_url: { kind: "url", hint: "Instead of the region: the API base URL of your own gateway or proxy." },
    priority: {
      kind: "choice",
      options: ["P1", "P2", "P3", "P4", "P5"],
      hint: "A fixed priority for every alert (default: P1 critical, P3 warning, P5 info).",
    },
  },
  render: ({ config, secrets, message: m }) => {
    const base = `${baseUrl(config, REGION[(config.region as keyof typeof REGION) ?? "us"])}/v2/alerts`;
    const auth = { authorization: `GenieKey ${secrets.api_key}` };
    if (m.status === "resolved")
      return jsonRequest(
        `${base}/${encodeURIComponent(m.dedup_key)}/close?identifierType=alias`,
        { source: SOURCE, note: clip(`${m.title}\n${m.body}`, 25000) },
        auth,
      );
    return jsonRequest(
      base,
      {
        // The documented limits: message 130, alias 512, description 15000 characters.
        message: clip(m.title, 130),
        alias: m.dedup_key,
        description: bodyWithLink(m, 15000),
        priority: String(config.priority ?? PRIORITY[m.severity]),
        source: SOURCE,
        tags: [m.severity, m.kind],
        details: { kind: m.kind, severity: m.severity, ...(m.links.alert ? { alert: m.links.alert } : {}) },
      },
      auth,
    );
  },
} satisfies HttpNotifier<"opsgenie">;
