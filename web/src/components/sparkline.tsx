// A latency sparkline as inline SVG: no chart library for a 24-point line.
export function Sparkline({ points, label }: { points: readonly number[]; label: string }) {
  if (points.length < 2) return <span class="meta">—</span>;
  const max = Math.max(...points, 1);
  const w = 96;
  const h = 24;
  const step = w / (points.length - 1);
  const d = points.map((p, i) => `${i === 0 ? "M" : "L"}${(i * step).toFixed(1)},${(h - (p / max) * (h - 2) - 1).toFixed(1)}`).join(" ");
  return (
    <svg class="spark" width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={label}>
      <path d={d} fill="none" stroke="currentColor" stroke-width="1.5" />
    </svg>
  );
}
