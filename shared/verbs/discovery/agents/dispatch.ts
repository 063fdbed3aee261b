// Agent jobs over the link (issue 13 item 4). The sidecar holding an agent's link calls
// dispatchAgentJobs on link and on a job_queued notice: each queued job of that agent is checked again
// (its grant, pause and scope may have changed since it was queued), then set running with a fresh
// dispatch_id and answered as the `discovery.request` payload to send. Nothing is dispatched while the
// fleet-wide pause holds; a paused agent or one whose readiness is not ready keeps its jobs queued with
// that reason; a job its agent can no longer run (grant disabled, scope changed) fails with the reason.
// markWaitingAgentJobs names the wait of jobs whose agent is offline: error_reason waiting_for_agent.
import { and, eq, sql } from "drizzle-orm";
import { bytesToHex } from "../../../auth/encoding.ts";
import { queryRows } from "../../../db/database.ts";
import { scanJobs } from "../../../db/schema/index.ts";
import { effectiveGrants } from "../../../domain/agents/capabilities.ts";
import { PRESENCE_TTL_MS } from "../../../agents/control.ts";
import { findAgent } from "../../agents/agent-row.ts";
import { defineRead, defineVerb, type VerbScope } from "../../verb.ts";
import { emitJobUpdate, type ScanJobRow } from "../run/job-events.ts";
import { jobTargets } from "../run/job-targets.ts";
import { discoveryPaused } from "../run/pause-state.ts";
import { rowOf } from "../run/row-of.ts";
import { READ_DISCOVERY, WRITE_DISCOVERY } from "../scopes.ts";
import { evaluateDiscoveryAgent, refusalMessage } from "./evaluate.ts";

/** The discovery.request payload (server -> agent). */
export interface DiscoveryRequest {
  agent_id: number;
  dispatch_id: string;
  job_id: number;
  targets: string[];
  exclude: string[];
  scan_types: string[];
  tcp_ports: number[];
  timeout_ms: number;
  max_concurrent_hosts: number;
}

/** Reasons that may pass on their own: the job stays queued, naming it. */
const TRANSIENT = new Set(["paused", "readiness_unknown", "readiness_degraded", "readiness_unavailable"]);

const num = (v: unknown, fallback: number) => (typeof v === "number" && Number.isFinite(v) ? Math.trunc(v) : fallback);

async function setWaiting(s: VerbScope, job: ScanJobRow, reason: string, text: string | null): Promise<void> {
  if (job.error_reason === reason) return;
  const [row] = await s.tx
    .update(scanJobs)
    .set({ error_reason: reason, error_text: text, updated_at: s.now })
    .where(and(eq(scanJobs.id, job.id), eq(scanJobs.status, "queued")))
    .returning();
  if (row) emitJobUpdate(s, row);
}

export const dispatchAgentJobs = defineVerb<{ agent_ids: number[]; owner: string; limit?: number }, DiscoveryRequest[]>(
  { scope: WRITE_DISCOVERY },
  async (s, input) => {
    if (input.agent_ids.length === 0 || (await discoveryPaused(s.tx))) return [];
    const queued = (
      await queryRows<Record<string, unknown>>(
        s.tx,
        sql`
      select * from scan_jobs where status = 'queued' and scan_agent_id = any(${`{${input.agent_ids.map((id) => Math.trunc(id)).join(",")}}`}::int[])
      order by id limit ${Math.min(input.limit ?? 20, 100)} for update skip locked`,
      )
    ).map(rowOf);
    const requests: DiscoveryRequest[] = [];
    for (const job of queued) {
      const agent = await findAgent(s.tx, job.scan_agent_id!);
      const targets = jobTargets(job);
      if (!agent) continue;
      const e = evaluateDiscoveryAgent(
        agent,
        { targets, count: job.addresses_total || null, requireOnline: false },
        { active_jobs: 0, assigned_profiles: 0 },
        s.now,
      );
      if (e.reason !== null) {
        const text = refusalMessage(e.reason, e.detail);
        if (TRANSIENT.has(e.reason)) await setWaiting(s, job, e.reason, text);
        else {
          const [row] = await s.tx
            .update(scanJobs)
            .set({
              status: "failed",
              completed_at: s.now,
              updated_at: s.now,
              error_reason: e.reason,
              error_text: text,
              progress_phase: "failed",
              progress_message: text,
            })
            .where(and(eq(scanJobs.id, job.id), eq(scanJobs.status, "queued")))
            .returning();
          if (row) emitJobUpdate(s, row);
        }
        continue;
      }
      const grant = effectiveGrants(agent.capabilities).local_discovery.config;
      const dispatch_id = bytesToHex(s.ctx.random.bytes(16));
      const [row] = await s.tx
        .update(scanJobs)
        .set({
          status: "running",
          dispatch_id,
          dispatched_at: s.now,
          claimed_by: input.owner,
          claimed_at: s.now,
          started_at: job.started_at ?? s.now,
          updated_at: s.now,
          error_reason: null,
          error_text: null,
          progress_phase: "dispatched",
          progress_message: `Sent to agent ${agent.name ?? agent.hostname ?? agent.id}`,
        })
        .where(eq(scanJobs.id, job.id))
        .returning();
      emitJobUpdate(s, row!);
      const grantPorts = Array.isArray(grant.tcp_ports) ? (grant.tcp_ports as number[]) : [];
      requests.push({
        agent_id: agent.id,
        dispatch_id,
        job_id: job.id,
        targets,
        exclude: job.exclude,
        scan_types: job.scan_types,
        tcp_ports: job.tcp_ports.length > 0 ? job.tcp_ports : grantPorts,
        timeout_ms: Math.min(num(job.options.host_timeout_ms, num(grant.host_timeout_ms, 1500)), num(grant.host_timeout_ms, 1500) * 4),
        max_concurrent_hosts: Math.max(1, Math.min(num(job.options.max_concurrent_hosts, 64), num(grant.max_concurrent_hosts, 64))),
      });
    }
    return requests;
  },
);

/** Queued agent jobs whose agent is not online get error_reason waiting_for_agent (once). */
export const markWaitingAgentJobs = defineVerb<undefined, { waiting: number }>({ scope: WRITE_DISCOVERY }, async (s) => {
  const cutoff = new Date(s.now.getTime() - PRESENCE_TTL_MS).toISOString();
  const rows = (
    await queryRows<Record<string, unknown>>(
      s.tx,
      sql`
      update scan_jobs j set error_reason = 'waiting_for_agent', error_text = 'The agent is offline; the scan starts when it connects.', updated_at = ${s.now.toISOString()}::timestamptz
      from agents a
      where j.status = 'queued' and j.scan_agent_id = a.id and (j.error_reason is distinct from 'waiting_for_agent')
        and not (a.status = 'active' and a.link_owner is not null and a.last_seen_at >= ${cutoff}::timestamptz)
      returning j.*`,
    )
  ).map(rowOf);
  for (const row of rows) emitJobUpdate(s, row);
  return { waiting: rows.length };
});

/** The job a finding's dispatch_id names, if it is this agent's. */
export const agentJobOf = defineRead<{ agent_id: number; dispatch_id: string }, ScanJobRow | null>(
  { scope: READ_DISCOVERY },
  async (ctx, input) => {
    const [row] = await ctx.db
      .select()
      .from(scanJobs)
      .where(and(eq(scanJobs.dispatch_id, input.dispatch_id), eq(scanJobs.scan_agent_id, input.agent_id)))
      .limit(1);
    return row ?? null;
  },
);

/**
 * The link that carried an agent's scans ended: the agent stops them with it (findings travel on the live
 * link only), so its running jobs dispatched by this sidecar fail now with reason agent_offline instead of
 * waiting for recovery.
 */
export const failAgentJobs = defineVerb<{ agent_id: number; owner: string }, { failed: number[] }>(
  { scope: WRITE_DISCOVERY },
  async (s, input) => {
    const text = "The agent's link ended while it was scanning.";
    const rows = await s.tx
      .update(scanJobs)
      .set({
        status: "failed",
        completed_at: s.now,
        updated_at: s.now,
        error_reason: "agent_offline",
        error_text: text,
        progress_phase: "failed",
        progress_message: text,
      })
      .where(and(eq(scanJobs.scan_agent_id, input.agent_id), eq(scanJobs.status, "running"), eq(scanJobs.claimed_by, input.owner)))
      .returning();
    for (const row of rows) emitJobUpdate(s, row);
    return { failed: rows.map((r) => r.id) };
  },
);
