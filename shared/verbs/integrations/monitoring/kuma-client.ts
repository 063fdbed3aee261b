// Reads one Uptime Kuma (1.23 / 2.0) the two ways it offers without its Socket.IO session: the public
// status page (GET /api/status-page/{slug}: publicGroupList[].monitorList[]; GET
// /api/status-page/heartbeat/{slug}: heartbeatList {id: [{status, time, ping, msg}]} and uptimeList
// {"<id>_24": ratio, "<id>_720": ratio}), and, with an API key, GET /metrics (Prometheus text, HTTP
// basic auth with the key as the password, as Uptime Kuma documents). Every request goes through
// OutboundHttp under the installation's SSRF policy. Errors carry messages safe to show an operator.
import type { OutboundPolicy } from "../../../domain/net/outbound-policy.ts";
import type { OutboundHttp, OutboundResponse } from "../../../net/outbound.ts";
import { KUMA_STATUS as STATUS, KumaError, type MonitorStatus } from "./kuma-error.ts";
import { type KumaMetric, parseKumaMetrics } from "./kuma-metrics.ts";

export interface KumaMonitor {
  external_id: string;
  name: string;
  url: string | null;
  status: MonitorStatus;
  uptime_7d: number | null;
  uptime_30d: number | null;
  last_heartbeat_at: Date | null;
  avg_response_ms: number | null;
  cert_expiry_days: number | null;
}

export interface KumaTarget {
  base_url: string;
  slug: string | null;
  apiKey: string | null;
  policy: OutboundPolicy;
  timeoutMs: number;
}

const MAX_BYTES = 4 * 1024 * 1024;
const slugOf = (t: KumaTarget) => encodeURIComponent(t.slug || "default");

async function get(outbound: OutboundHttp, t: KumaTarget, path: string, headers: Record<string, string> = {}): Promise<OutboundResponse> {
  return outbound.request({
    method: "GET",
    url: `${t.base_url}${path}`,
    headers: { accept: "application/json, text/plain", ...headers },
    timeoutMs: t.timeoutMs,
    maxBytes: MAX_BYTES,
    policy: t.policy,
  });
}

function json(res: OutboundResponse, what: string): unknown {
  try {
    return res.json();
  } catch {
    throw new KumaError(`Uptime Kuma's ${what} answer is not JSON.`);
  }
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** GET the status page; answers its monitors {id, name, url}. Also the connection test. */
export async function fetchStatusPage(outbound: OutboundHttp, t: KumaTarget): Promise<{ id: number; name: string; url: string | null }[]> {
  const res = await get(outbound, t, `/api/status-page/${slugOf(t)}`);
  if (res.status === 404) throw new KumaError(`Uptime Kuma has no status page "${t.slug || "default"}" (HTTP 404).`);
  if (res.status !== 200) throw new KumaError(`Uptime Kuma answered HTTP ${res.status} for the status page.`);
  const body = json(res, "status page");
  if (!isObject(body) || !Array.isArray(body.publicGroupList))
    throw new KumaError("Uptime Kuma's status page answer has no publicGroupList.");
  const monitors = new Map<number, { id: number; name: string; url: string | null }>();
  for (const group of body.publicGroupList) {
    if (!isObject(group) || !Array.isArray(group.monitorList))
      throw new KumaError("Uptime Kuma's status page answer has a group without a monitorList.");
    for (const m of group.monitorList) {
      if (!isObject(m) || typeof m.id !== "number" || typeof m.name !== "string")
        throw new KumaError("Uptime Kuma's status page answer has a monitor without an id or a name.");
      monitors.set(m.id, {
        id: m.id,
        name: m.name.slice(0, 200),
        url: typeof m.url === "string" && m.url !== "" ? m.url.slice(0, 2000) : null,
      });
    }
  }
  return [...monitors.values()];
}

interface Beat {
  status: number;
  time: string;
  ping: number | null;
}

/** Uptime Kuma writes heartbeat times as "YYYY-MM-DD HH:MM:SS(.mmm)" in UTC, without a zone. */
export function kumaTime(raw: string): Date | null {
  const text = /[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw.replace(" ", "T")}Z`;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
}

async function fetchHeartbeats(
  outbound: OutboundHttp,
  t: KumaTarget,
): Promise<{ beats: Record<string, Beat[]>; uptime: Record<string, number> }> {
  const res = await get(outbound, t, `/api/status-page/heartbeat/${slugOf(t)}`);
  if (res.status !== 200) throw new KumaError(`Uptime Kuma answered HTTP ${res.status} for the status page's heartbeats.`);
  const body = json(res, "heartbeat");
  if (!isObject(body) || !isObject(body.heartbeatList) || !isObject(body.uptimeList))
    throw new KumaError("Uptime Kuma's heartbeat answer has no heartbeatList or uptimeList.");
  const beats: Record<string, Beat[]> = {};
  for (const [id, list] of Object.entries(body.heartbeatList)) {
    if (!Array.isArray(list)) throw new KumaError("Uptime Kuma's heartbeat answer has a heartbeat list that is not an array.");
    beats[id] = list.filter((b): b is Beat => isObject(b) && typeof b.status === "number" && typeof b.time === "string");
  }
  const uptime: Record<string, number> = {};
  for (const [key, value] of Object.entries(body.uptimeList)) if (typeof value === "number" && Number.isFinite(value)) uptime[key] = value;
  return { beats, uptime };
}

async function fetchMetrics(outbound: OutboundHttp, t: KumaTarget, apiKey: string): Promise<KumaMetric[]> {
  const res = await get(outbound, t, "/metrics", { authorization: `Basic ${btoa(`:${apiKey}`)}`, accept: "text/plain" });
  if (res.status === 401 || res.status === 403) throw new KumaError(`Uptime Kuma refused the API key on /metrics (HTTP ${res.status}).`);
  if (res.status !== 200) throw new KumaError(`Uptime Kuma answered HTTP ${res.status} for /metrics.`);
  return parseKumaMetrics(res.text());
}

const pct = (ratio: number | undefined) => (ratio === undefined ? null : Math.round(Math.min(Math.max(ratio, 0), 1) * 100_000) / 1000);

/** The status page's monitors with their latest known status, uptime and response time; /metrics too with a key. */
export async function fetchKumaMonitors(outbound: OutboundHttp, t: KumaTarget): Promise<KumaMonitor[]> {
  const listed = await fetchStatusPage(outbound, t);
  const { beats, uptime } = await fetchHeartbeats(outbound, t);
  const metrics = t.apiKey ? await fetchMetrics(outbound, t, t.apiKey) : [];
  const byId = new Map(metrics.filter((m) => m.id !== null).map((m) => [m.id!, m]));
  const byName = new Map(metrics.map((m) => [m.name, m]));
  const out = listed.map((m): KumaMonitor => {
    const known = (beats[String(m.id)] ?? []).filter((b) => STATUS[b.status] !== undefined);
    const last = known.reduce<Beat | null>(
      (a, b) => (!a || (kumaTime(b.time)?.getTime() ?? 0) >= (kumaTime(a.time)?.getTime() ?? 0) ? b : a),
      null,
    );
    const pings = known.map((b) => b.ping).filter((p): p is number => typeof p === "number" && Number.isFinite(p));
    const metric = byId.get(String(m.id)) ?? byName.get(m.name);
    return {
      external_id: String(m.id),
      name: m.name,
      url: m.url ?? metric?.url ?? null,
      status: metric?.status ?? (last ? STATUS[last.status]! : "pending"),
      uptime_7d: pct(uptime[`${m.id}_168`]),
      uptime_30d: pct(uptime[`${m.id}_720`]),
      last_heartbeat_at: last ? kumaTime(last.time) : null,
      avg_response_ms:
        metric?.response_ms ?? (pings.length ? Math.round((pings.reduce((a, b) => a + b, 0) / pings.length) * 10) / 10 : null),
      cert_expiry_days: metric?.cert_days ?? null,
    };
  });
  // Monitors on no status page still appear in /metrics; Uptime Kuma 2.0 names them by id there.
  const listedIds = new Set(listed.map((m) => String(m.id)));
  const listedNames = new Set(listed.map((m) => m.name));
  for (const m of metrics) {
    if (m.id === null || listedIds.has(m.id) || listedNames.has(m.name) || m.status === null) continue;
    out.push({
      external_id: m.id,
      name: m.name,
      url: m.url,
      status: m.status,
      uptime_7d: null,
      uptime_30d: null,
      last_heartbeat_at: null,
      avg_response_ms: m.response_ms,
      cert_expiry_days: m.cert_days,
    });
  }
  return out;
}
