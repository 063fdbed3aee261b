// The public state of a status page item from its monitors' states, and of the page from its items'
// (docs/adr/0454-status-pages.md). One monitor: its state. Several (a service's or a tag's): down when
// every one is down, degraded when some are down or degraded, maintenance when one is, up when all are.
export type MonitorState = "up" | "pending" | "degraded" | "down" | "maintenance";
export type ItemState = "up" | "degraded" | "down" | "maintenance" | "unknown";
export type PageState = "operational" | "degraded" | "outage" | "maintenance" | "unknown";

export function itemState(states: readonly string[]): ItemState {
  const known = states.filter((s) => s !== "pending");
  if (known.length === 0) return "unknown";
  const down = known.filter((s) => s === "down").length;
  const active = known.filter((s) => s !== "maintenance").length;
  if (down > 0) return down === active ? "down" : "degraded";
  if (known.includes("degraded")) return "degraded";
  if (known.includes("maintenance")) return "maintenance";
  return "up";
}

export function pageState(items: readonly ItemState[]): PageState {
  const known = items.filter((s) => s !== "unknown");
  if (known.length === 0) return "unknown";
  if (known.every((s) => s === "down")) return "outage";
  if (known.some((s) => s === "down" || s === "degraded")) return "degraded";
  if (known.some((s) => s === "maintenance")) return "maintenance";
  return "operational";
}
