// A monitor's history chart: latency (ms, left axis) and up / down (stepped, right axis) over the chosen
// period, from GET /monitors/{id}/history (latency_ms and avail come from the same samples, so they share
// their times). Results that arrived on the live stream after the load are added at the right. The time
// axis spans the chosen period, ending now, however many points there are. `version` changes when the
// stream has come back: the period is read again.
import { useMemo, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { Segmented } from "../components/segmented.tsx";
import { type ChartSeries, TimeChart } from "../components/time-chart.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";

export interface LiveResult {
  ts: number;
  /** The monitor's state after it (the stream's `status`). */
  status: string;
  up: boolean;
  latency_ms: number | null;
}

const PERIODS = [
  { hours: 1, label: i18nKey("monitoring:history.1h") },
  { hours: 24, label: i18nKey("monitoring:history.24h") },
  { hours: 168, label: i18nKey("monitoring:history.7d") },
  { hours: 720, label: i18nKey("monitoring:history.30d") },
] as const;

export function MonitorHistory({ monitorId, fresh, version }: { monitorId: number; fresh: readonly LiveResult[]; version: number }) {
  const t = useT();
  const [hours, setHours] = useState<number>(24);
  const history = useLoad(async () => {
    const read = (metric: string) =>
      ok(
        api.GET("/api/v1/monitors/{monitor_id}/history", {
          params: { path: { monitor_id: String(monitorId) }, query: { metric, hours: String(hours) } },
        }),
      );
    const [latency, avail] = await Promise.all([read("latency_ms"), read("avail")]);
    const byTime = new Map<number, LiveResult>();
    for (const p of avail)
      byTime.set(Date.parse(p.ts), { ts: Date.parse(p.ts), status: p.value === 1 ? "up" : "down", up: p.value === 1, latency_ms: null });
    for (const p of latency) {
      const at = byTime.get(Date.parse(p.ts));
      if (at) at.latency_ms = p.value;
    }
    return [...byTime.values()].sort((a, b) => a.ts - b.ts);
  }, [monitorId, hours, version]);

  // The period ends now: a new live result moves it on.
  const span = useMemo<[number, number]>(() => {
    const now = Date.now();
    return [now - hours * 3_600_000, now];
  }, [hours, history.data, fresh]);
  const points = useMemo(() => {
    const loaded = history.data ?? [];
    const last = loaded.length ? loaded[loaded.length - 1]!.ts : 0;
    return [...loaded.filter((p) => p.ts >= span[0]), ...fresh.filter((p) => p.ts > last)];
  }, [history.data, fresh, span]);
  const times = useMemo(() => points.map((p) => p.ts), [points]);
  const series = useMemo<ChartSeries[]>(
    () => [
      {
        label: t("monitoring:history.latency"),
        unit: t("monitoring:history.ms"),
        color: "--accent",
        scale: "ms",
        values: points.map((p) => p.latency_ms),
      },
      {
        label: t("monitoring:history.up"),
        unit: "",
        color: "--good",
        scale: "state",
        stepped: true,
        range: [0, 1],
        values: points.map((p) => (p.up ? 1 : 0)),
        format: (v) => (v >= 0.5 ? "up" : "down"),
      },
    ],
    [points, t("monitoring:history.latency")],
  );

  return (
    <section aria-labelledby="monitor-history-title">
      <header class="section-head">
        <h2 id="monitor-history-title">{t("monitoring:history.title")}</h2>
        <Segmented
          label={t("monitoring:history.period")}
          options={PERIODS.map((p) => ({ value: p.hours, label: t(p.label) }))}
          value={hours}
          onChange={setHours}
        />
      </header>
      {history.error !== undefined && <Notice kind="error">{messageOf(history.error)}</Notice>}
      <TimeChart
        title={t("monitoring:history.chart", { period: t(PERIODS.find((p) => p.hours === hours)!.label) })}
        times={times}
        series={series}
        span={span}
      />
    </section>
  );
}
