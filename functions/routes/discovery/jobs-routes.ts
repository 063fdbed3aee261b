// [discovery] scan jobs: POST /discovery/scan (rate category "scan", by path in the rate-limit policy),
// the jobs list, one job, its cancel and its log. /discovery/scan and /discovery/jobs are fixed paths,
// registered before any /discovery/jobs/{job_id}.
import type { Hono } from "hono";
import { Cancelled, JobListQuery, JobParams, LogQuery, ScanCreated, ScanJobList, ScanJobOut, ScanLogList, ScanRequestBody } from "../../../shared/schemas/discovery.ts";
import { cancelScanJob } from "../../../shared/services/discovery/jobs/cancel-scan-job.ts";
import { createScanJobs } from "../../../shared/services/discovery/jobs/create-scan-jobs.ts";
import { getScanJob, listJobLogs, listScanJobs } from "../../../shared/services/discovery/jobs/read-jobs.ts";
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
  "Answers one ScanJobOut when one job was made, else an array. 429 \"Too many scans\" while 3 server scans are queued or running.",
].join(" ");

export function jobsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    { method: "post", path: `${BASE}/scan`, tag: "discovery", scope: createScanJobs.scope, body: ScanRequestBody, response: { status: 201, schema: ScanCreated }, summary: "Start a scan (queued jobs)", description: SCAN_NOTE, errors: [429, 503] },
    async (c, { body, reply }) => {
      const jobs = await createScanJobs({ ctx: verbContext(c), input: { body, vault: c.get("deps").vault, allowed: allowedTargets(c) } });
      return reply(jobs.length === 1 ? jobs[0]! : jobs);
    },
  );

  route(
    app,
    {
      method: "get", path: `${BASE}/jobs`, tag: "discovery", scope: listScanJobs.scope, query: JobListQuery, response: { schema: ScanJobList }, summary: "List scan jobs",
      description: "The list envelope, newest first by default (`sort` id, `direction` desc); `sort` id, created_at, status, started_at, completed_at or hosts_found; filters status, source_type, profile_id, scan_agent_id; `q` over label and target.",
    },
    async (c, { query, reply }) => reply(await listScanJobs({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    { method: "get", path: `${BASE}/jobs/:job_id`, tag: "discovery", scope: getScanJob.scope, params: JobParams, response: { schema: ScanJobOut }, summary: "One scan job" },
    async (c, { params, reply }) => reply(await getScanJob({ ctx: verbContext(c), input: { id: params.job_id } })),
  );

  route(
    app,
    {
      method: "delete", path: `${BASE}/jobs/:job_id`, tag: "discovery", scope: cancelScanJob.scope, params: JobParams, response: { schema: Cancelled }, errors: [409],
      summary: "Cancel a queued or running scan job",
      description: "Compare-and-set to cancelled: the worker or agent stops within a second. 409 \"Job is already <status>\" when the job had ended.",
    },
    async (c, { params, reply }) => reply(await cancelScanJob({ ctx: verbContext(c), input: { id: params.job_id } })),
  );

  route(
    app,
    {
      method: "get", path: `${BASE}/jobs/:job_id/logs`, tag: "discovery", scope: listJobLogs.scope, params: JobParams, query: LogQuery, response: { schema: ScanLogList },
      summary: "A scan job's log", description: "Oldest first, at most `limit` (default 100, at most 1000); `level` DEBUG, INFO, WARNING or ERROR (any case).",
    },
    async (c, { params, query, reply }) => reply(await listJobLogs({ ctx: verbContext(c), input: { id: params.job_id, level: query.level, limit: query.limit } })),
  );
}
