// Uptime Kuma's GET /metrics (Prometheus text format) read with parse-prometheus-text-format: per monitor
// (labels monitor_name, monitor_type, monitor_url, monitor_hostname, monitor_port; 2.0 adds monitor_id)
// the gauges monitor_status (0 down, 1 up, 2 pending, 3 maintenance), monitor_response_time (ms) and
// monitor_cert_days_remaining.
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { KUMA_STATUS as STATUS, KumaError, type MonitorStatus } from "./kuma-error.ts";

export interface KumaMetric {
  id: string | null;
  name: string;
  url: string | null;
  status: MonitorStatus | null;
  response_ms: number | null;
  cert_days: number | null;
}

const FIELDS = { monitor_status: "status", monitor_response_time: "response_ms", monitor_cert_days_remaining: "cert_days" } as const;

/** Kuma writes the string "null" for a label it has no value for. */
const label = (v: string | undefined) => (v === undefined || v === "" || v === "null" ? null : v);

export function parseKumaMetrics(text: string): KumaMetric[] {
  let families;
  try {
    families = parsePrometheusTextFormat(text);
  } catch {
    throw new KumaError("Uptime Kuma's /metrics answer is not Prometheus text.");
  }
  const monitors = new Map<string, KumaMetric>();
  for (const family of families) {
    const field = FIELDS[family.name as keyof typeof FIELDS];
    if (!field) continue;
    for (const sample of family.metrics) {
      const name = label(sample.labels?.monitor_name);
      const value = Number(sample.value);
      if (name === null || !Number.isFinite(value)) continue;
      const id = label(sample.labels?.monitor_id);
      const key = id ?? `name:${name}`;
      const m = monitors.get(key) ?? {
        id,
        name: name.slice(0, 200),
        url: label(sample.labels?.monitor_url)?.slice(0, 2000) ?? null,
        status: null,
        response_ms: null,
        cert_days: null,
      };
      if (field === "status") m.status = STATUS[value] ?? null;
      else if (field === "cert_days") m.cert_days = Math.round(value);
      else m.response_ms = value < 0 ? null : value; // Kuma reports -1 for a check without a time
      monitors.set(key, m);
    }
  }
  return [...monitors.values()];
}
