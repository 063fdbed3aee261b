// What an LLDP job read, recorded in one transaction: a scan result per node that answered (the source
// of its neighbours, matched to that node) and its neighbours in lldp_neighbors, each matched to an
// inventory node by management address, then system name (also its first label: "nas01.lab" is
// "nas01"), then chassis MAC. Unmatched neighbours become stubs only when applied.
import { eq, inArray, or, sql } from "drizzle-orm";
import { hardware, lldpNeighbors, scanJobs, scanResults } from "../../../db/schema/index.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import type { LldpNodeRead } from "./lldp-neighbor.ts";

const lower = (s: string | null | undefined) => (s ? s.trim().toLowerCase() : null);
const MAC = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/;

export const recordLldpNeighbors = defineVerb(
  { scope: WRITE_DISCOVERY },
  async (s, { job_id, nodes }: { job_id: number; nodes: LldpNodeRead[] }) => {
    const answered = nodes.filter((n) => !n.error);
    const all = answered.flatMap((n) => n.neighbors);
    const ips = [...new Set(all.map((x) => x.remote_mgmt_ip).filter((x): x is string => !!x))];
    const names = [
      ...new Set(all.flatMap((x) => [lower(x.remote_sys_name), lower(x.remote_sys_name)?.split(".")[0]]).filter((x): x is string => !!x)),
    ];
    const macs = [...new Set(all.map((x) => lower(x.remote_chassis_id)).filter((x): x is string => !!x && MAC.test(x)))];
    const candidates =
      ips.length + names.length + macs.length === 0
        ? []
        : await s.tx
            .select({
              id: hardware.id,
              ip: sql<string | null>`split_part(${hardware.ip_address}, '/', 1)`,
              name: sql<string>`lower(${hardware.name})`,
              mac: sql<string | null>`lower(${hardware.mac_address})`,
            })
            .from(hardware)
            .where(
              or(
                ips.length ? inArray(sql`split_part(${hardware.ip_address}, '/', 1)`, ips) : undefined,
                names.length ? inArray(sql`lower(${hardware.name})`, names) : undefined,
                macs.length ? inArray(sql`lower(${hardware.mac_address})`, macs) : undefined,
              ),
            )
            .orderBy(hardware.id);
    const byIp = new Map<string, number>();
    const byName = new Map<string, number>();
    const byMac = new Map<string, number>();
    for (const c of candidates) {
      if (c.ip && !byIp.has(c.ip)) byIp.set(c.ip, c.id);
      if (!byName.has(c.name)) byName.set(c.name, c.id);
      if (c.mac && !byMac.has(c.mac)) byMac.set(c.mac, c.id);
    }
    const match = (x: LldpNodeRead["neighbors"][number]) => {
      const name = lower(x.remote_sys_name);
      return (
        (x.remote_mgmt_ip ? byIp.get(x.remote_mgmt_ip) : undefined) ??
        (name ? (byName.get(name) ?? byName.get(name.split(".")[0]!)) : undefined) ??
        byMac.get(lower(x.remote_chassis_id) ?? "") ??
        null
      );
    };

    let neighbors = 0;
    for (const node of answered) {
      const [result] = await s.tx
        .insert(scanResults)
        .values({
          scan_job_id: job_id,
          ip_address: node.ip_address,
          hostname: node.sys_name,
          snmp_sys_name: node.sys_name,
          sources: ["snmp", "lldp"],
          state: "matched",
          matched_entity_type: "hardware",
          matched_entity_id: node.hardware_id,
          matched_by: "lldp",
          merge_status: "accepted",
          created_at: s.now,
        })
        .returning({ id: scanResults.id });
      if (node.neighbors.length === 0) continue;
      await s.tx.insert(lldpNeighbors).values(
        node.neighbors.map((x, i) => {
          const remote = match(x);
          return {
            scan_job_id: job_id,
            source_scan_result_id: result!.id,
            source_hardware_id: node.hardware_id,
            neighbor_index: i,
            local_port_desc: x.local_port_desc,
            remote_chassis_id: x.remote_chassis_id,
            remote_port_desc: x.remote_port_desc ?? x.remote_port_id,
            remote_sys_name: x.remote_sys_name,
            remote_mgmt_ip: x.remote_mgmt_ip,
            remote_caps: x.remote_caps,
            remote_hardware_id: remote === node.hardware_id ? null : remote,
            created_at: s.now,
          };
        }),
      );
      neighbors += node.neighbors.length;
    }
    await s.tx.update(scanJobs).set({ hosts_found: answered.length, updated_at: s.now }).where(eq(scanJobs.id, job_id));
    s.emit("discovery", { type: "results", job_id, count: answered.length });
    return { nodes: answered.length, neighbors };
  },
);
