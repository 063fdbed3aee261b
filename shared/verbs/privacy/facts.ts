// What the analysis knows per hardware node, read in one statement: the node's inventory fields, the
// newest scan result of a port-probing scan that saw it (matched to it, or at its address) and the newest
// result of a scan that asked SNMP with the default community "public". Rejected results do not count.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import type { OpenPortRow } from "../../db/schema/discovery.ts";
import type { DeviceFacts } from "./rules/types.ts";

/** Scan types that probe ports; an agent's scan reports its open ports too. */
const PORT_SCAN_TYPES = ["tcp", "nmap", "banner", "http", "deep_dive", "agent_connect"];

export interface DeviceRow extends DeviceFacts {
  vendor_catalog_key: string | null;
  seen_at: string | null;
  scan_job_id: number | null;
}

interface Row extends Omit<DeviceRow, "ports" | "seen_at"> {
  ports: OpenPortRow[] | null;
  seen_at: Date | string | null;
}

export async function readDeviceFacts(db: Db, hardwareId?: number): Promise<DeviceRow[]> {
  const only = hardwareId === undefined ? sql`true` : sql`h.id = ${hardwareId}`;
  const rows = await queryRows<Row>(
    db,
    sql`
    with links as (
      select h.id as hardware_id, r.id as result_id, r.scan_job_id from hardware h
        join scan_results r on r.matched_entity_type = 'hardware' and r.matched_entity_id = h.id
        where r.merge_status <> 'rejected' and ${only}
      union
      select h.id, r.id, r.scan_job_id from hardware h
        join scan_results r on r.ip_address = split_part(h.ip_address, '/', 1)
        where r.merge_status <> 'rejected' and ${only}
    ),
    typed as (
      select l.hardware_id, l.result_id,
        (j.scan_agent_id is not null or j.scan_types ?| ${sql.raw(`array[${PORT_SCAN_TYPES.map((t) => `'${t}'`).join(",")}]`)}) as ports_probed,
        (j.scan_types ? 'snmp' and j.scan_agent_id is null and j.snmp_community is null and p.snmp_community is null) as public_asked
      from links l join scan_jobs j on j.id = l.scan_job_id left join discovery_profiles p on p.id = j.profile_id
    ),
    port_pick as (select distinct on (hardware_id) hardware_id, result_id from typed where ports_probed order by hardware_id, result_id desc),
    snmp_pick as (select distinct on (hardware_id) hardware_id, result_id from typed where public_asked order by hardware_id, result_id desc)
    select h.id as hardware_id, h.name, h.role, h.vendor, h.model, h.ip_address, h.vendor_catalog_key,
      pr.open_ports as ports, pr.created_at as seen_at, pr.scan_job_id, pr.id is not null as scanned,
      case when sr.id is null then null else sr.sources ? 'snmp' end as snmp_public, sr.snmp_sys_descr
    from hardware h
      left join port_pick pp on pp.hardware_id = h.id left join scan_results pr on pr.id = pp.result_id
      left join snmp_pick sp on sp.hardware_id = h.id left join scan_results sr on sr.id = sp.result_id
    where ${only}
    order by h.id`,
  );
  return rows.map((r) => ({ ...r, ports: r.ports ?? [], seen_at: r.seen_at === null ? null : new Date(r.seen_at).toISOString() }));
}
