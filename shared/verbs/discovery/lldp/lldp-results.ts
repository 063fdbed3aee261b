// GET /discovery/lldp-jobs/{job_id}/results: the neighbours an LLDP job read, with the source node and
// the inventory node each matched (is_new_stub when none did: applying it creates a stub).
import { and, asc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../../db/database.ts";
import { hardware, lldpNeighbors, scanJobs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { iso } from "../../resources/present.ts";
import { defineRead } from "../../verb.ts";
import { READ_DISCOVERY } from "../scopes.ts";

/** The LLDP job `id`, or 404 "LLDP job <id> was not found." (also for a job of another scan type). */
export async function requireLldpJob(db: Db, id: number) {
  const [job] = await db
    .select({ id: scanJobs.id, status: scanJobs.status })
    .from(scanJobs)
    .where(and(eq(scanJobs.id, id), sql`${scanJobs.scan_types} @> '["lldp"]'::jsonb`));
  if (!job) throw ApiError.notFound("LLDP job", id);
  return job;
}

export const lldpResults = defineRead({ scope: READ_DISCOVERY }, async (ctx, { job_id }: { job_id: number }) => {
  const job = await requireLldpJob(ctx.db, job_id);
  const source = alias(hardware, "source_hw");
  const remote = alias(hardware, "remote_hw");
  const rows = await ctx.db
    .select({ n: lldpNeighbors, source_name: source.name, remote_name: remote.name })
    .from(lldpNeighbors)
    .leftJoin(source, eq(source.id, lldpNeighbors.source_hardware_id))
    .leftJoin(remote, eq(remote.id, lldpNeighbors.remote_hardware_id))
    .where(eq(lldpNeighbors.scan_job_id, job_id))
    .orderBy(asc(lldpNeighbors.source_scan_result_id), asc(lldpNeighbors.neighbor_index));
  return {
    job_id,
    status: job.status,
    neighbors: rows.map(({ n, source_name, remote_name }) => ({
      id: n.id,
      source_scan_result_id: n.source_scan_result_id,
      neighbor_index: n.neighbor_index,
      source_hardware_id: n.source_hardware_id,
      source_hardware_name: source_name ?? null,
      local_port_desc: n.local_port_desc,
      remote_chassis_id: n.remote_chassis_id,
      remote_port_desc: n.remote_port_desc,
      remote_sys_name: n.remote_sys_name,
      remote_mgmt_ip: n.remote_mgmt_ip,
      remote_caps: n.remote_caps,
      remote_hardware_id: n.remote_hardware_id,
      remote_hardware_name: remote_name ?? null,
      is_new_stub: n.remote_hardware_id == null,
      applied_at: iso(n.applied_at),
    })),
  };
});
