// requestProbe: queues one probe run for an agent (a row in agent_probe_runs, the outbox the sidecar
// holding the link reads) and tells the sidecar (agent_control "probe"), which sends `probe.assign`.
// Refused with 409 and a `reason` of spec/catalogue.tsv, group agents when the agent cannot take it; a refusal
// writes nothing. The monitors will call it on every check, so it records no audit entry (like a poll);
// the run row is the record. No route calls it yet.
import { and, eq, isNull } from "drizzle-orm";
import * as v from "valibot";
import { agentProbeRuns } from "../../db/schema/index.ts";
import { bytesToHex } from "../../auth/encoding.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import { PROBE_CHECK_TYPES } from "../../domain/monitors/check-types.ts";
import { defineVerb } from "../verb.ts";
import { findAgent } from "./agent-row.ts";
import { tellSidecar } from "./notify.ts";
import { evaluateProbeAgent, type ProbeRefusalReason } from "./probe-eligibility.ts";
import { openRunCount, openRunsOf } from "./probe-runs.ts";
import { WRITE_AGENTS } from "./scopes.ts";

export const ProbeRequestSchema = v.object({
  agent_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  check_type: v.picklist(PROBE_CHECK_TYPES),
  host: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(253)),
  config: v.optional(v.record(v.string(), v.unknown()), {}),
  monitor_id: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  timeout_s: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(300)),
});
export type ProbeRequest = v.InferInput<typeof ProbeRequestSchema>;

export interface QueuedProbe {
  run_id: string;
  agent_id: number;
  monitor_id: number | null;
  state: "queued";
  scheduled_at: string;
  deadline_at: string;
}

const SENTENCES: Record<ProbeRefusalReason, string> = {
  agent_missing: "there is no such agent",
  agent_inactive: "it is not active",
  capability_disabled: "its remote_probe capability is disabled",
  agent_offline: "it is offline",
  readiness_unknown: "it has not reported whether it can run this check type",
  readiness_unavailable: "it reports this check type unavailable",
  unresolved_host: "the host is a name its grant does not list (names are not resolved here)",
  out_of_scope: "the host is outside its probe scope",
  at_capacity: "it already runs max_concurrent probes",
  previous_run_in_flight: "the previous run of this check has not finished",
};

function refusal(agentId: number, reason: ProbeRefusalReason): ApiError {
  return ApiError.conflict(`Agent ${agentId} cannot take this probe: ${SENTENCES[reason]}.`, { reason });
}

export const requestProbe = defineVerb<ProbeRequest, QueuedProbe>({ scope: WRITE_AGENTS }, async (s, raw) => {
  const parsed = v.safeParse(ProbeRequestSchema, raw);
  if (!parsed.success)
    throw ApiError.validation(
      parsed.issues.map((i): ValidationIssue => ({ loc: (i.path ?? []).map((p) => p.key as string), msg: i.message, type: i.type })),
    );
  const input = parsed.output;
  // Locked, so concurrent requests for one agent count its capacity one after another.
  const agent = await findAgent(s.tx, input.agent_id, { forUpdate: true });
  if (!agent) throw refusal(input.agent_id, "agent_missing");
  const verdict = evaluateProbeAgent(agent, input, await openRunCount(s.tx, agent.id), s.now);
  if (verdict.reason) throw refusal(agent.id, verdict.reason);
  const sameCheck =
    input.monitor_id != null
      ? eq(agentProbeRuns.monitor_id, input.monitor_id)
      : and(isNull(agentProbeRuns.monitor_id), eq(agentProbeRuns.check_type, input.check_type), eq(agentProbeRuns.host, input.host));
  const [previous] = await s.tx
    .select({ run_id: agentProbeRuns.run_id })
    .from(agentProbeRuns)
    .where(and(openRunsOf(agent.id), sameCheck))
    .limit(1);
  if (previous) throw refusal(agent.id, "previous_run_in_flight");

  const run_id = bytesToHex(s.ctx.random.bytes(16));
  const deadline = new Date(s.now.getTime() + input.timeout_s * 1000);
  await s.tx.insert(agentProbeRuns).values({
    run_id,
    agent_id: agent.id,
    monitor_id: input.monitor_id ?? null,
    check_type: input.check_type,
    host: input.host,
    config: input.config,
    state: "queued",
    scheduled_at: s.now,
    deadline_at: deadline,
    created_at: s.now,
  });
  tellSidecar(s, agent.id, "probe");
  return {
    run_id,
    agent_id: agent.id,
    monitor_id: input.monitor_id ?? null,
    state: "queued",
    scheduled_at: s.now.toISOString(),
    deadline_at: deadline.toISOString(),
  };
});
