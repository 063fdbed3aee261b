// Applies reported reachability (pushed samples, SNMP polls and the node's monitors alike) to a hardware
// node: in ts order, each change of status newer than the node's status_changed_at updates hardware.status and appends a
// status_history row dated at the sample (flap detection counts these transitions later).
import { eq } from "drizzle-orm";
import { hardware, statusHistory } from "../../db/schema/index.ts";
import type { VerbScope } from "../verb.ts";
import type { HardwareStatusRow } from "./hardware-row.ts";

export interface StatusSample {
  ts: Date;
  /** Pushes and polls report up or down; a node's monitors may also say degraded or maintenance. */
  status: "up" | "down" | "degraded" | "maintenance";
}

export interface StatusOutcome {
  status: string;
  changes: number;
}

/** `node` must have been read FOR UPDATE in this transaction; `origin` names the reporter (push, snmp). */
export async function applyStatusSamples(
  s: VerbScope,
  node: HardwareStatusRow,
  samples: readonly StatusSample[],
  origin: string,
): Promise<StatusOutcome> {
  let status = node.status;
  let changedAt = node.status_changed_at;
  const rows: (typeof statusHistory.$inferInsert)[] = [];
  const ordered = [...samples].sort((a, b) => a.ts.getTime() - b.ts.getTime());
  for (const sample of ordered) {
    if (sample.status === status) continue;
    if (changedAt && sample.ts.getTime() <= changedAt.getTime()) continue;
    rows.push({
      entity_type: "hardware",
      entity_id: node.id,
      status: sample.status,
      previous_status: status,
      severity: sample.status === "down" ? "warning" : "info",
      message: `Hardware node ${node.name} is ${sample.status.toUpperCase()} (reported by ${origin}).`,
      created_at: sample.ts,
    });
    status = sample.status;
    changedAt = sample.ts;
  }
  if (rows.length === 0) return { status, changes: 0 };
  await s.tx.insert(statusHistory).values(rows);
  await s.tx.update(hardware).set({ status, status_changed_at: changedAt }).where(eq(hardware.id, node.id));
  s.emit("inventory", { entity: "hardware", action: "status", id: node.id, status });
  return { status, changes: rows.length };
}
