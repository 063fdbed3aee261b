// Drift between two scans of the same ground (issue 13), reported when a job completes, in the finish
// verb's transaction: the job's results against those of the previous completed job of the same profile
// (or, without a profile, of the same targets from the same place). Three kinds:
// - missing:     a host matched to a known node before is not seen now (neither at its address nor matched
//                elsewhere), though this run scanned its address;
// - new_port:    a matched host has an open port the previous scan probed and did not see open;
// - mac_changed: the same address answers with another MAC.
// Each drift is a job log line (WARNING, phase drift) and an event on `discovery`; alerts go to the
// notification routes (kind discovery.drift.<kind>), one per drift up to MAX_ALERTS, then one summary.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { parseTargets } from "../../../domain/discovery/targets.ts";
import { enqueueAlert } from "../../notifications/enqueue-alert.ts";
import type { VerbScope } from "../../verb.ts";

export interface Drift {
  kind: "missing" | "new_port" | "mac_changed";
  ip_address: string;
  entity_type: string | null;
  entity_id: number | null;
  detail: Record<string, unknown>;
}

const MAX_ALERTS = 20;
const MAX_EVENTS = 200;

interface JobRef {
  id: number;
  profile_id: number | null;
  scan_agent_id: number | null;
  targets: string[];
  exclude: string[];
}

async function previousJob(s: VerbScope, job: JobRef): Promise<number | null> {
  const sameGround =
    job.profile_id !== null
      ? sql`profile_id = ${job.profile_id}`
      : sql`profile_id is null and targets = ${JSON.stringify(job.targets)}::jsonb and scan_agent_id is not distinct from ${job.scan_agent_id}`;
  const [prev] = await queryRows<{ id: number }>(
    s.tx,
    sql`
    select id from scan_jobs where status = 'completed' and id < ${job.id} and ${sameGround} order by id desc limit 1`,
  );
  return prev?.id ?? null;
}

/** The drifts between the results of `jobId` and those of `prevId`, in one statement. */
export async function findDrifts(s: VerbScope, jobId: number, prevId: number): Promise<Drift[]> {
  return queryRows<Drift>(
    s.tx,
    sql`
    with cur as (select * from scan_results where scan_job_id = ${jobId}),
    prev as (select * from scan_results where scan_job_id = ${prevId}),
    added as (
      select c.ip_address, c.matched_entity_type, c.matched_entity_id,
        (select jsonb_agg(np order by (np->>'port')::int) from jsonb_array_elements(c.open_ports) np
          where not exists (select 1 from jsonb_array_elements(p.open_ports) op
            where op->>'port' = np->>'port' and coalesce(op->>'protocol', 'tcp') = coalesce(np->>'protocol', 'tcp'))
            -- A port the previous scan did not probe is no news (its port list was another).
            and (jsonb_array_length(pj.tcp_ports) = 0 or pj.tcp_ports @> jsonb_build_array((np->>'port')::int))) as ports
      from cur c join prev p on p.ip_address = c.ip_address, (select tcp_ports from scan_jobs where id = ${prevId}) pj
      where c.matched_entity_id is not null
    )
    select 'missing' as kind, p.ip_address, p.matched_entity_type as entity_type, p.matched_entity_id as entity_id,
      jsonb_build_object('previous_job_id', ${prevId}::int, 'hostname', p.hostname, 'mac_address', p.mac_address) as detail
    from prev p
    where p.matched_entity_id is not null
      and not exists (select 1 from cur c where c.ip_address = p.ip_address)
      and not exists (select 1 from cur c where c.matched_entity_type = p.matched_entity_type and c.matched_entity_id = p.matched_entity_id)
    union all
    select 'new_port', a.ip_address, a.matched_entity_type, a.matched_entity_id, jsonb_build_object('previous_job_id', ${prevId}::int, 'ports', a.ports)
    from added a where a.ports is not null
    union all
    select 'mac_changed', c.ip_address, coalesce(c.matched_entity_type, p.matched_entity_type), coalesce(c.matched_entity_id, p.matched_entity_id),
      jsonb_build_object('previous_job_id', ${prevId}::int, 'previous_mac', p.mac_address, 'mac_address', c.mac_address)
    from cur c join prev p on p.ip_address = c.ip_address
    where c.mac_address is not null and p.mac_address is not null and c.mac_address <> p.mac_address
    order by 1, 2`,
  );
}

function describe(d: Drift, jobId: number): string {
  const what = d.entity_id === null ? "" : ` (${d.entity_type} ${d.entity_id})`;
  if (d.kind === "missing") return `Known host ${d.ip_address}${what} was not seen by scan ${jobId}`;
  if (d.kind === "new_port") {
    const ports = (d.detail.ports as { port: number; protocol?: string }[]).map((p) => `${p.port}/${p.protocol ?? "tcp"}`).join(", ");
    return `New open port${ports.includes(",") ? "s" : ""} ${ports} on ${d.ip_address}${what}`;
  }
  return `MAC of ${d.ip_address}${what} changed from ${String(d.detail.previous_mac)} to ${String(d.detail.mac_address)}`;
}

export async function reportDrift(s: VerbScope, jobId: number): Promise<void> {
  const [job] = await queryRows<JobRef>(
    s.tx,
    sql`select id, profile_id, scan_agent_id, targets, exclude from scan_jobs where id = ${jobId}`,
  );
  if (!job || (job.profile_id === null && job.targets.length === 0)) return;
  const prevId = await previousJob(s, job);
  if (prevId === null) return;
  const scanned = parseTargets({ targets: job.targets, exclude: job.exclude, allowed: ["0.0.0.0/0"], cap: Number.MAX_SAFE_INTEGER });
  // A host outside what this run scanned (the profile's targets changed since) is not missing.
  const drifts = (await findDrifts(s, jobId, prevId)).filter(
    (d) => d.kind !== "missing" || !scanned.ok || scanned.value.contains(d.ip_address),
  );
  if (drifts.length === 0) return;
  const lines = drifts.map((d) => ({
    message: describe(d, jobId),
    details: { drift: d.kind, ip_address: d.ip_address, entity_type: d.entity_type, entity_id: d.entity_id, ...d.detail },
  }));
  await s.tx.execute(sql`
    insert into scan_logs (scan_job_id, timestamp, level, phase, message, details, created_at)
    select ${jobId}, ${s.now.toISOString()}::timestamptz, 'WARNING', 'drift', l.message, l.details, ${s.now.toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) as l(message text, details jsonb)`);
  for (const [i, d] of drifts.slice(0, MAX_EVENTS).entries())
    s.emit("discovery", {
      type: "drift",
      job_id: jobId,
      previous_job_id: prevId,
      kind: d.kind,
      ip_address: d.ip_address,
      entity_type: d.entity_type,
      entity_id: d.entity_id,
      message: lines[i]!.message,
    });
  for (const [i, d] of drifts.slice(0, MAX_ALERTS).entries()) {
    await enqueueAlert(s, {
      kind: `discovery.drift.${d.kind}`,
      severity: "warning",
      monitor_id: null,
      target_type: d.entity_type,
      target_id: d.entity_id,
      title: lines[i]!.message,
      body: `${lines[i]!.message} (compared with scan ${prevId}).`,
      detail: { job_id: jobId, ...lines[i]!.details },
      occurred_at: s.now,
    });
  }
  if (drifts.length > MAX_ALERTS) {
    const rest = drifts.length - MAX_ALERTS;
    await enqueueAlert(s, {
      kind: "discovery.drift.summary",
      severity: "warning",
      monitor_id: null,
      target_type: null,
      target_id: null,
      title: `Scan ${jobId}: ${rest} more drift${rest === 1 ? "" : "s"}`,
      body: `Scan ${jobId} found ${drifts.length} drifts against scan ${prevId}; see the job's log (phase drift).`,
      detail: { job_id: jobId, previous_job_id: prevId, total: drifts.length },
      occurred_at: s.now,
    });
  }
}
