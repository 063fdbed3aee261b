// Prometheus Alertmanager API v2 (POST /api/v2/alerts, an array of one alert). Alertmanager knows an alert
// by its whole label set, so the labels are the same on the firing alert and on its recovery (alertname,
// subject, dedup_key); the recovery is that alert with endsAt = now. Severity is an annotation, not a
// label: it changes within an incident (degraded, then down) and a recovery does not know the one that fired
// (docs/adr/0443-paging-providers.md).
import { alertSubject } from "../alert-status.ts";
import { basicAuth } from "../basic-auth.ts";
import { bodyWithLink } from "../message-text.ts";
import { baseUrl, clip, type HttpNotifier, jsonRequest } from "./notifier.ts";

const HOUR_MS = 3_600_000;

export const alertmanager = {
  type: "alertmanager",
  label: "Prometheus Alertmanager",
  transport: "http",
  fields: {
    base_url: { kind: "url", required: true, hint: "The Alertmanager's URL (http://alertmanager:9093), without /api/v2." },
    alertname: { kind: "string", hint: "The alertname label of every alert (default ControlPlaneAlert): route on it." },
    hold_hours: {
      kind: "integer",
      min: 1,
      max: 8760,
      hint: "A firing alert's endsAt, in hours after it began (default 168): Alertmanager resolves it then if its recovery never came.",
    },
    username: { kind: "string", hint: "HTTP Basic user, when the Alertmanager sits behind a proxy that asks." },
    password: { kind: "string", secret: true, hint: "HTTP Basic password." },
    bearer_token: { kind: "string", secret: true, hint: "A bearer token, instead of Basic." },
  },
  render: ({ config, secrets, message: m, nowSecs }) => {
    const d = m.data as { monitor_id?: number | null; target_id?: number | null; detail?: Record<string, unknown> };
    const subject = alertSubject({
      kind: m.kind,
      monitor_id: d.monitor_id ?? null,
      target_id: d.target_id ?? null,
      detail: d.detail ?? {},
    });
    const alert: Record<string, unknown> = {
      labels: { alertname: String(config.alertname ?? "ControlPlaneAlert"), subject: subject ?? m.dedup_key, dedup_key: m.dedup_key },
      annotations: { summary: clip(m.title, 1024), description: bodyWithLink(m, 8000), severity: m.severity, kind: m.kind },
      ...(m.links.alert ? { generatorURL: m.links.alert } : {}),
    };
    if (m.status === "resolved") alert.endsAt = new Date(nowSecs * 1000).toISOString();
    else {
      alert.startsAt = m.occurred_at;
      // An event has no recovery: without endsAt, Alertmanager ends it after its resolve_timeout.
      if (m.status === "firing")
        alert.endsAt = new Date(Date.parse(m.occurred_at) + Number(config.hold_hours ?? 168) * HOUR_MS).toISOString();
    }
    const auth: Record<string, string> = secrets.bearer_token
      ? { authorization: `Bearer ${secrets.bearer_token}` }
      : config.username
        ? { authorization: basicAuth(String(config.username), secrets.password ?? "") }
        : {};
    return jsonRequest(`${baseUrl(config)}/api/v2/alerts`, [alert], auth);
  },
} satisfies HttpNotifier<"alertmanager">;
