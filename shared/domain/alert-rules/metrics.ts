// The metric catalogue of alert rules (docs/alert-rules.md): every metric a rule may watch, in one place.
// Adding a metric is one entry here (and, for a new source, the place that commits that source's
// samples passes its values to the engine). Runtime-neutral: the console's form reads this list too, and
// shows each description translated: `node scripts/console-text.ts`, then the key's German, French and
// Spanish in web/src/locales/{de,fr,es}/metrics.json (tests/unit/console-text.test.ts names what is missing).
//
// Sources:
// - `agent`: an agent's telemetry.host frame (agent_host_samples; the summary's fields, and per-filesystem
//   use from the frame's filesystems list, which is kept only as the latest frame);
// - `live`: a node's live metrics (hardware_live_metrics) whoever measured them: pushed samples, the SNMP
//   poller, and the agent's frames (which write a live row too);
// - `forecast`: the analytics job's capacity forecasts (capacity_forecasts), in days until full.

export type MetricSource = "agent" | "live" | "forecast";

export interface MetricDef {
  name: string;
  source: MetricSource;
  unit: "%" | "°C" | "" | "B/s" | "days";
  /** The column of the source's table the value is stored in (history for the rule test and window seeding). */
  column: string | null;
  /** Agent metrics: the key of the telemetry.host frame's summary that carries the value. */
  frame?: string;
  description: string;
}

const agent = (name: string, frame: string, unit: MetricDef["unit"], description: string): MetricDef => ({
  name: `host.${name}`,
  source: "agent",
  unit,
  column: name,
  frame,
  description,
});
const live = (name: string, unit: MetricDef["unit"], description: string): MetricDef => ({
  name: `live.${name}`,
  source: "live",
  unit,
  column: name,
  description,
});

export const METRICS: readonly MetricDef[] = [
  agent("cpu_pct", "cpu_pct", "%", "CPU use reported by the agent"),
  agent("mem_pct", "mem_pct", "%", "Memory use reported by the agent"),
  agent("swap_pct", "swap_pct", "%", "Swap use reported by the agent"),
  agent("disk_pct", "root_disk_pct", "%", "Use of the root filesystem reported by the agent"),
  agent("load_1", "load_1", "", "1-minute load average reported by the agent"),
  agent("max_temp_c", "max_temp_c", "°C", "The hottest temperature sensor reported by the agent"),
  agent("net_rx_bps", "net_rx_bps", "B/s", "Bytes received per second reported by the agent"),
  agent("net_tx_bps", "net_tx_bps", "B/s", "Bytes sent per second reported by the agent"),
  live("cpu_pct", "%", "CPU use of the node's live metrics (pushed, SNMP-polled or from its agent)"),
  live("mem_pct", "%", "Memory use of the node's live metrics"),
  live("disk_pct", "%", "Disk use of the node's live metrics"),
  live("temp_c", "°C", "Temperature of the node's live metrics"),
  live("net_rx_bps", "B/s", "Bytes received per second of the node's live metrics"),
  live("net_tx_bps", "B/s", "Bytes sent per second of the node's live metrics"),
  {
    name: "forecast.disk_full_days",
    source: "forecast",
    unit: "days",
    column: "disk_pct",
    description: "Days until the disk is full, from the analytics job's capacity forecast (use with `<`)",
  },
  {
    name: "forecast.mem_full_days",
    source: "forecast",
    unit: "days",
    column: "mem_pct",
    description: "Days until memory is full, from the analytics job's capacity forecast (use with `<`)",
  },
];

/** The per-filesystem metric: `host.fs_pct{/var}` watches the filesystem mounted at /var. */
export const FS_METRIC = "host.fs_pct";
const FS_PATTERN = /^host\.fs_pct\{(\/[^{}\s]{0,255})\}$/;

/** The metric's definition, or undefined for a name the catalogue does not have. */
export function findMetric(name: string): (MetricDef & { mount?: string }) | undefined {
  const fs = FS_PATTERN.exec(name);
  if (fs)
    return {
      name,
      source: "agent",
      unit: "%",
      column: null,
      mount: fs[1]!,
      description: `Use of the filesystem mounted at ${fs[1]} reported by the agent`,
    };
  return METRICS.find((m) => m.name === name);
}

/** Every name the API accepts, for its error messages and the OpenAPI description. */
export const METRIC_NAMES_TEXT = `${METRICS.map((m) => m.name).join(", ")}, ${FS_METRIC}{<mountpoint>}`;

/** The values of an agent's telemetry.host frame by metric name (`host.*`, each filesystem's `host.fs_pct{mount}`). */
export function agentFrameValues(summary: Record<string, unknown>, filesystems: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of METRICS) {
    const v = m.frame ? summary[m.frame] : undefined;
    if (typeof v === "number" && Number.isFinite(v)) out[m.name] = v;
  }
  if (Array.isArray(filesystems))
    for (const fs of filesystems) {
      const f = fs as { mountpoint?: unknown; used_pct?: unknown };
      if (typeof f?.mountpoint === "string" && typeof f.used_pct === "number" && Number.isFinite(f.used_pct))
        out[`${FS_METRIC}{${f.mountpoint}}`] = f.used_pct;
    }
  return out;
}

/** The values of a live-metrics row by metric name (`live.*`). */
export function liveRowValues(row: object): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of METRICS) {
    if (m.source !== "live" || !m.column) continue;
    const v = (row as Record<string, unknown>)[m.column];
    if (typeof v === "number" && Number.isFinite(v)) out[m.name] = v;
  }
  return out;
}
