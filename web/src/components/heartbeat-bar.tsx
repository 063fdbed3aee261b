// A heartbeat bar (docs/adr/0465), as in Uptime Kuma: a monitor's last results, oldest on the left, one
// small bar each, coloured and shaped by the state the monitor was in after it (so it reads without
// colour; styles.css, .beat-*). The bar is one tab stop: arrow keys, Home and End move between results,
// and hovering or focusing one shows its time, state, latency and message.
import { useState } from "preact/hooks";
import { activeLocale, t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

export interface Beat {
  ts: string;
  status: string;
  latency_ms: number | null;
  /** null: none recorded; undefined: arrived on the live stream, which does not carry it. */
  msg: string | null | undefined;
}

/** How many results a bar holds (the API answers as many). */
export const BEATS = 50;

export function describeBeat(b: Beat): string {
  const latency = b.latency_ms == null ? "" : t("common:beat.latency", { ms: Math.round(b.latency_ms) });
  const msg = b.msg === undefined ? t("common:beat.msgLater") : (b.msg ?? t("common:beat.noMsg"));
  return t("common:beat.describe", { status: b.status, at: new Date(b.ts).toLocaleString(activeLocale()), latency, msg });
}

export function HeartbeatBar({ beats, label }: { beats: readonly Beat[]; label: string }) {
  // Re-renders on a language change; describeBeat translates with the module's t.
  useT();
  const shown = beats.slice(-BEATS);
  // The result the keyboard is on (the newest until moved), and the one whose details show.
  const [at, setAt] = useState<number | undefined>(undefined);
  const [open, setOpen] = useState<number | undefined>(undefined);
  const cursor = Math.min(at ?? shown.length - 1, shown.length - 1);
  if (shown.length === 0) return <span class="meta">{t("common:beat.none")}</span>;
  const move = (e: KeyboardEvent) => {
    const to =
      e.key === "ArrowLeft"
        ? cursor - 1
        : e.key === "ArrowRight"
          ? cursor + 1
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? shown.length - 1
              : undefined;
    if (to === undefined) return;
    e.preventDefault();
    const next = Math.max(0, Math.min(shown.length - 1, to));
    setAt(next);
    setOpen(next);
    ((e.currentTarget as HTMLElement).children[BEATS - shown.length + next] as HTMLElement | undefined)?.focus();
  };
  const detail = open === undefined ? undefined : shown[open];
  return (
    <div class="heartbeats-wrap">
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset groups form controls; these are results, one tab stop moved by the arrow keys */}
      <div class="heartbeats" role="group" aria-label={t("common:beat.bar", { label, count: shown.length })} onKeyDown={move}>
        {Array.from({ length: BEATS - shown.length }, (_, i) => (
          <span key={`gap-${i}`} class="beat beat-none" aria-hidden="true" />
        ))}
        {shown.map((b, i) => (
          <span
            key={b.ts}
            class={`beat beat-${b.status}`}
            data-status={b.status}
            role="img"
            tabIndex={i === cursor ? 0 : -1}
            aria-label={describeBeat(b)}
            onMouseEnter={() => setOpen(i)}
            onMouseLeave={() => setOpen(undefined)}
            onFocus={() => {
              setAt(i);
              setOpen(i);
            }}
            onBlur={() => setOpen(undefined)}
          />
        ))}
      </div>
      {detail && (
        <div class="beat-tip" role="tooltip" aria-hidden="true">
          {describeBeat(detail)}
        </div>
      )}
    </div>
  );
}
