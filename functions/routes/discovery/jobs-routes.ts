// [discovery] scan jobs: POST /discovery/scan and POST /discovery/jobs/{job_id}/enrich (rate category
// "scan", by path in the rate-limit policy), the jobs list, one job, its cancel and its log. /discovery/scan and /discovery/jobs are fixed paths,
// registered before any /discovery/jobs/{job_id}.
import type { Hono } from "hono";
import {
  Cancelled,
  EnrichRequestBody,
  JobListQuery,
  JobParams,
  LogQuery,
  ScanCreated,
  ScanJobList,
  ScanJobOut,
  ScanLogList,
  ScanRequestBody,
} from "../../../shared/schemas/discovery.ts";
import { cancelScanJob } from "../../../shared/verbs/discovery/jobs/cancel-scan-job.ts";
import { createScanJobs } from "../../../shared/verbs/discovery/jobs/create-scan-jobs.ts";
import { ENRICH_SCAN_TYPES, enrichScanJob } from "../../../shared/verbs/discovery/jobs/enrich-job.ts";
import { getScanJob, listJobLogs, listScanJobs } from "../../../shared/verbs/discovery/jobs/read-jobs.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { allowedTargets } from "./allowed-targets.ts";

const BASE = "/api/v1/discovery";

const SCAN_NOTE = [
  "Targets: `cidr`, `cidrs` (at most 10, one job each) and/or `targets` (CIDRs, ranges `a.b.c.d-e.f.g.h` or `a.b.c.d-n`, addresses; one job), minus `exclude`.",
  "Every target must lie inside SVC_DISCOVERY_ALLOWED_TARGETS (default: private, CGNAT and loopback ranges) and a job holds at most 4096 addresses; no target is a 422 (a scan never runs unbounded).",
  "`scan_types` defaults to icmp, tcp, dns, arp; `nmap` while the worker found nmap missing is a 422; docker and lldp have their own routes.",
  "`tcp_ports` or `ports_preset` (common, top100, web, infrastructure; default common). `snmp_community` is sealed by the vault and never returned.",
  "With `scan_agent_id` the job runs on that agent (agent_connect, agent_icmp); an agent that may not run it is a 422 with the message in `detail`, the eligibility reason in `reason` and its detail in `reason_detail`.",
  '`scan_types: ["opnsense"]` (alone) reads the ARP table and DHCP leases of the firewall set with PATCH /settings/firewall instead of sweeping addresses: it takes no targets or ports, and a firewall not configured is a 422.',
  'Answers one ScanJobOut when one job was made, else an array. 429 "Too many scans" while 3 server scans are queued or running.',
].join(" ");

const ENRICH_NOTE = [
  "The follow-up of an `opnsense` job (the reference's OPNsense enrichment): queues a scan of the job's private addresses for their open ports, banners, TLS and HTTP facts, and answers the new job.",
  "Private means inside both the private ranges (10/8, 172.16/12, 192.168/16, CGNAT 100.64/10, loopback) and SVC_DISCOVERY_ALLOWED_TARGETS.",
  `No body, or \`scan_types\` (default ${ENRICH_SCAN_TYPES.join(", ")}), \`tcp_ports\` or \`ports_preset\`, \`nmap_arguments\`, \`host_timeout_ms\`, \`label\`.`,
  '400 for a job that is not an opnsense job, one without addresses, or without private ones; 409 when `nmap` is asked for and the worker found nmap missing ("nmap disabled"); 429 while 3 server scans are open.',
].join(" ");

export function jobsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: `${BASE}/scan`,
      tag: "discovery",
      scope: createScanJobs.scope,
      body: ScanRequestBody,
      response: { status: 201, schema: ScanCreated },
      summary: "Start a scan (queued jobs)",
      description: SCAN_NOTE,
      errors: [429, 503],
    },
    async (c, { body, reply }) => {
      const jobs = await createScanJobs({ ctx: verbContext(c), input: { body, allowed: allowedTargets(c) } });
      return reply(jobs.length === 1 ? jobs[0]! : jobs);
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/jobs/:job_id/enrich`,
      tag: "discovery",
      scope: enrichScanJob.scope,
      params: JobParams,
      body: EnrichRequestBody,
      response: { status: 201, schema: ScanJobOut },
      summary: "Scan the private hosts an OPNsense job found (a queued job)",
      description: ENRICH_NOTE,
      errors: [400, 409, 429],
    },
    async (c, { params, body, reply }) =>
      reply(await enrichScanJob({ ctx: verbContext(c), input: { job_id: params.job_id, body, allowed: allowedTargets(c) } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/jobs`,
      tag: "discovery",
      scope: listScanJobs.scope,
      query: JobListQuery,
      response: { schema: ScanJobList },
      summary: "List scan jobs",
      description:
        "The list envelope, newest first by default (`sort` id, `direction` desc); `sort` id, created_at, status, started_at, completed_at or hosts_found; filters status, source_type, profile_id, scan_agent_id; `q` over label and target.",
    },
    async (c, { query, reply }) => reply(await listScanJobs({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/jobs/:job_id`,
      tag: "discovery",
      scope: getScanJob.scope,
      params: JobParams,
      response: { schema: ScanJobOut },
      summary: "One scan job",
    },
    async (c, { params, reply }) => reply(await getScanJob({ ctx: verbContext(c), input: { id: params.job_id } })),
  );

  route(
    app,
    {
      method: "delete",
      path: `${BASE}/jobs/:job_id`,
      tag: "discovery",
      scope: cancelScanJob.scope,
      params: JobParams,
      response: { schema: Cancelled },
      errors: [409],
      summary: "Cancel a queued or running scan job",
      description:
        'Compare-and-set to cancelled: the worker or agent stops within a second. 409 "Job is already <status>" when the job had ended.',
    },
    async (c, { params, reply }) => reply(await cancelScanJob({ ctx: verbContext(c), input: { id: params.job_id } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/jobs/:job_id/logs`,
      tag: "discovery",
      scope: listJobLogs.scope,
      params: JobParams,
      query: LogQuery,
      response: { schema: ScanLogList },
      summary: "A scan job's log",
      description: "Oldest first, at most `limit` (default 100, at most 1000); `level` DEBUG, INFO, WARNING or ERROR (any case).",
    },
    async (c, { params, query, reply }) =>
      reply(await listJobLogs({ ctx: verbContext(c), input: { id: params.job_id, level: query.level, limit: query.limit } })),
  );
}
