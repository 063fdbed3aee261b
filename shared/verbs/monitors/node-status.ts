// A hardware node's status follows its monitors (docs/adr/0466): after a monitor watching it changes
// state (a result, a pause, a delete), the node takes what its enabled monitors say now
// (shared/domain/monitors/node-status.ts), recorded as any reported change is (status history, the
// inventory and topology streams; telemetry/apply-status.ts). Monitors that say nothing leave it as it is.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { nodeStatusFromMonitors } from "../../domain/monitors/node-status.ts";
import { applyStatusSamples } from "../telemetry/apply-status.ts";
import type { HardwareStatusRow } from "../telemetry/hardware-row.ts";
import type { VerbScope } from "../verb.ts";

/** The monitors' say on each of `hardwareIds`, applied; answers the ids whose status changed. */
export async function followMonitors(s: VerbScope, hardwareIds: readonly number[]): Promise<number[]> {
  const sorted = [...new Set(hardwareIds)].sort((a, b) => a - b);
  if (sorted.length === 0) return [];
  // A Postgres array literal, as one text parameter.
  const ids = `{${sorted.join(",")}}`;
  // In id order, as every writer of a node's status locks it (pushes, polls, this).
  const nodes = await queryRows<HardwareStatusRow>(
    s.tx,
    sql`select id, name, status, status_changed_at from hardware where id = any(${ids}::int[]) order by id for update`,
  );
  const watched = await queryRows<{ target_id: number; status: string }>(
    s.tx,
    sql`select target_id, status from monitors where target_type = 'hardware' and target_id = any(${ids}::int[]) and enabled`,
  );
  const changed: number[] = [];
  for (const node of nodes) {
    const status = nodeStatusFromMonitors(watched.filter((m) => m.target_id === node.id).map((m) => m.status));
    if (status === null || status === node.status) continue;
    const changedAt = node.status_changed_at ? new Date(node.status_changed_at) : null;
    // Never older than the node's last change: a push dated ahead of the clock must not hide this one.
    const ts = changedAt && changedAt >= s.now ? new Date(changedAt.getTime() + 1) : s.now;
    const outcome = await applyStatusSamples(s, { ...node, status_changed_at: changedAt }, [{ ts, status }], "its monitors");
    if (outcome.changes === 0) continue;
    s.emit("topology", { entity: "hardware", action: "status", id: node.id, status });
    changed.push(node.id);
  }
  return changed;
}
