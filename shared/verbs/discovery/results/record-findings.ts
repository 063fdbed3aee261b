// Records what a scan found (the sidecar's engine, nmap, an agent's discovery.finding) as scan_results of
// its job, each matched against the inventory in the same statement: by MAC (hardware), then by address
// (hardware, then compute units), then by hostname (hardware, then compute units; a FQDN also matches its
// first label). A match whose other facts differ (the MAC's node has another address, the address's node
// another MAC) is a conflict listing them. One INSERT ... SELECT for the whole batch: a finding costs a few
// index probes, never a round trip, so 1,000 findings against 100,000 nodes stay well under a second. A
// host reported again within the job updates its result instead of adding a second one.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { parseHost } from "../../../domain/cidr-math.ts";
import type { HostFinding, OpenPort } from "../../../domain/discovery/finding.ts";
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
  const hex = mac
    .trim()
    .replace(/[\s:.-]/g, "")
    .toLowerCase();
  return /^[0-9a-f]{12}$/.test(hex) ? hex.match(/../g)!.join(":") : null;
}

/** Text a source gave, trimmed and cut to `max`; empty is null. */
const text = (value: string | null | undefined, max: number): string | null =>
  typeof value === "string" ? value.trim().slice(0, max) || null : null;
const num = (value: number | null | undefined): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

const MAX_PORTS = 1024;

/** Open ports as stored: valid port numbers once each (per protocol), texts bounded. */
function portsOf(ports: OpenPort[] | null | undefined): OpenPort[] {
  const seen = new Map<string, OpenPort>();
  for (const p of Array.isArray(ports) ? ports : []) {
    if (!Number.isInteger(p?.port) || p.port < 1 || p.port > 65535) continue;
    const protocol = text(p.protocol, 10) ?? "tcp";
    const tls = p.tls
      ? {
          subject: text(p.tls.subject, 500),
          issuer: text(p.tls.issuer, 500),
          not_after: text(p.tls.not_after, 64),
          san: (p.tls.san ?? []).slice(0, 50).map((x) => String(x).slice(0, 255)),
        }
      : null;
    const facts = {
      service: text(p.service, 100),
      banner: text(p.banner, 1000),
      http_title: text(p.http_title, 500),
      server: text(p.server, 200),
      tls,
    };
    // Only the facts a source gave: most ports carry none, and the stored arrays stay small.
    seen.set(`${p.port}/${protocol}`, {
      port: p.port,
      protocol,
      ...Object.fromEntries(Object.entries(facts).filter(([, x]) => x !== null)),
    });
    if (seen.size >= MAX_PORTS) break;
  }
  return [...seen.values()].sort((x, y) => x.port - y.port);
}

/**
 * The batch as jsonb rows: findings come from the engine and from agents alike, so what is not an IP
 * address is dropped and every text is bounded; a host reported twice in one batch keeps its last report.
 */
function rowsOf(findings: HostFinding[]) {
  const byIp = new Map<string, Record<string, unknown>>();
  for (const f of findings) {
    const ip = typeof f.ip_address === "string" ? f.ip_address.trim() : "";
    if (!ip || ip.includes("/") || !parseHost(ip)) continue;
    const accuracy = num(f.os_accuracy);
    byIp.set(ip, {
      ip_address: ip,
      mac_address: normaliseMac(f.mac_address),
      hostname: text(f.hostname, 255),
      open_ports: portsOf(f.open_ports),
      vendor: text(f.vendor, 200),
      model: text(f.model, 200),
      serial_number: text(f.serial_number, 200),
      os_family: text(f.os_family, 100),
      os_vendor: text(f.os_vendor, 100),
      os_accuracy: accuracy == null ? null : Math.max(0, Math.min(100, Math.round(accuracy))),
      snmp_sys_name: text(f.snmp_sys_name, 255),
      snmp_sys_descr: text(f.snmp_sys_descr, 2000),
      rtt_ms: num(f.rtt_ms),
      sources: [...new Set((Array.isArray(f.sources) ? f.sources : []).map((x) => String(x).slice(0, 32)))].slice(0, 20),
    });
  }
  return [...byIp.values()];
}

/** Counts of one batch: its rows' states, and how the job's counters move (a re-reported host moves between states). */
interface BatchCounts extends RecordFindingsOutcome {
  /** The first 100 addresses recorded, for the stream (a NOTIFY payload must stay under 8,000 bytes). */
  addresses: string[];
  inserted: number;
  d_new: number;
  d_matched: number;
  d_conflict: number;
}

/**
 * Records the findings as results of `jobId`, matched against the inventory; the caller's transaction.
 * A host the job already reported (an agent resending, a second source) updates its pending result: the
 * new facts win, open ports and sources are united, and it is matched again. A reviewed one is left alone.
 */
export async function insertFindings(s: VerbScope, jobId: number, agentId: number | null, findings: HostFinding[]): Promise<BatchCounts> {
  const rows = rowsOf(findings);
  if (rows.length === 0)
    return { addresses: [], recorded: 0, new: 0, matched: 0, conflict: 0, inserted: 0, d_new: 0, d_matched: 0, d_conflict: 0 };
  const now = s.now.toISOString();
  const [counts] = await queryRows<BatchCounts>(
    s.tx,
    sql`
    with raw as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(ip_address text, mac_address text, hostname text, open_ports jsonb,
        vendor text, model text, serial_number text, os_family text, os_vendor text, os_accuracy int, snmp_sys_name text, snmp_sys_descr text, rtt_ms real, sources jsonb)
    ),
    old as (
      select r.* from scan_results r
      where r.id in (select min(id) from scan_results where scan_job_id = ${jobId} and ip_address in (select ip_address from raw) group by ip_address)
      for update
    ),
    f as (
      select raw.ip_address, coalesce(raw.mac_address, old.mac_address) as mac_address, coalesce(raw.hostname, old.hostname) as hostname,
        case when old.id is null then raw.open_ports else (
          select coalesce(jsonb_agg(p order by (p->>'port')::int), '[]'::jsonb) from (
            select distinct on (p->>'port', coalesce(p->>'protocol', 'tcp')) p from (
              select p, 0 as pri from jsonb_array_elements(raw.open_ports) p union all select p, 1 from jsonb_array_elements(old.open_ports) p
            ) both_ports order by p->>'port', coalesce(p->>'protocol', 'tcp'), pri
          ) merged_ports) end as open_ports,
        coalesce(raw.vendor, old.vendor) as vendor, coalesce(raw.model, old.model) as model, coalesce(raw.serial_number, old.serial_number) as serial_number,
        coalesce(raw.os_family, old.os_family) as os_family, coalesce(raw.os_vendor, old.os_vendor) as os_vendor,
        coalesce(raw.os_accuracy, old.os_accuracy) as os_accuracy, coalesce(raw.snmp_sys_name, old.snmp_sys_name) as snmp_sys_name,
        coalesce(raw.snmp_sys_descr, old.snmp_sys_descr) as snmp_sys_descr, coalesce(raw.rtt_ms, old.rtt_ms) as rtt_ms,
        (select coalesce(jsonb_agg(distinct src), '[]'::jsonb) from (
          select jsonb_array_elements_text(coalesce(raw.sources, '[]'::jsonb)) as src union select jsonb_array_elements_text(coalesce(old.sources, '[]'::jsonb))
        ) all_sources) as sources,
        old.id as old_id, old.state as old_state
      from raw left join old on old.ip_address = raw.ip_address
      where old.id is null or old.merge_status = 'pending'
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
      select m.*, conflicts,
        case when m.entity_id is null then 'new' when jsonb_array_length(conflicts) > 0 then 'conflict' else 'matched' end as state
      from m, lateral (select coalesce((
        select jsonb_agg(d) from (
          select jsonb_build_object('field', 'ip_address', 'discovered', m.ip_address, 'existing', m.e_ip, 'entity_type', m.entity_type, 'entity_id', m.entity_id) as d
            where m.entity_id is not null and m.e_ip is not null and m.e_ip <> '' and m.e_ip <> m.ip_address
          union all
          select jsonb_build_object('field', 'mac_address', 'discovered', m.mac_address, 'existing', m.e_mac, 'entity_type', m.entity_type, 'entity_id', m.entity_id)
            where m.entity_id is not null and m.e_mac is not null and m.e_mac <> '' and m.mac_address is not null and m.e_mac <> m.mac_address
        ) ds), '[]'::jsonb) as conflicts) cf
    ),
    ins as (
      insert into scan_results (scan_job_id, ip_address, mac_address, hostname, open_ports, vendor, model, serial_number, os_family, os_vendor, os_accuracy,
        snmp_sys_name, snmp_sys_descr, rtt_ms, sources, state, conflicts, matched_entity_type, matched_entity_id, matched_by, discovery_agent_id, created_at)
      select ${jobId}, c.ip_address, c.mac_address, c.hostname, coalesce(c.open_ports, '[]'::jsonb), coalesce(c.vendor, c.oui_vendor), c.model, c.serial_number, c.os_family, c.os_vendor,
        c.os_accuracy, c.snmp_sys_name, c.snmp_sys_descr, c.rtt_ms, c.sources, c.state, c.conflicts, c.entity_type, c.entity_id, c.matched_by,
        ${agentId}, ${now}::timestamptz
      from c where c.old_id is null
      returning state, ip_address
    ),
    upd as (
      update scan_results r set mac_address = c.mac_address, hostname = c.hostname, open_ports = c.open_ports, vendor = coalesce(c.vendor, c.oui_vendor),
        model = c.model, serial_number = c.serial_number, os_family = c.os_family, os_vendor = c.os_vendor, os_accuracy = c.os_accuracy, snmp_sys_name = c.snmp_sys_name, snmp_sys_descr = c.snmp_sys_descr,
        rtt_ms = c.rtt_ms, sources = c.sources, state = c.state, conflicts = c.conflicts, matched_entity_type = c.entity_type,
        matched_entity_id = c.entity_id, matched_by = c.matched_by, discovery_agent_id = coalesce(r.discovery_agent_id, ${agentId})
      from c where r.id = c.old_id
      returning c.old_state, r.state, r.ip_address
    ),
    states as (select state, null::text as old_state, ip_address from ins union all select state, old_state, ip_address from upd)
    select count(*)::int as recorded, coalesce((array_agg(ip_address order by ip_address))[1:100], '{}') as addresses,
      (count(*) filter (where state = 'new'))::int as new, (count(*) filter (where state = 'matched'))::int as matched,
      (count(*) filter (where state = 'conflict'))::int as conflict, (count(*) filter (where old_state is null))::int as inserted,
      ((count(*) filter (where state = 'new')) - (count(*) filter (where old_state = 'new')))::int as d_new,
      ((count(*) filter (where state = 'matched')) - (count(*) filter (where old_state = 'matched')))::int as d_matched,
      ((count(*) filter (where state = 'conflict')) - (count(*) filter (where old_state = 'conflict')))::int as d_conflict
    from states`,
  );
  return counts!;
}

export const recordFindings = defineVerb(
  { scope: WRITE_DISCOVERY },
  async (s, input: RecordFindingsInput): Promise<RecordFindingsOutcome> => {
    // Locks the job row: concurrent batches of one job add to its counters one after the other.
    const [job] = await queryRows<{ id: number }>(s.tx, sql`select id from scan_jobs where id = ${input.job_id} for update`);
    if (!job) throw new ApiError("RESOURCE_NOT_FOUND", `Scan job not found: there is no scan job ${input.job_id}.`);
    const c = await insertFindings(s, input.job_id, input.agent_id ?? null, input.findings);
    const out = { recorded: c.recorded, new: c.new, matched: c.matched, conflict: c.conflict };
    if (c.recorded === 0) return out;
    await s.tx.execute(sql`
    update scan_jobs set hosts_found = hosts_found + ${c.inserted}, hosts_new = hosts_new + ${c.d_new},
      hosts_updated = hosts_updated + ${c.d_matched}, hosts_conflict = hosts_conflict + ${c.d_conflict}, updated_at = ${s.now.toISOString()}::timestamptz
    where id = ${input.job_id}`);
    s.emit("discovery", { type: "results", job_id: input.job_id, count: c.recorded, ...out, addresses: c.addresses });
    return out;
  },
);
