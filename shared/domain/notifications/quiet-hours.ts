// A route's quiet hours (docs/adr/0450-quiet-hours-and-digests.md): a weekly schedule of wall-clock
// windows in an IANA zone. Whether an instant is quiet, and when the quiet period around it ends, are
// read from the zone's wall clock with Intl, so a DST change moves the windows with the clock on the wall
// (22:00-07:00 stays 22:00-07:00 local, 8 or 10 hours long on the night of the change).
import { normalizeSeverity } from "./severity.ts";

export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface QuietWindow {
  /** The days a window starts on (a window past midnight ends on the next day). */
  days: string[];
  /** "HH:MM", local. */
  start: string;
  /** "HH:MM" or "24:00"; at or before `start`: the window ends the next day. */
  end: string;
}

export interface QuietSchedule {
  timezone: string;
  windows: QuietWindow[];
  hold_below: "warning" | "critical";
}

export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      weekday: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether this runtime knows `zone` as an IANA time zone. */
export function knownZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

interface Wall {
  year: number;
  month: number;
  day: number;
  weekday: number;
  /** Minutes since local midnight. */
  minutes: number;
  /** The wall clock read as if it were UTC (ms): its difference from the instant is the zone's offset. */
  asUtc: number;
}

function wallOf(zone: string, at: number): Wall {
  const parts: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(new Date(at))) parts[p.type] = p.value;
  const [year, month, day, hour, minute, second] = [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second].map(
    Number,
  ) as [number, number, number, number, number, number];
  return {
    year,
    month,
    day,
    weekday: WEEKDAYS.indexOf((parts.weekday ?? "").toLowerCase().slice(0, 3) as Weekday),
    minutes: hour * 60 + minute,
    asUtc: Date.UTC(year, month - 1, day, hour, minute, second),
  };
}

/** The instant a wall-clock time names in `zone` (a time skipped by a DST change lands just after the gap). */
function instantOf(zone: string, year: number, month: number, day: number, minutes: number): number {
  const naive = Date.UTC(year, month - 1, day, 0, minutes);
  const offset = (t: number) => wallOf(zone, t).asUtc - Math.floor(t / 1000) * 1000;
  const first = naive - offset(naive);
  const second = naive - offset(first);
  return Math.max(first, second);
}

const toMinutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The end (ms) of the window containing `wall`, or null when it does not contain it. */
function windowEnd(zone: string, w: QuietWindow, wall: Wall): number | null {
  const start = toMinutes(w.start);
  const end = toMinutes(w.end);
  const on = (weekday: number) => w.days.includes(WEEKDAYS[(weekday + 7) % 7]!);
  if (start < end)
    return on(wall.weekday) && wall.minutes >= start && wall.minutes < end ? instantOf(zone, wall.year, wall.month, wall.day, end) : null;
  if (on(wall.weekday) && wall.minutes >= start) return instantOf(zone, wall.year, wall.month, wall.day + 1, end);
  if (on(wall.weekday - 1) && wall.minutes < end) return instantOf(zone, wall.year, wall.month, wall.day, end);
  return null;
}

function endOfWindowsAt(q: QuietSchedule, at: number): number | null {
  const wall = wallOf(q.timezone, at);
  let latest: number | null = null;
  for (const w of q.windows) {
    const end = windowEnd(q.timezone, w, wall);
    if (end !== null && (latest === null || end > latest)) latest = end;
  }
  return latest;
}

export function isQuiet(q: QuietSchedule, at: Date): boolean {
  return endOfWindowsAt(q, at.getTime()) !== null;
}

/**
 * When the quiet period containing `at` ends (windows that touch or overlap are one period), or null when
 * `at` is not quiet. Bounded: a schedule quiet all week ends its period after 14 windows (a week at least).
 */
export function quietUntil(q: QuietSchedule, at: Date): Date | null {
  let t = at.getTime();
  let end = endOfWindowsAt(q, t);
  if (end === null) return null;
  for (let i = 0; i < 14 && end !== null; i++) {
    // A wall time a DST change made ambiguous can map to an instant not after `t`: move on a minute.
    t = end > t ? end : t + 60_000;
    end = endOfWindowsAt(q, t);
  }
  return new Date(t);
}

/** Whether an alert of `severity` is held during quiet hours that hold below `holdBelow` (critical always passes). */
export function heldBy(holdBelow: QuietSchedule["hold_below"], severity: string): boolean {
  const s = normalizeSeverity(severity);
  if (s === "critical") return false;
  return holdBelow === "critical" || s === "info";
}
