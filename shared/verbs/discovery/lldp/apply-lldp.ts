// POST /discovery/lldp-jobs/{job_id}/apply: the chosen neighbours become hardware connections (the
// inventory's topology edges, connection_type "ethernet", the ports in the notes). A neighbour no node
// matched first becomes a stub node (role from its LLDP capabilities, its management address and
// chassis MAC). A link already recorded either way round is not doubled. One transaction, audited;
// topology and inventory events for what was created. A pair not in the job: 422 naming it, nothing written.
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { hardware, hardwareConnections, lldpNeighbors } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { stubRole } from "./lldp-neighbor.ts";
import { requireLldpJob } from "./lldp-results.ts";

export interface LldpApplyInput {
  job_id: number;
  connections: { source_scan_result_id: number; neighbor_index: number }[];
}

const MAC = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i;

export const applyLldp = defineVerb({ scope: WRITE_DISCOVERY }, async (s, { job_id, connections }: LldpApplyInput) => {
  await requireLldpJob(s.tx, job_id);
  const rows = await s.tx
    .select()
    .from(lldpNeighbors)
    .where(
      and(
        eq(lldpNeighbors.scan_job_id, job_id),
        inArray(lldpNeighbors.source_scan_result_id, [...new Set(connections.map((c) => c.source_scan_result_id))]),
      ),
    )
    .for("update");
  const byKey = new Map(rows.map((r) => [`${r.source_scan_result_id}:${r.neighbor_index}`, r]));
  const missing = connections.map((c, i) => [c, i] as const).filter(([c]) => !byKey.has(`${c.source_scan_result_id}:${c.neighbor_index}`));
  if (missing.length > 0)
    throw ApiError.validation(
      missing.map(([c, i]) => ({
        loc: ["body", "connections", i],
        msg: `Job ${job_id} has no neighbour ${c.neighbor_index} of scan result ${c.source_scan_result_id}.`,
        type: "not_found",
      })),
    );

  const created: { edges: number[]; stubs: number[] } = { edges: [], stubs: [] };
  let existing = 0;
  const done = new Set<number>();
  for (const c of connections) {
    const n = byKey.get(`${c.source_scan_result_id}:${c.neighbor_index}`)!;
    if (done.has(n.id) || n.source_hardware_id == null) continue;
    done.add(n.id);
    let remoteId = n.remote_hardware_id;
    if (remoteId == null) {
      const mac = n.remote_chassis_id && MAC.test(n.remote_chassis_id) ? n.remote_chassis_id.toLowerCase() : null;
      const [stub] = await s.tx
        .insert(hardware)
        .values({
          name: n.remote_sys_name ?? n.remote_chassis_id ?? `lldp-neighbor-${n.id}`,
          role: stubRole(n.remote_caps),
          ip_address: n.remote_mgmt_ip,
          mac_address: mac,
          notes: `Stub from LLDP job ${job_id}: neighbour of hardware ${n.source_hardware_id} on ${n.local_port_desc ?? "?"}.`,
          created_at: s.now,
          updated_at: s.now,
        })
        .returning({ id: hardware.id });
      remoteId = stub!.id;
      created.stubs.push(remoteId);
      s.emit("inventory", { entity: "hardware", action: "create", id: remoteId });
      s.emit("topology", { entity: "hardware", action: "create", id: remoteId });
      // Other neighbours of this job naming the same device (by chassis) now point at the stub too.
      await s.tx
        .update(lldpNeighbors)
        .set({ remote_hardware_id: remoteId })
        .where(
          and(
            eq(lldpNeighbors.scan_job_id, job_id),
            sql`${lldpNeighbors.remote_hardware_id} is null`,
            n.remote_chassis_id ? eq(lldpNeighbors.remote_chassis_id, n.remote_chassis_id) : eq(lldpNeighbors.id, n.id),
          ),
        );
      for (const r of rows)
        if (r.remote_hardware_id == null && (r.id === n.id || (n.remote_chassis_id && r.remote_chassis_id === n.remote_chassis_id)))
          r.remote_hardware_id = remoteId;
    }
    await s.tx.update(lldpNeighbors).set({ applied_at: s.now, remote_hardware_id: remoteId }).where(eq(lldpNeighbors.id, n.id));
    if (remoteId === n.source_hardware_id) continue;
    const a = n.source_hardware_id;
    const b = remoteId;
    const [dup] = await s.tx
      .select({ id: hardwareConnections.id })
      .from(hardwareConnections)
      .where(
        and(
          eq(hardwareConnections.connection_type, "ethernet"),
          or(
            and(eq(hardwareConnections.source_hardware_id, a), eq(hardwareConnections.target_hardware_id, b)),
            and(eq(hardwareConnections.source_hardware_id, b), eq(hardwareConnections.target_hardware_id, a)),
          ),
        ),
      );
    if (dup) {
      existing++;
      continue;
    }
    const [edge] = await s.tx
      .insert(hardwareConnections)
      .values({
        source_hardware_id: a,
        target_hardware_id: b,
        connection_type: "ethernet",
        notes: `LLDP: ${n.local_port_desc ?? "?"} <-> ${n.remote_port_desc ?? "?"}`,
        created_at: s.now,
        updated_at: s.now,
      })
      .returning({ id: hardwareConnections.id });
    created.edges.push(edge!.id);
    s.emit("topology", { entity: "hardware_connection", action: "create", id: edge!.id });
  }
  s.audit({
    action: "discovery.lldp.apply",
    category: "inventory",
    entity_type: "scan_job",
    entity_id: job_id,
    diff: { connections, edges_created: created.edges, stubs_created: created.stubs, edges_existing: existing },
  });
  return { edges_created: created.edges.length, stubs_created: created.stubs.length, edges_existing: existing };
});
