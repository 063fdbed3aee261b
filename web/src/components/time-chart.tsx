// A time-series chart drawn by uPlot (a small canvas chart library, bundled; loaded in its own chunk the
// first time a chart is shown, so the other screens do not carry it). Each series is one line over the
// shared time axis; a series may be stepped (up/down) and may have its own scale. The canvas cannot be
// read by a screen reader, so the figure carries a text summary of each series' latest value and range.
import { useEffect, useRef, useState } from "preact/hooks";
import type uPlot from "uplot";
import { useT } from "../i18n/use-t.ts";

export interface ChartSeries {
  label: string;
  /** One value per time (null: no value then). */
  values: readonly (number | null)[];
  /** A CSS custom property of the theme (`--accent`), read when the chart is drawn. */
  color: string;
  unit: string;
  /** Series sharing a scale share an axis; the first scale's axis is on the left, a second on the right. */
  scale?: string;
  /** Drawn as steps (a state such as up = 1 / down = 0) instead of a line. */
  stepped?: boolean;
  /** A fixed range for the scale (percentages 0..100, states 0..1). */
  range?: [number, number];
  /** How a value reads in the summary (default: rounded, with the unit). */
  format?: (v: number) => string;
}

let loading: Promise<typeof uPlot> | undefined;
const loadUPlot = () => (loading ??= import("./uplot-chunk.ts").then((m) => m.default));

/** Changes when the theme does (the top bar's choice or the system's): canvas colours are read, not styled. */
function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    const dark = matchMedia("(prefers-color-scheme: dark)");
    dark.addEventListener("change", bump);
    return () => {
      observer.disconnect();
      dark.removeEventListener("change", bump);
    };
  }, []);
  return version;
}

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#888";

function summary(s: ChartSeries): string {
  const vals = s.values.filter((v): v is number => v != null);
  if (vals.length === 0) return `${s.label}: no data`;
  const fmt = s.format ?? ((v: number) => `${Math.round(v * 10) / 10} ${s.unit}`);
  return `${s.label}: latest ${fmt(vals[vals.length - 1]!)}, between ${fmt(Math.min(...vals))} and ${fmt(Math.max(...vals))} over ${vals.length} points`;
}

/**
 * `times` in milliseconds since the epoch, ascending. `span` (ms): the time axis's exact range, the period
 * the screen chose, whatever the points (without it uPlot fits the axis to the data, and widens a single
 * point to years). The figure's data-x-min and data-x-max say the range drawn.
 */
export function TimeChart({
  title,
  times,
  series,
  span,
  height = 200,
}: {
  title: string;
  times: readonly number[];
  series: readonly ChartSeries[];
  span?: readonly [number, number];
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const figure = useRef<HTMLElement>(null);
  const range = useRef(span);
  range.current = span;
  const chart = useRef<uPlot | undefined>(undefined);
  const t = useT();
  const [failed, setFailed] = useState<string | undefined>();
  const theme = useThemeVersion();
  // The chart is rebuilt only when its shape changes; new points go through setData (live updates).
  const shape = series.map((s) => `${s.label}|${s.scale ?? ""}|${s.stepped ? 1 : 0}|${s.color}`).join(";");
  // The latest data, for a chart created after uPlot's chunk arrives (the data may have come first).
  const data = useRef<() => uPlot.AlignedData>(() => []);
  data.current = () => [times.map((t) => t / 1000), ...series.map((s) => s.values as (number | null)[])];

  useEffect(() => {
    let gone = false;
    let observer: ResizeObserver | undefined;
    loadUPlot().then(
      (UPlot) => {
        if (gone || !box.current) return;
        const scales = [...new Set(series.map((s) => s.scale ?? "y"))];
        const text = cssVar("--muted");
        const grid = cssVar("--border");
        const opts: uPlot.Options = {
          width: Math.max(240, box.current.clientWidth),
          height,
          legend: { show: true },
          cursor: { drag: { x: false, y: false } },
          scales: {
            // Read at each setData: the period moves on with the clock and changes with the choice.
            ...(range.current
              ? {
                  x: {
                    time: true,
                    range: (_u: uPlot, min: number, max: number): uPlot.Range.MinMax =>
                      range.current ? [range.current[0] / 1000, range.current[1] / 1000] : [min, max],
                  },
                }
              : {}),
            ...Object.fromEntries(
              scales.map((k) => {
                const fixed = series.find((s) => (s.scale ?? "y") === k)?.range;
                return [k, fixed ? { range: fixed } : {}];
              }),
            ),
          },
          hooks: {
            setScale: [
              (u, key) => {
                if (key !== "x" || !figure.current || u.scales.x?.min == null || u.scales.x.max == null) return;
                figure.current.dataset.xMin = String(Math.round(u.scales.x.min * 1000));
                figure.current.dataset.xMax = String(Math.round(u.scales.x.max * 1000));
              },
            ],
          },
          axes: [
            { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } },
            ...scales.map((k, i) => {
              const first = series.find((s) => (s.scale ?? "y") === k)!;
              return {
                scale: k,
                side: i === 0 ? 3 : 1,
                stroke: text,
                grid: { show: i === 0, stroke: grid, width: 1 },
                ticks: { stroke: grid },
                label: first.unit,
                // A state (stepped) has two values worth a tick: its range's ends.
                ...(first.stepped && first.range ? { splits: () => [...first.range!] } : {}),
                values: (_u: uPlot, ticks: number[]) => ticks.map((v) => (first.format ? first.format(v) : String(v))),
              };
            }),
          ],
          series: [
            {},
            ...series.map((s) => ({
              label: s.label,
              scale: s.scale ?? "y",
              stroke: cssVar(s.color),
              width: 2,
              spanGaps: false,
              // The theme's colours are #rrggbb: "22" appended is a light fill under the steps.
              ...(s.stepped ? { paths: UPlot.paths.stepped!({ align: 1 }), fill: `${cssVar(s.color)}22` } : {}),
              value: (_u: uPlot, v: number | null) => (v == null ? "—" : s.format ? s.format(v) : `${Math.round(v * 10) / 10} ${s.unit}`),
            })),
          ],
        };
        chart.current = new UPlot(opts, data.current(), box.current);
        observer = new ResizeObserver(
          () => box.current && chart.current?.setSize({ width: Math.max(240, box.current.clientWidth), height }),
        );
        observer.observe(box.current);
      },
      (e: unknown) => setFailed(`The chart could not be drawn (${e instanceof Error ? e.message : String(e)}).`),
    );
    return () => {
      gone = true;
      observer?.disconnect();
      chart.current?.destroy();
      chart.current = undefined;
    };
  }, [shape, height, theme]);

  useEffect(() => {
    chart.current?.setData(data.current());
  }, [times, series, span?.[0], span?.[1]]);

  const label = `${title}. ${series.map(summary).join(". ")}.`;
  return (
    <figure ref={figure} class="time-chart" data-points={times.length}>
      <figcaption>{title}</figcaption>
      {failed ? (
        <p class="notice notice-error" role="alert">
          {failed}
        </p>
      ) : (
        <div ref={box} class="time-chart-plot" role="img" aria-label={label} />
      )}
      {times.length === 0 && <p class="empty">{t("common:chart.noData")}</p>}
    </figure>
  );
}
