// Records what a scan found (the sidecar's engine, nmap, an agent's discovery.finding) as scan_results of
// its job, each matched against the inventory in the same statement: by MAC (hardware), then by address
// (hardware, then compute units), then by hostname (hardware, then compute units; a FQDN also matches its
// first label). A match whose other facts differ (the MAC's node has another address, the address's node
// another MAC) is a conflict listing them. One INSERT ... SELECT for the whole batch: a finding costs a few
// index probes, never a round trip, so 1,000 findings against 100,000 nodes stay well under a second.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import type { HostFinding } from "../../../domain/discovery/finding.ts";
import { ApiError } from "../../../errors.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";

export interface RecordFindingsInput {
  job_id: number;
  agent_id?: number | null;
  findings: HostFinding[];
}

export interface RecordFindingsOutcome {
  recorded: number;
  new: number;
  matched: number;
  conflict: number;
}

/** Lower-case colon-separated, or null for anything that is not six octets. */
export function normaliseMac(mac: string | null | undefined): string | null {
  if (!mac) return null;
  const hex = mac.trim().replace(/[\s:.-]/g, "").toLowerCase();
  return /^[0-9a-f]{12}$/.test(hex) ? hex.match(/../g)!.join(":") : null;
}

/** The batch as jsonb rows; a host reported twice in one batch keeps its last report. */
function rowsOf(findings: HostFinding[]) {
  const byIp = new Map<string, Record<string, unknown>>();
  for (const f of findings) {
    byIp.set(f.ip_address, {
      ip_address: f.ip_address,
      mac_address: normaliseMac(f.mac_address),
      hostname: f.hostname?.trim() || null,
      open_ports: f.open_ports ?? [],
      vendor: f.vendor?.trim() || null,
      os_family: f.os_family,
      os_vendor: f.os_vendor,
      os_accuracy: f.os_accuracy == null ? null : Math.round(f.os_accuracy),
      snmp_sys_name: f.snmp_sys_name,
      snmp_sys_descr: f.snmp_sys_descr,
      rtt_ms: f.rtt_ms,
      sources: [...new Set(f.sources ?? [])],
    });
  }
  return [...byIp.values()];
}

/** Inserts the findings as results of `jobId` and answers how each was matched; the caller's transaction. */
export async function insertFindings(s: VerbScope, jobId: number, agentId: number | null, findings: HostFinding[]): Promise<RecordFindingsOutcome> {
  const rows = rowsOf(findings);
  if (rows.length === 0) return { recorded: 0, new: 0, matched: 0, conflict: 0 };
  const [counts] = await queryRows<{ recorded: number; new: number; matched: number; conflict: number }>(s.tx, sql`
    with f as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(ip_address text, mac_address text, hostname text, open_ports jsonb,
        vendor text, os_family text, os_vendor text, os_accuracy int, snmp_sys_name text, snmp_sys_descr text, rtt_ms real, sources jsonb)
    ),
    m as (
      select f.*, e.entity_type, e.entity_id, e.matched_by, e.e_ip, e.e_mac, o.vendor as oui_vendor
      from f
      left join lateral (
        select * from (
          (select 'hardware' as entity_type, h.id as entity_id, 'mac' as matched_by, h.ip_address as e_ip, lower(h.mac_address) as e_mac, 1 as rank
             from hardware h where f.mac_address is not null and lower(h.mac_address) = f.mac_address order by h.id limit 1)
          union all
          (select 'hardware', h.id, 'ip', h.ip_address, lower(h.mac_address), 2 from hardware h where h.ip_address = f.ip_address order by h.id limit 1)
          union all
          (select 'compute_unit', c.id, 'ip', c.ip_address, null, 3 from compute_units c where c.ip_address = f.ip_address order by c.id limit 1)
          union all
          (select 'hardware', h.id, 'hostname', h.ip_address, lower(h.mac_address), 4 from hardware h
             where f.hostname is not null and lower(h.name) in (lower(f.hostname), lower(split_part(f.hostname, '.', 1))) order by h.id limit 1)
          union all
          (select 'compute_unit', c.id, 'hostname', c.ip_address, null, 5 from compute_units c
             where f.hostname is not null and lower(c.name) in (lower(f.hostname), lower(split_part(f.hostname, '.', 1))) order by c.id limit 1)
        ) candidates order by rank limit 1
      ) e on true
      left join kb_oui o on f.mac_address is not null and o.prefix = upper(substr(f.mac_address, 1, 8))
    ),
    c as (
      select m.*, coalesce((
        select jsonb_agg(d) from (
          select jsonb_build_object('field', 'ip_address', 'discovered', m.ip_address, 'existing', m.e_ip, 'entity_type', m.entity_type, 'entity_id', m.entity_id) as d
            where m.entity_id is not null and m.e_ip is not null and m.e_ip <> '' and m.e_ip <> m.ip_address
          union all
          select jsonb_build_object('field', 'mac_address', 'discovered', m.mac_address, 'existing', m.e_mac, 'entity_type', m.entity_type, 'entity_id', m.entity_id)
            where m.entity_id is not null and m.e_mac is not null and m.e_mac <> '' and m.mac_address is not null and m.e_mac <> m.mac_address
        ) ds), '[]'::jsonb) as conflicts
      from m
    ),
    ins as (
      insert into scan_results (scan_job_id, ip_address, mac_address, hostname, open_ports, vendor, os_family, os_vendor, os_accuracy,
        snmp_sys_name, snmp_sys_descr, rtt_ms, sources, state, conflicts, matched_entity_type, matched_entity_id, matched_by, discovery_agent_id, created_at)
      select ${jobId}, c.ip_address, c.mac_address, c.hostname, coalesce(c.open_ports, '[]'::jsonb), coalesce(c.vendor, c.oui_vendor), c.os_family, c.os_vendor,
        c.os_accuracy, c.snmp_sys_name, c.snmp_sys_descr, c.rtt_ms, coalesce(c.sources, '[]'::jsonb),
        case when c.entity_id is null then 'new' when jsonb_array_length(c.conflicts) > 0 then 'conflict' else 'matched' end,
        c.conflicts, c.entity_type, c.entity_id, c.matched_by, ${agentId}, ${s.now.toISOString()}::timestamptz
      from c
      returning state
    )
    select count(*)::int as recorded, (count(*) filter (where state = 'new'))::int as new,
      (count(*) filter (where state = 'matched'))::int as matched, (count(*) filter (where state = 'conflict'))::int as conflict
    from ins`);
  return counts!;
}

export const recordFindings = defineVerb({ scope: WRITE_DISCOVERY }, async (s, input: RecordFindingsInput): Promise<RecordFindingsOutcome> => {
  // Locks the job row: concurrent batches of one job add to its counters one after the other.
  const [job] = await queryRows<{ id: number }>(s.tx, sql`select id from scan_jobs where id = ${input.job_id} for update`);
  if (!job) throw new ApiError("RESOURCE_NOT_FOUND", "Scan job not found");
  const out = await insertFindings(s, input.job_id, input.agent_id ?? null, input.findings);
  if (out.recorded === 0) return out;
  await s.tx.execute(sql`
    update scan_jobs set hosts_found = hosts_found + ${out.recorded}, hosts_new = hosts_new + ${out.new},
      hosts_updated = hosts_updated + ${out.matched}, hosts_conflict = hosts_conflict + ${out.conflict}, updated_at = ${s.now.toISOString()}::timestamptz
    where id = ${input.job_id}`);
  s.emit("discovery", { type: "results", job_id: input.job_id, count: out.recorded, new: out.new, matched: out.matched, conflict: out.conflict });
  return out;
});
