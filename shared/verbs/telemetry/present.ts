// API shapes of live-metric rows and poll configurations. The community and the SNMPv3 keys never leave
// the server: a configuration says only whether each is set.
import type { hardwareLiveMetrics, telemetryConfigs } from "../../db/schema/index.ts";
import { iso } from "../resources/present.ts";

type SampleRow = typeof hardwareLiveMetrics.$inferSelect;
type ConfigRow = typeof telemetryConfigs.$inferSelect;

export function presentSample(r: SampleRow) {
  return {
    id: r.id,
    ts: iso(r.ts)!,
    cpu_pct: r.cpu_pct,
    mem_pct: r.mem_pct,
    disk_pct: r.disk_pct,
    temp_c: r.temp_c,
    net_rx_bps: r.net_rx_bps,
    net_tx_bps: r.net_tx_bps,
    uptime_s: r.uptime_s,
    status: r.status,
    source: r.source,
    sample_count: r.sample_count,
  };
}

/**
 * Which v3 keys a configuration holds, from the level they were written for: set-config.ts stores exactly the
 * keys the level needs (an auth key from authNoPriv up, a privacy key with authPriv), never one apart.
 */
function usmKeysSet(r: ConfigRow): { auth: boolean; priv: boolean } {
  const level = r.usm_keys ? (r.usm?.security_level ?? "noAuthNoPriv") : "noAuthNoPriv";
  return { auth: level !== "noAuthNoPriv", priv: level === "authPriv" };
}

export function presentConfig(r: ConfigRow) {
  const keys = usmKeysSet(r);
  return {
    hardware_id: r.hardware_id,
    protocol: r.protocol,
    enabled: r.enabled,
    host: r.host,
    port: r.port,
    snmp_version: r.snmp_version,
    community_set: r.community != null && r.community !== "",
    username: r.usm?.username ?? null,
    security_level: r.usm?.security_level ?? null,
    auth_protocol: r.usm?.auth_protocol ?? null,
    auth_key_set: keys.auth,
    priv_protocol: r.usm?.priv_protocol ?? null,
    priv_key_set: keys.priv,
    interval_s: r.interval_s,
    options: r.options ?? {},
    last_polled_at: iso(r.last_polled_at),
    last_error: r.last_error,
    updated_at: iso(r.updated_at)!,
  };
}
