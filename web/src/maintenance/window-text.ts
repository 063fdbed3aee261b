// A maintenance window in words for the list and the form: when it applies, what it covers, and where it
// stands now (active until…, upcoming from…, ended, disabled), from the API's `active`, `current_ends_at`
// and `next_starts_at`.
import type { paths } from "../api/client.ts";

export type MaintenanceWindow =
  paths["/api/v1/monitors/maintenance-windows/{window_id}"]["get"]["responses"][200]["content"]["application/json"];

const when = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

function minutes(n: number): string {
  if (n % 1440 === 0) return `${n / 1440} d`;
  if (n % 60 === 0) return `${n / 60} h`;
  return `${n} min`;
}

/** "Once, from … to …" or "0 2 * * 0 (Europe/Berlin) for 2 h", with a recurring window's bounds. */
export function scheduleText(w: MaintenanceWindow): string {
  if (w.kind === "one_off") return `Once, ${w.starts_at ? when(w.starts_at) : "?"} to ${w.ends_at ? when(w.ends_at) : "?"}`;
  const bounds = [w.starts_at ? `from ${when(w.starts_at)}` : "", w.ends_at ? `until ${when(w.ends_at)}` : ""].filter(Boolean).join(" ");
  return `${w.cron} (${w.timezone ?? "UTC"}) for ${minutes(w.duration_minutes ?? 0)}${bounds ? `, ${bounds}` : ""}`;
}

const TARGET_NOUN: Record<string, string> = {
  hardware: "hardware node",
  compute_unit: "compute unit",
  service: "service",
  external_node: "external node",
  ip: "address",
};

/** "2 monitors, hardware node #4, site #1, tag lab": what the window covers, in short. */
export function coversText(w: MaintenanceWindow): string {
  const n = w.monitor_ids.length;
  return [
    n > 0 ? `${n} ${n === 1 ? "monitor" : "monitors"}` : "",
    w.target_type && w.target_id != null ? `${TARGET_NOUN[w.target_type] ?? w.target_type} #${w.target_id}` : "",
    w.site_id != null ? `site #${w.site_id}` : "",
    w.tag ? `tag ${w.tag}` : "",
  ]
    .filter(Boolean)
    .join(", ");
}

/** Where the window stands now: a status word (components/status.tsx gives it its shape) and the detail. */
export function windowState(w: MaintenanceWindow): { status: "active" | "upcoming" | "ended" | "disabled"; detail: string } {
  if (!w.enabled) return { status: "disabled", detail: "" };
  if (w.active) return { status: "active", detail: w.current_ends_at ? `until ${when(w.current_ends_at)}` : "" };
  if (w.next_starts_at) return { status: "upcoming", detail: `starts ${when(w.next_starts_at)}` };
  return { status: "ended", detail: "" };
}
