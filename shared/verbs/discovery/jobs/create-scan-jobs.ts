// POST /discovery/scan (and a profile's run, and the scheduled profiles job): validates the request into
// one job per CIDR (or one job for a `targets` list; one target-less job for an `opnsense` read), refuses
// a fourth open server scan (429), and inserts the jobs `queued` in one transaction. The worker (or, for
// an agent job, the dispatcher) hears of each on discovery_control; the UI gets the job on /discovery/stream.
import { and, count, inArray, isNull, sql } from "drizzle-orm";
import { scanJobs } from "../../../db/schema/index.ts";
import { SOLO_SCAN_TYPES } from "../../../domain/discovery/scan-types.ts";
import { ApiError } from "../../../errors.ts";
import { OPEN_JOB_STATUSES, type ScanJobOut, type ScanRequest } from "../../../schemas/discovery.ts";
import type { Vault } from "../../../vault/vault.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { vaultOf, type VerbContext } from "../../verb-context.ts";
import { emitJobUpdate } from "../run/job-events.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import type { NewScanJob } from "./new-scan-job.ts";
import { presentJob, type ScanJobRow } from "./present-job.ts";
import { planFirewallJob } from "./firewall-job.ts";
import { checkAgent, checkNmapArguments, checkPorts, checkScanTypes, checkTargets, checkTools, invalid } from "./scan-checks.ts";
import { storeJobCommunity } from "./snmp-community.ts";

/** Open server jobs at which a new scan request is refused with 429 (agents' jobs count against their agent). */
export const MAX_OPEN_SERVER_JOBS = 3;
/** What the 429 suggests: a sweep of a few hundred addresses takes about this long. */
const RETRY_AFTER_S = 30;

/** Who started a job, as the reference shows it: the user's display name, "api-token", or "scheduler". */
export function triggeredBy(ctx: VerbContext): { triggered_by: string; triggered_by_user_id: number | null } {
  const a = ctx.actor;
  if (!a || a.kind === "system") return { triggered_by: "scheduler", triggered_by_user_id: null };
  if (a.kind === "api_token" || a.kind === "legacy_token") return { triggered_by: "api-token", triggered_by_user_id: a.userId };
  return { triggered_by: a.email ?? `user ${a.userId}`, triggered_by_user_id: a.userId };
}

/**
 * Inserts one job `queued`, audited, and tells the worker (discovery_control job_queued) and the UI
 * (discovery job_update). E's docker, LLDP and IPAM jobs come through here too. `snmp` seals the job's
 * SNMP community bound to the new row before anything is announced.
 */
export async function insertScanJob(s: VerbScope, fields: NewScanJob, snmp?: { vault: Vault; community: string }): Promise<ScanJobRow> {
  const [row] = await s.tx
    .insert(scanJobs)
    .values({ ...triggeredBy(s.ctx), ...fields, status: "queued", created_at: s.now, updated_at: s.now })
    .returning();
  let job = row!;
  if (snmp) job = await storeJobCommunity(s, snmp.vault, job.id, snmp.community);
  s.audit({
    action: "discovery.job.create",
    category: "discovery",
    entity_type: "scan_job",
    entity_id: job.id,
    diff: { after: { ...presentJob(job), options: job.options } },
  });
  s.emit("discovery_control", { type: "job_queued", job_id: job.id, scan_agent_id: job.scan_agent_id });
  emitJobUpdate(s, job);
  return job;
}

export interface ScanInput {
  body: ScanRequest;
  /** The allowed target set (SVC_DISCOVERY_ALLOWED_TARGETS). */
  allowed: readonly string[];
}

/** The jobs a request asks for, every check done (reads only): one per `cidr`/`cidrs` entry, one for `targets`. */
async function planJobs(ctx: VerbContext, { body, allowed }: ScanInput): Promise<NewScanJob[]> {
  if (body.scan_types?.includes("opnsense")) return [await planFirewallJob(ctx.db, body)];
  const agentId = body.scan_agent_id ?? null;
  const groups: { field: string; targets: string[]; single: boolean }[] = [];
  if (body.cidr) groups.push({ field: "cidr", targets: [body.cidr], single: true });
  (body.cidrs ?? []).forEach((c, i) => {
    if (!c.includes("/")) throw invalid(`cidrs[${i}]`, `'${c}' is not a CIDR (a.b.c.d/nn)`, "invalid_target");
    groups.push({ field: `cidrs[${i}]`, targets: [c], single: true });
  });
  if (body.targets && body.targets.length > 0) groups.push({ field: "targets", targets: body.targets, single: false });
  if (groups.length === 0) throw invalid("targets", "Give cidr, cidrs or targets: a scan never runs over an unbounded range.", "missing");

  const scanTypes = checkScanTypes(body.scan_types, agentId);
  const solo = scanTypes.find((t) => SOLO_SCAN_TYPES.has(t));
  if (solo)
    throw invalid(
      "scan_types",
      `Scan type '${solo}' has its own route (${solo === "docker" ? "POST /discovery/docker/sync" : "POST /discovery/lldp-enrich"}).`,
      "scan_type",
    );
  const ports = checkPorts(body);
  const nmapArguments = checkNmapArguments(body.nmap_arguments);
  await checkTools(ctx.db, scanTypes);

  const exclude = body.exclude ?? [];
  const sets = groups.map((g) => checkTargets(g.targets, exclude, allowed, g.field, g.single));
  if (agentId !== null) for (const set of sets) await checkAgent(ctx.db, agentId, set, ctx.clock.now());

  const options: Record<string, unknown> = {};
  if (body.host_timeout_ms != null) options.host_timeout_ms = body.host_timeout_ms;
  if (body.ports_preset != null && !body.tcp_ports?.length) options.ports_preset = body.ports_preset;
  if (scanTypes.includes("nmap") && nmapArguments) options.nmap_arguments = nmapArguments;
  if (scanTypes.includes("snmp")) Object.assign(options, { snmp_port: body.snmp_port ?? 161, snmp_version: body.snmp_version ?? "2c" });
  return sets.map((set) => ({
    source_type: "manual",
    label: body.label ?? null,
    target_cidr: set.targets[0] ?? null,
    targets: set.targets,
    exclude: set.exclude,
    vlan_ids: body.vlan_ids ?? [],
    scan_types: scanTypes,
    tcp_ports: ports,
    options,
    scan_agent_id: agentId,
    addresses_total: set.count,
  }));
}

/** Serialises the count of open server jobs with the inserts, so two requests cannot both take the last slot. */
export async function refuseOverOpenLimit(s: VerbScope): Promise<void> {
  await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext('discovery_open_server_jobs'))`);
  const [open] = await s.tx
    .select({ n: count() })
    .from(scanJobs)
    .where(and(inArray(scanJobs.status, [...OPEN_JOB_STATUSES]), isNull(scanJobs.scan_agent_id)));
  if ((open?.n ?? 0) >= MAX_OPEN_SERVER_JOBS) {
    throw new ApiError(
      "RATE_LIMITED",
      `Too many scans: ${open!.n} server scans are queued or running (at most ${MAX_OPEN_SERVER_JOBS}); wait for one to finish or cancel one.`,
      { retry_after: RETRY_AFTER_S },
      { "retry-after": String(RETRY_AFTER_S) },
    );
  }
}

export const createScanJobs = defineVerb<ScanInput, ScanJobOut[], NewScanJob[]>(
  { scope: WRITE_DISCOVERY, prepare: planJobs },
  async (s, input, planned) => {
    if (input.body.scan_agent_id == null) await refuseOverOpenLimit(s);
    const out: ScanJobOut[] = [];
    const community = input.body.snmp_community;
    for (const fields of planned) {
      const snmp = community && fields.scan_types.includes("snmp") ? { vault: vaultOf(s.ctx), community } : undefined;
      out.push(presentJob(await insertScanJob(s, fields, snmp)));
    }
    return out;
  },
);
