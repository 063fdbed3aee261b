// The overview's live events applied to the page it read (docs/adr/0463): a pure step from one view to
// the next, and whether the change needs a read of the server (coalesced by the screen to one a minute).
// A status change moves its monitor's row and the counts only when the row says it has not been applied
// yet (its state is still `status_from`): an event heard while a read was out is replayed onto its
// answer, which may already hold it.
import type { paths } from "../api/client.ts";
import { BEATS } from "../components/heartbeat-bar.tsx";

export type Overview = paths["/api/v1/monitors/overview"]["get"]["responses"][200]["content"]["application/json"];
export type OverviewMonitor = Overview["items"][number];
type Status = OverviewMonitor["status"];
type Counts = Overview["counts"];

export interface StatusEvent {
  type: "status";
  monitor_id: number;
  status: Status;
  status_from: Status;
  msg: string;
  ts: string;
}
export interface ResultsEvent {
  type: "results";
  results: { monitor_id: number; status: Status; up: boolean; latency_ms: number | null; ts: string }[];
}

/** What the page shows beside the heartbeats: a result's latency joins the sparkline's last 12. */
const SPARK = 12;

function moveCount(counts: Counts, kind: string | null, from: Status, to: Status, wholeOnly: boolean): Counts {
  const status = { ...counts.status, [from]: Math.max(0, counts.status[from] - 1), [to]: counts.status[to] + 1 };
  if (wholeOnly) return { ...counts, status };
  const target_types = counts.target_types.map((k) =>
    k.target_type === (kind ?? "none")
      ? { ...k, status: { ...k.status, [from]: Math.max(0, k.status[from] - 1), [to]: k.status[to] + 1 } }
      : k,
  );
  return { ...counts, status, target_types };
}

export interface Filtered {
  /** A filter other than status is set, so a monitor off the page may not be counted here. */
  narrowed: boolean;
  /** The status filter, if any: a row that leaves it (or one that enters it) changes the page. */
  status: string | undefined;
}

/** Answers the next view and whether the server must be read to be exact. */
export function applyEvent(
  view: Overview,
  data: Record<string, unknown>,
  { narrowed, status }: Filtered,
): { view: Overview; reread: boolean } {
  if (data.type === "status" && typeof data.monitor_id === "number") {
    const e = data as unknown as StatusEvent;
    const row = view.items.find((m) => m.id === e.monitor_id);
    if (!row) {
      // Off the page: counted here only when nothing but status narrows the list; its kind is unknown.
      if (narrowed) return { view, reread: true };
      // Its kind is not known here, and under a status filter it may belong on the page now.
      return { view: { ...view, counts: moveCount(view.counts, null, e.status_from, e.status, true) }, reread: true };
    }
    if (row.status === e.status) return { view, reread: false };
    if (row.status !== e.status_from) return { view, reread: true };
    const items = view.items.map((m) =>
      m.id === e.monitor_id ? { ...m, status: e.status, last_msg: e.msg, last_status_change_at: e.ts } : m,
    );
    // Under a status filter the row no longer belongs on this page: read it again.
    return {
      view: { ...view, items, counts: moveCount(view.counts, row.target_type, e.status_from, e.status, false) },
      reread: status !== undefined && status !== e.status,
    };
  }
  if (data.type === "results" && Array.isArray(data.results)) {
    const results = (data as unknown as ResultsEvent).results;
    let touched = false;
    const items = view.items.map((m) => {
      const mine = results.filter((r) => r.monitor_id === m.id);
      const last = m.heartbeats.at(-1)?.ts;
      const fresh = mine.filter((r) => last === undefined || Date.parse(r.ts) > Date.parse(last));
      if (fresh.length === 0) return m;
      touched = true;
      const latencies = fresh.map((r) => r.latency_ms).filter((l): l is number => l != null);
      return {
        ...m,
        heartbeats: [
          ...m.heartbeats,
          ...fresh.map((r) => ({ ts: r.ts, status: r.status, latency_ms: r.latency_ms, msg: undefined })),
        ].slice(-BEATS) as OverviewMonitor["heartbeats"],
        latency_series: [...m.latency_series, ...latencies].slice(-SPARK),
        latency_ms: fresh.at(-1)!.latency_ms ?? m.latency_ms,
        last_polled_at: fresh.at(-1)!.ts,
      };
    });
    return { view: touched ? { ...view, items } : view, reread: false };
  }
  // A monitor made, changed, paused or deleted: what it changes is only known to the server.
  if (data.type === "monitor") return { view, reread: true };
  return { view, reread: false };
}
