// What each provider receives, as a plain HTTP request (the sidecar sends it): the formats their
// documentation gives (reference-contracts.md 2 "Payloads" for slack, discord and teams; ntfy's JSON
// publish, gotify's POST /message, telegram's sendMessage; for our webhook the Standard Webhooks body
// `{type, timestamp, data}`). Pure, so the formats are tested without a network.
import { DEFAULT_BASE_URL, type ProviderType } from "./providers.ts";

export interface AlertMessage {
  /** Stable per delivery: the webhook-id, so a receiver can drop a replayed duplicate. */
  id: string;
  kind: string;
  severity: "info" | "warning" | "critical";
  title: string;
  body: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

export interface HttpRequestSpec {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Telegram answers 200 with `{ok: false}` for some refusals: the body must say ok too. */
  expectOkField?: boolean;
}

const HEX_COLOR = { critical: "#FF0000", warning: "#FFA500", info: "#36a64f" } as const;
const TEXT_LIMIT = 3900;

const trimSlash = (u: string) => u.replace(/\/+$/, "");
const clip = (s: string, n = TEXT_LIMIT) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const json = (url: string, value: unknown, headers: Record<string, string> = {}): HttpRequestSpec => ({
  url,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(value),
});

/** ntfy priority 1..5 and gotify 0..10 from our severity, unless the sink fixes one. */
const ntfyPriority = (sev: AlertMessage["severity"]) => ({ critical: 5, warning: 4, info: 3 })[sev];
const gotifyPriority = (sev: AlertMessage["severity"]) => ({ critical: 8, warning: 5, info: 2 })[sev];

/**
 * The request for an HTTP provider (every type but email). `config` holds the plain keys, `secrets` the
 * opened ones. Webhook signatures are added by the caller (they need the send time).
 */
export function renderHttp(type: Exclude<ProviderType, "email">, config: Record<string, unknown>, secrets: Record<string, string>, m: AlertMessage): HttpRequestSpec {
  const sev = m.severity;
  const base = trimSlash(String(config.base_url ?? DEFAULT_BASE_URL[type] ?? ""));
  switch (type) {
    case "webhook":
      return json(String(config.url), { type: m.kind, timestamp: m.occurred_at, data: { id: m.id, severity: sev, title: m.title, message: m.body, ...m.data } });
    case "slack":
      return json(secrets.webhook_url!, {
        text: clip(`*${m.title}*\n${m.body}`),
        attachments: [{ color: HEX_COLOR[sev], fields: [{ title: "Severity", value: sev, short: true }] }],
      });
    case "discord":
      return json(secrets.webhook_url!, {
        embeds: [{ title: clip(m.title, 256), description: clip(m.body, 4000), color: parseInt(HEX_COLOR[sev].slice(1), 16), footer: { text: `Severity: ${sev}` } }],
      });
    case "teams":
      return json(secrets.webhook_url!, {
        "@type": "MessageCard",
        "@context": "http://schema.org/extensions",
        themeColor: HEX_COLOR[sev].slice(1),
        summary: clip(m.title, 256),
        sections: [{ activityTitle: m.title, activityText: clip(m.body), facts: [{ name: "Severity", value: sev }] }],
      });
    case "ntfy":
      return json(
        `${base}/`,
        { topic: config.topic, title: clip(m.title, 256), message: clip(m.body), priority: Math.min(5, Number(config.priority ?? ntfyPriority(sev))), tags: [sev === "info" ? "white_check_mark" : "rotating_light", m.kind] },
        secrets.token ? { authorization: `Bearer ${secrets.token}` } : {},
      );
    case "gotify":
      return json(`${base}/message`, { title: m.title, message: clip(m.body), priority: Number(config.priority ?? gotifyPriority(sev)) }, { "x-gotify-key": secrets.token! });
    case "telegram":
      return {
        ...json(`${base}/bot${secrets.bot_token}/sendMessage`, { chat_id: config.chat_id, text: clip(`${m.title}\n\n${m.body}`), disable_web_page_preview: true }),
        expectOkField: true,
      };
  }
}

export interface EmailSpec {
  to: string;
  from: string;
  subject: string;
  text: string;
}

export function renderEmail(config: Record<string, unknown>, m: AlertMessage): EmailSpec {
  const prefix = typeof config.subject_prefix === "string" && config.subject_prefix !== "" ? `${config.subject_prefix} ` : "";
  return {
    to: String(config.to),
    from: String(config.from_email ?? `alerts@${String(config.smtp_host)}`),
    subject: `${prefix}[${m.severity}] ${m.title}`.slice(0, 250),
    text: `${m.title}\n\n${m.body}\n\nSeverity: ${m.severity}\nEvent: ${m.kind}\nAt: ${m.occurred_at}\n`,
  };
}
