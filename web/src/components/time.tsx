// One way to show a moment: "3 min ago" (or "in 5 min"), with the exact time in the user's time zone on
// hover and for assistive technology (<time datetime> and its title). Every shown time shares one
// minute timer, started while any is on screen, so a screen with a thousand rows still redraws once a minute.
import { useEffect, useState } from "preact/hooks";
import { activeLocale } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

const MINUTE = 60_000;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    for (const l of listeners) l();
  }, MINUTE);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The current time, refreshed at most once a minute while the component is mounted. */
function useMinute(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => subscribe(() => setNow(Date.now())), []);
  return now;
}

// The console's language (i18n/i18n.ts) and the browser's time zone; one formatter pair per language.
const formatters = new Map<string, { relative: Intl.RelativeTimeFormat; exact: Intl.DateTimeFormat }>();
function formatter() {
  const lang = activeLocale();
  let f = formatters.get(lang);
  if (!f) {
    f = {
      relative: new Intl.RelativeTimeFormat(lang, { numeric: "auto", style: "short" }),
      exact: new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "long" }),
    };
    formatters.set(lang, f);
  }
  return f;
}

/** Largest unit first: the first whose size the distance reaches is the one said. */
const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 60 * MINUTE],
  ["month", 30 * 24 * 60 * MINUTE],
  ["week", 7 * 24 * 60 * MINUTE],
  ["day", 24 * 60 * MINUTE],
  ["hour", 60 * MINUTE],
  ["minute", MINUTE],
];

/** "3 min ago", "in 2 hr", "now" (under a minute either way): the distance from `now` in its largest whole unit. */
export function relativeTo(at: Date, now: number): string {
  const diff = at.getTime() - now;
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size) return formatter().relative.format(Math.trunc(diff / size), unit);
  }
  return formatter().relative.format(0, "second");
}

/** The exact moment in the user's locale and time zone, the zone named ("29 Nov 2026, 14:03:07 CET"). */
export function exactTime(at: Date): string {
  return formatter().exact.format(at);
}

/**
 * An API timestamp as a relative time with the exact one on hover; `empty` (a dash) when there is none
 * or it is not a date.
 */
export function RelativeTime({ at, empty = "—" }: { at: string | null | undefined; empty?: string }) {
  useT();
  const now = useMinute();
  const date = at ? new Date(at) : undefined;
  if (!date || Number.isNaN(date.getTime())) return <>{empty}</>;
  const full = exactTime(date);
  return (
    <time dateTime={date.toISOString()} title={full}>
      {relativeTo(date, now)}
    </time>
  );
}
