// An agent's telemetry: the latest frame's figures and its collectors' readiness (GET /agents/{id}/telemetry),
// and CPU, memory and root-disk use over the chosen range (GET /agents/{id}/telemetry/history, averaged
// into buckets by the server), one chart each. `version` changes when the live telemetry stream reports
// new samples from this agent's host, and both are read again.
import { useMemo, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { Segmented } from "../components/segmented.tsx";
import { Status } from "../components/status.tsx";
import { type ChartSeries, TimeChart } from "../components/time-chart.tsx";
import { useLoad } from "../use-load.ts";
import { RelativeTime } from "../components/time.tsx";
import { activeLocale, i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

const RANGES = ["1h", "6h", "24h", "7d", "30d"] as const;
type Range = (typeof RANGES)[number];
const METRICS = [
  { key: "cpu_pct", title: i18nKey("agents:telemetry.cpu"), color: "--accent" },
  { key: "mem_pct", title: i18nKey("agents:telemetry.memory"), color: "--warn" },
  { key: "root_disk_pct", title: i18nKey("agents:telemetry.rootDisk"), color: "--good" },
] as const;
const percent = (v: number) => `${Math.round(v * 10) / 10} %`;

export function AgentTelemetry({ agentId, active, version }: { agentId: number; active: boolean; version: number }) {
  const t = useT();
  const [range, setRange] = useState<Range>("1h");
  const path = { agent_id: String(agentId) };
  const latest = useLoad(() => ok(api.GET("/api/v1/agents/{agent_id}/telemetry", { params: { path } })), [agentId, version]);
  const history = useLoad(
    () => ok(api.GET("/api/v1/agents/{agent_id}/telemetry/history", { params: { path, query: { range } } })),
    [agentId, range, version],
  );
  const points = history.data?.points ?? [];
  const times = useMemo(() => points.map((p) => Date.parse(p.collected_at)), [history.data]);
  const charts = useMemo(
    () =>
      METRICS.map((m): { title: string; series: ChartSeries[] } => ({
        title: t("agents:telemetry.chart", { metric: t(m.title), range }),
        series: [
          { label: t(m.title), unit: "%", color: m.color, range: [0, 100], values: points.map((p) => p.summary[m.key]), format: percent },
        ],
      })),
    // The titles are words of the active language.
    [history.data, activeLocale()],
  );
  const now = latest.data?.latest;
  return (
    <section aria-labelledby="agent-telemetry-title">
      <header class="section-head">
        <h2 id="agent-telemetry-title">{t("agents:telemetry.title")}</h2>
        <Segmented
          label={t("agents:telemetry.range")}
          options={RANGES.map((r) => ({ value: r, label: r }))}
          value={range}
          onChange={setRange}
        />
      </header>
      {latest.error !== undefined && <Notice kind="error">{messageOf(latest.error)}</Notice>}
      {history.error !== undefined && <Notice kind="error">{messageOf(history.error)}</Notice>}
      {/* The API reports no grant for an agent that is not active, whatever its stored grants say. */}
      {latest.data && !active && <p class="notice notice-info">{t("agents:telemetry.inactive")}</p>}
      {latest.data && active && !latest.data.capability.enabled && <p class="notice notice-info">{t("agents:telemetry.notGranted")}</p>}
      {now && (
        <p class="meta">
          {t("agents:telemetry.latest")} <RelativeTime at={now.collected_at} />
          {t("agents:telemetry.figures", {
            cpu: now.summary.cpu_pct == null ? "—" : percent(now.summary.cpu_pct),
            memory: now.summary.mem_pct == null ? "—" : percent(now.summary.mem_pct),
            disk: now.summary.root_disk_pct == null ? "—" : percent(now.summary.root_disk_pct),
          })}
          {now.summary.load_1 != null && t("agents:telemetry.load", { load: now.summary.load_1.toFixed(2) })}
          {now.summary.max_temp_c != null && t("agents:telemetry.temperature", { temperature: Math.round(now.summary.max_temp_c) })}.
        </p>
      )}
      <div class="chart-grid">
        {charts.map((c) => (
          <TimeChart key={c.title} title={c.title} times={times} series={c.series} height={160} />
        ))}
      </div>
      {latest.data && latest.data.readiness.length > 0 && (
        <ul class="readiness" aria-label={t("agents:telemetry.collectors")}>
          {latest.data.readiness.map((r) => (
            <li key={r.collector}>
              {r.collector} <Status value={r.state === "ready" ? "up" : r.state} />
              {r.reason && (
                <span class="meta">
                  {" "}
                  {r.reason}
                  {r.remediation ? ` (${r.remediation})` : ""}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
