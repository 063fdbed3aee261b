// What a hardware node's monitors say of it (docs/adr/0466): the rollup rule of GET /monitors/target-summary
// (any down -> down, else any up -> up), with the states the reference did not have placed in it: any
// degraded (and none down) -> degraded; only maintenance -> maintenance. Monitors still pending (or none
// enabled) say nothing, and the node keeps the status it has.

/** The hardware statuses (shared/schemas/hardware.ts) monitors can give; `unknown` is having none. */
export type NodeStatus = "up" | "down" | "degraded" | "maintenance";

/** The node's status from its enabled monitors' statuses; null when they say nothing. */
export function nodeStatusFromMonitors(statuses: readonly string[]): NodeStatus | null {
  if (statuses.includes("down")) return "down";
  if (statuses.includes("degraded")) return "degraded";
  if (statuses.includes("up")) return "up";
  if (statuses.length > 0 && statuses.every((s) => s === "maintenance")) return "maintenance";
  return null;
}
