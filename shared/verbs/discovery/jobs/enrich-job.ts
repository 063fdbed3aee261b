// POST /discovery/jobs/{job_id}/enrich (spec/catalogue.tsv, group discovery): the follow-up of an `opnsense` job. The
// firewall told which hosts exist; enrich scans the private ones (private-addresses.ts) with the engine
// for their open ports, banners, TLS and HTTP facts, as one new queued job (answered as its ScanJobOut),
// under every rule a scan request has: the allowed set, the address cap, the open-jobs limit (429), the
// port list. The reference ran nmap and answered 409 when nmap was disabled; ours runs the engine, which
// needs no tool, so the 409 is kept for what is left of that case: a caller asking for `nmap` while the
// worker found it missing (POST /discovery/scan answers that 422; the contract pins 409 here).
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { privateAddresses } from "../../../domain/discovery/private-addresses.ts";
import { SOLO_SCAN_TYPES } from "../../../domain/discovery/scan-types.ts";
import { ipToInt, MAX_SCAN_ADDRESSES } from "../../../domain/discovery/targets.ts";
import { ApiError } from "../../../errors.ts";
import type { EnrichRequest, ScanJobOut } from "../../../schemas/discovery.ts";
import { defineVerb } from "../../verb.ts";
import type { VerbContext } from "../../verb-context.ts";
import { capabilityState, readReadiness } from "../control/readiness-state.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { insertScanJob, refuseOverOpenLimit } from "./create-scan-jobs.ts";
import type { NewScanJob } from "./new-scan-job.ts";
import { requireJob } from "./job-row.ts";
import { presentJob } from "./present-job.ts";
import { checkNmapArguments, checkPorts, checkScanTypes, checkTargets, invalid } from "./scan-checks.ts";

/** What an enrichment runs unless the body says: ports, then banners, TLS and HTTP of the open ones; no tool needed. */
export const ENRICH_SCAN_TYPES = ["icmp", "tcp", "banner", "http", "dns"] as const;

export interface EnrichInput {
  job_id: number;
  body: EnrichRequest;
  /** The allowed target set (SVC_DISCOVERY_ALLOWED_TARGETS). */
  allowed: readonly string[];
}

async function scanTypesOf(ctx: VerbContext, body: EnrichRequest): Promise<string[]> {
  const types = checkScanTypes(body?.scan_types?.length ? body.scan_types : ENRICH_SCAN_TYPES, null);
  const solo = types.find((t) => SOLO_SCAN_TYPES.has(t));
  if (solo)
    throw invalid(
      "scan_types",
      `Scan type '${solo}' does not scan addresses; an enrichment takes ${ENRICH_SCAN_TYPES.join(", ")}, arp, snmp or nmap`,
      "scan_type",
    );
  if (types.includes("nmap") && capabilityState(await readReadiness(ctx.db), "nmap") === "unavailable") {
    throw new ApiError(
      "CONFLICT",
      "nmap is disabled on this server (the discovery worker found no nmap binary): enrich without 'nmap' in scan_types to use the built-in scanner.",
    );
  }
  return types;
}

async function planEnrich(ctx: VerbContext, { job_id, body, allowed }: EnrichInput): Promise<NewScanJob> {
  const job = await requireJob(ctx.db, job_id);
  if (!job.scan_types.includes("opnsense")) {
    throw new ApiError(
      "BAD_REQUEST",
      `Job ${job_id} is not an OPNsense job (scan types: ${job.scan_types.join(", ") || "none"}); enrich follows up the hosts an opnsense scan found.`,
    );
  }
  const rows = await queryRows<{ ip_address: string }>(
    ctx.db,
    sql`select distinct ip_address from scan_results where scan_job_id = ${job_id}`,
  );
  const ips = rows
    .map((r) => r.ip_address)
    .filter((ip) => ipToInt(ip) !== null)
    .sort((a, b) => ipToInt(a)! - ipToInt(b)!);
  if (ips.length === 0)
    throw new ApiError("BAD_REQUEST", `Job ${job_id} has no IP addresses to enrich (it found no host, or has not run yet).`);
  const targets = privateAddresses(ips, allowed);
  if (targets.length === 0) {
    throw new ApiError(
      "BAD_REQUEST",
      `Job ${job_id} has no private IP addresses to enrich: none of its ${ips.length} addresses lies inside both the private ranges and the allowed targets (${allowed.join(", ")}).`,
    );
  }
  if (targets.length > MAX_SCAN_ADDRESSES) {
    throw new ApiError(
      "BAD_REQUEST",
      `Job ${job_id} has ${targets.length} private addresses; one scan takes at most ${MAX_SCAN_ADDRESSES}: scan them in ranges with POST /discovery/scan.`,
    );
  }
  const scanTypes = await scanTypesOf(ctx, body);
  const ports = checkPorts(body ?? {});
  const nmapArguments = checkNmapArguments(body?.nmap_arguments);
  const set = checkTargets(targets, [], allowed, "targets");
  const options: Record<string, unknown> = { enriches_job_id: job_id };
  if (body?.host_timeout_ms != null) options.host_timeout_ms = body.host_timeout_ms;
  if (body?.ports_preset != null && !body.tcp_ports?.length) options.ports_preset = body.ports_preset;
  if (scanTypes.includes("nmap") && nmapArguments) options.nmap_arguments = nmapArguments;
  return {
    source_type: "manual",
    label: body?.label ?? `Enrichment of OPNsense job ${job_id}`,
    target_cidr: null,
    targets: set.targets,
    exclude: [],
    vlan_ids: job.vlan_ids,
    scan_types: scanTypes,
    tcp_ports: ports,
    options,
    scan_agent_id: null,
    addresses_total: set.count,
  };
}

export const enrichScanJob = defineVerb<EnrichInput, ScanJobOut, NewScanJob>(
  { scope: WRITE_DISCOVERY, prepare: planEnrich },
  async (s, { job_id }, fields) => {
    await refuseOverOpenLimit(s);
    const job = await insertScanJob(s, fields);
    s.audit({
      action: "discovery.job.enrich",
      category: "discovery",
      entity_type: "scan_job",
      entity_id: job_id,
      diff: { after: { enrich_job_id: job.id, addresses: job.addresses_total, scan_types: job.scan_types } },
    });
    return presentJob(job);
  },
);
