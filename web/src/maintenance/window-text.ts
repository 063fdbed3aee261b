// A maintenance window in words for the list and the form: when it applies, what it covers, and where it
// stands now (active until…, upcoming from…, ended, disabled), from the API's `active`, `current_ends_at`
// and `next_starts_at`, in the active language (the screens showing them call useT(), so they redraw).
import type { paths } from "../api/client.ts";
import { t } from "../i18n/i18n.ts";
import { targetNoun } from "../monitoring/target-kinds.ts";

export type MaintenanceWindow =
  paths["/api/v1/monitors/maintenance-windows/{window_id}"]["get"]["responses"][200]["content"]["application/json"];

const when = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

function minutes(n: number): string {
  if (n % 1440 === 0) return t("maintenance:text.days", { n: n / 1440 });
  if (n % 60 === 0) return t("maintenance:text.hours", { n: n / 60 });
  return t("maintenance:text.minutes", { n });
}

/** "Once, from … to …" or "0 2 * * 0 (Europe/Berlin) for 2 h", with a recurring window's bounds. */
export function scheduleText(w: MaintenanceWindow): string {
  if (w.kind === "one_off")
    return t("maintenance:text.once", { from: w.starts_at ? when(w.starts_at) : "?", to: w.ends_at ? when(w.ends_at) : "?" });
  const bounds = [
    w.starts_at ? t("maintenance:text.from", { at: when(w.starts_at) }) : "",
    w.ends_at ? t("maintenance:text.until", { at: when(w.ends_at) }) : "",
  ]
    .filter(Boolean)
    .join(" ");
  const recurring = t("maintenance:text.recurring", {
    cron: w.cron,
    timezone: w.timezone ?? "UTC",
    duration: minutes(w.duration_minutes ?? 0),
  });
  return bounds ? `${recurring}, ${bounds}` : recurring;
}

/** "2 monitors, hardware node #4, site #1, tag lab": what the window covers, in short. */
export function coversText(w: MaintenanceWindow): string {
  const n = w.monitor_ids.length;
  return [
    n > 0 ? t("maintenance:text.monitors", { count: n }) : "",
    w.target_type && w.target_id != null ? t("monitoring:target.numbered", { noun: targetNoun(w.target_type), id: w.target_id }) : "",
    w.site_id != null ? t("maintenance:text.site", { id: w.site_id }) : "",
    w.tag ? t("maintenance:text.tag", { tag: w.tag }) : "",
  ]
    .filter(Boolean)
    .join(", ");
}

/** Where the window stands now: a status word (components/status.tsx gives it its shape) and the detail. */
export function windowState(w: MaintenanceWindow): { status: "active" | "upcoming" | "ended" | "disabled"; detail: string } {
  if (!w.enabled) return { status: "disabled", detail: "" };
  if (w.active) return { status: "active", detail: w.current_ends_at ? t("maintenance:text.until", { at: when(w.current_ends_at) }) : "" };
  if (w.next_starts_at) return { status: "upcoming", detail: t("maintenance:text.starts", { at: when(w.next_starts_at) }) };
  return { status: "ended", detail: "" };
}
