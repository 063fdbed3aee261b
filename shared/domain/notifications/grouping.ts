// Alerts that know the dependency graph (issue 12 item 4): a down alert whose target lies in the blast
// radius of another target already down is folded into that root's alert instead of being sent alone.
// Pure: the caller supplies the down targets and their radii (the intelligence verb computes them).

export interface DownTarget {
  /** The latest alert of the monitor that is down. */
  alert_id: number;
  target: string;
  /** Where that alert was folded, when it was (follow it to the root). */
  suppressed_by: number | null;
  /** Every asset its failure reaches (`type:id`), the target itself excluded. */
  radius: ReadonlySet<string>;
}

export const targetKey = (type: string, id: number) => `${type}:${id}`;

/**
 * The alert `alertId` (on `target`, whose own radius is `ownRadius`) folds into: the down target whose
 * radius holds it, the widest first. Two targets in each other's radius (hardware connected both ways)
 * fold into the older alert, so a cycle never silences both. Null: send it on its own.
 */
export function chooseRoot(alertId: number, target: string, ownRadius: ReadonlySet<string>, down: readonly DownTarget[]): number | null {
  const holders = down
    .filter((d) => d.target !== target && d.radius.has(target))
    .filter((d) => !ownRadius.has(d.target) || (d.suppressed_by ?? d.alert_id) < alertId)
    .sort((a, b) => b.radius.size - a.radius.size || a.alert_id - b.alert_id);
  const root = holders[0];
  if (!root) return null;
  const id = root.suppressed_by ?? root.alert_id;
  return id === alertId ? null : id;
}

export interface AffectedMonitor {
  monitor_id: number | null;
  title: string;
  target_type: string | null;
  target_id: number | null;
}

/** "switch-3 down: 20 monitors affected", then one line per affected monitor. */
export function groupedMessage(title: string, body: string, affected: readonly AffectedMonitor[]): { title: string; body: string } {
  if (affected.length === 0) return { title, body };
  const n = affected.length;
  const lines = affected.map((a) => `- ${a.title}`);
  return {
    title: `${title}: ${n} ${n === 1 ? "monitor" : "monitors"} affected`,
    body: `${body}\n\nAlso down because of it (${n}):\n${lines.join("\n")}`,
  };
}
