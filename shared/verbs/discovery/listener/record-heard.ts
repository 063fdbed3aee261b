// What the passive listener heard, recorded in one transaction per flush (issue 28 items 2-4): the events
// (pruned to LISTENER_LIMITS.maxStoredEvents rows and retentionDays days), the sidecar's listener status,
// and the devices as discovery results of the day's listener job (source_type listener_triggered), matched
// against the inventory by the same statement as a scan's findings (insertFindings), so they are reviewed
// and merged like any scan's. A device no discovery has seen before and the inventory does not hold raises
// a `discovery.drift.new_device` alert. Events and results are announced on the `discovery` channel
// (the /discovery/stream WebSocket and the server-sent events feed).
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { discoveryListenerEvents } from "../../../db/schema/index.ts";
import { LISTENER_LIMITS, type ListenerObservation, type ListenerRuntimeStatus } from "../../../domain/discovery/listener.ts";
import type { HostFinding } from "../../../domain/discovery/finding.ts";
import { emptyFinding } from "../../../domain/discovery/finding.ts";
import { enqueueAlert } from "../../notifications/enqueue-alert.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { insertFindings, normaliseMac } from "../results/record-findings.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";

export interface RecordHeardInput {
  /** The sidecar that heard them (its status row's key). */
  owner: string;
  observations: ListenerObservation[];
  status: ListenerRuntimeStatus;
}

export interface RecordHeardOutcome {
  events: number;
  job_id: number | null;
  results: number;
  new_devices: string[];
}

const MAX_ALERTS = 20;
/** Kinds that describe a device that is there (a goodbye or someone's question does not). */
const PRESENT = new Set(["response", "notify", "search_response"]);

/** The observations of one flush folded into one finding per device address. */
export function findingsOf(observations: ListenerObservation[]): HostFinding[] {
  const byIp = new Map<string, HostFinding>();
  for (const o of observations) {
    if (!o.address || !PRESENT.has(o.kind)) continue;
    if (!o.hostname && o.services.length === 0 && !o.vendor && !o.model) continue;
    const f = byIp.get(o.address) ?? emptyFinding(o.address);
    f.mac_address ??= normaliseMac(o.mac);
    f.hostname ??= o.hostname;
    f.vendor = o.vendor ?? f.vendor;
    f.model = o.model ?? f.model ?? null;
    f.serial_number = o.serial ?? f.serial_number ?? null;
    if (!f.sources.includes(o.protocol)) f.sources.push(o.protocol);
    for (const svc of o.services) {
      if (svc.port === null || f.open_ports.some((p) => p.port === svc.port && p.protocol === svc.protocol)) continue;
      f.open_ports.push({
        port: svc.port,
        protocol: svc.protocol,
        service: svc.type,
        ...(svc.name ? { banner: svc.name } : {}),
        ...(o.server ? { server: o.server } : {}),
      });
    }
    byIp.set(o.address, f);
  }
  return [...byIp.values()];
}

/** The day's listener job, made on the first device heard that day (UTC). */
async function listenerJob(s: VerbScope): Promise<number> {
  const day = s.now.toISOString().slice(0, 10);
  const label = `Passive listener (mDNS/SSDP) ${day}`;
  const now = s.now.toISOString();
  // Serialises two sidecars making the same day's job.
  await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`discovery_listener_job:${day}`}))`);
  const [found] = await queryRows<{ id: number }>(
    s.tx,
    sql`select id from scan_jobs where source_type = 'listener_triggered' and label = ${label} order by id limit 1`,
  );
  if (found) return found.id;
  const [made] = await queryRows<{ id: number }>(
    s.tx,
    sql`
    insert into scan_jobs (source_type, label, status, started_at, completed_at, triggered_by, progress_phase, progress_message, created_at, updated_at)
    values ('listener_triggered', ${label}, 'completed', ${now}::timestamptz, ${now}::timestamptz, 'listener', 'listening',
      'Devices the passive listener heard announce themselves', ${now}::timestamptz, ${now}::timestamptz)
    returning id`,
  );
  return made!.id;
}

async function storeEvents(
  s: VerbScope,
  owner: string,
  observations: ListenerObservation[],
): Promise<{ id: number; protocol: string; kind: string; source: string; address: string | null; hostname: string | null }[]> {
  if (observations.length === 0) return [];
  const rows = observations.map((o) => ({
    received_at: new Date(o.at),
    protocol: o.protocol,
    kind: o.kind,
    source: o.source.slice(0, 64),
    address: o.address,
    mac_address: normaliseMac(o.mac),
    hostname: o.hostname,
    services: o.services.slice(0, 32),
    vendor: o.vendor,
    model: o.model,
    serial_number: o.serial,
    location: o.location,
    usn: o.usn,
    server: o.server,
    heard_by: owner.slice(0, 200),
  }));
  const stored = await s.tx.insert(discoveryListenerEvents).values(rows).returning({
    id: discoveryListenerEvents.id,
    protocol: discoveryListenerEvents.protocol,
    kind: discoveryListenerEvents.kind,
    source: discoveryListenerEvents.source,
    address: discoveryListenerEvents.address,
    hostname: discoveryListenerEvents.hostname,
  });
  // The cap and the retention: the newest maxStoredEvents rows of the last retentionDays days stay.
  await s.tx.execute(sql`
    delete from discovery_listener_events where received_at < ${s.now.toISOString()}::timestamptz - make_interval(days => ${LISTENER_LIMITS.retentionDays})
      or id <= (select max(id) from discovery_listener_events) - ${LISTENER_LIMITS.maxStoredEvents}`);
  return stored;
}

export const recordHeard = defineVerb({ scope: WRITE_DISCOVERY }, async (s, input: RecordHeardInput): Promise<RecordHeardOutcome> => {
  const now = s.now.toISOString();
  await s.tx.execute(sql`
    insert into discovery_listener_state (owner, status, updated_at) values (${input.owner}, ${JSON.stringify(input.status)}::jsonb, ${now}::timestamptz)
    on conflict (owner) do update set status = excluded.status, updated_at = excluded.updated_at`);
  const stored = await storeEvents(s, input.owner, input.observations.slice(0, LISTENER_LIMITS.maxPending));
  if (stored.length > 0) s.emit("discovery", { type: "listener_events", count: stored.length, events: stored.slice(0, 20) });
  const findings = findingsOf(input.observations);
  if (findings.length === 0) return { events: stored.length, job_id: null, results: 0, new_devices: [] };
  const jobId = await listenerJob(s);
  const c = await insertFindings(s, jobId, null, findings);
  await s.tx.execute(sql`
    update scan_jobs set hosts_found = hosts_found + ${c.inserted}, hosts_new = hosts_new + ${c.d_new}, hosts_updated = hosts_updated + ${c.d_matched},
      hosts_conflict = hosts_conflict + ${c.d_conflict}, completed_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
    where id = ${jobId}`);
  if (c.recorded > 0)
    s.emit("discovery", {
      type: "results",
      job_id: jobId,
      count: c.recorded,
      recorded: c.recorded,
      new: c.new,
      matched: c.matched,
      conflict: c.conflict,
      addresses: c.addresses,
    });
  // New devices: a result made now, matching nothing in the inventory, at an address no discovery reported before.
  const fresh = await queryRows<{ id: number; ip_address: string; hostname: string | null; vendor: string | null; model: string | null }>(
    s.tx,
    sql`
    select r.id, r.ip_address, r.hostname, r.vendor, r.model from scan_results r
    where r.scan_job_id = ${jobId} and r.state = 'new' and r.created_at = ${now}::timestamptz
      and not exists (select 1 from scan_results o where o.ip_address = r.ip_address and o.id < r.id)
    order by r.id limit ${MAX_ALERTS}`,
  );
  for (const r of fresh) {
    const what = [r.vendor, r.model].filter(Boolean).join(" ") || "a device";
    const title = `New device on the network: ${r.hostname ?? r.ip_address} (${what})`;
    await enqueueAlert(s, {
      kind: "discovery.drift.new_device",
      severity: "warning",
      monitor_id: null,
      target_type: null,
      target_id: null,
      title,
      body: `${title}, heard announcing itself at ${r.ip_address} by the passive listener; review it under discovery results (scan ${jobId}).`,
      detail: { job_id: jobId, result_id: r.id, ip_address: r.ip_address },
      occurred_at: s.now,
    });
  }
  return { events: stored.length, job_id: jobId, results: c.recorded, new_devices: fresh.map((r) => r.ip_address) };
});
