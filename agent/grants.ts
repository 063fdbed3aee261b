// The grants the server pushes (hello.ack capabilities, capabilities.set): {enabled, config} objects for
// capability_schema 2, bare booleans from servers that speak schema 1. Missing config falls back to the
// registry's defaults the agent needs (interval_s 30, max_concurrent 20).
export interface AgentGrants {
  telemetry: { enabled: boolean; intervalS: number; config: Record<string, unknown> };
  probes: { enabled: boolean; maxConcurrent: number };
  /** local_discovery: the scans the server may send (discovery.request) and their limits. */
  discovery: { enabled: boolean; config: Record<string, unknown> };
}

export const DEFAULT_INTERVAL_S = 30;
export const DEFAULT_MAX_CONCURRENT = 20;

function grant(value: unknown): { enabled: boolean; config: Record<string, unknown> } | undefined {
  if (typeof value === "boolean") return { enabled: value, config: {} };
  if (typeof value !== "object" || value === null) return undefined;
  const g = value as { enabled?: unknown; config?: unknown };
  const config = typeof g.config === "object" && g.config !== null && !Array.isArray(g.config) ? (g.config as Record<string, unknown>) : {};
  return { enabled: g.enabled === true, config };
}

const positiveInt = (v: unknown, fallback: number) => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : fallback);

/** The grants in a capabilities object; a capability it does not name is not granted. */
export function parseGrants(capabilities: unknown): AgentGrants {
  const caps = typeof capabilities === "object" && capabilities !== null ? (capabilities as Record<string, unknown>) : {};
  const telemetry = grant(caps.host_telemetry);
  const probes = grant(caps.remote_probe);
  const discovery = grant(caps.local_discovery);
  return {
    telemetry: {
      enabled: telemetry?.enabled ?? false,
      intervalS: positiveInt(telemetry?.config.interval_s, DEFAULT_INTERVAL_S),
      config: telemetry?.config ?? {},
    },
    probes: { enabled: probes?.enabled ?? false, maxConcurrent: positiveInt(probes?.config.max_concurrent, DEFAULT_MAX_CONCURRENT) },
    discovery: { enabled: discovery?.enabled ?? false, config: discovery?.config ?? {} },
  };
}
