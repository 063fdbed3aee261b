// Whether an agent can take a probe of `check_type` against `host` now (spec/catalogue.tsv, group agents): it is
// active, its remote_probe grant is enabled, it is online, its probe.<check_type> collector is ready or
// degraded, the host is inside its scope, and it has a free slot under max_concurrent. The first reason
// that fails is the answer. Pure: the callers read the agent and its open runs.
import { isOnline } from "../../agents/control.ts";
import { effectiveGrants, type Grant } from "../../domain/agents/capabilities.ts";
import type { CheckType } from "../../domain/monitors/check-types.ts";
import type { AgentRow } from "./agent-row.ts";
import { hostInScope, probeScope } from "./probe-scope.ts";

export type ProbeRefusalReason =
  | "agent_missing"
  | "agent_inactive"
  | "capability_disabled"
  | "agent_offline"
  | "readiness_unknown"
  | "readiness_unavailable"
  | "unresolved_host"
  | "out_of_scope"
  | "at_capacity"
  | "previous_run_in_flight";

const USABLE_READINESS = new Set(["ready", "degraded"]);

export interface ProbeEvaluation {
  agent_id: number;
  name: string | null;
  online: boolean;
  granted: boolean;
  readiness: string | null;
  readiness_collector: string;
  max_concurrent: number;
  active_runs: number;
  scope_version: string;
  scope_networks: string[];
  excluded_networks: string[];
  in_scope: boolean;
  eligible: boolean;
  reason: ProbeRefusalReason | null;
}

/** The state the agent reported for `collector` (capability.readiness entries), or null. */
export function readinessOf(readiness: readonly unknown[], collector: string): string | null {
  const entry = readiness.find((r) => (r as { collector?: unknown } | null)?.collector === collector) as { state?: unknown } | undefined;
  return typeof entry?.state === "string" ? entry.state : null;
}

export function maxConcurrentOf(grant: Grant): number {
  const n = grant.config.max_concurrent;
  return typeof n === "number" ? n : 1;
}

export function evaluateProbeAgent(
  agent: AgentRow,
  target: { check_type: CheckType; host: string },
  activeRuns: number,
  now: Date,
): ProbeEvaluation {
  const grant = effectiveGrants(agent.capabilities).remote_probe;
  const active = agent.status === "active";
  const granted = active && grant.enabled;
  const online = isOnline(agent, now);
  const collector = `probe.${target.check_type}`;
  const readiness = readinessOf(agent.readiness ?? [], collector);
  const scope = probeScope(agent.networks ?? [], grant.config);
  const verdict = hostInScope(scope, target.host);
  const maxConcurrent = maxConcurrentOf(grant);
  // In the order a refusal is reported: the first failing check is the reason.
  const checks: [failed: boolean, reason: ProbeRefusalReason][] = [
    [!active, "agent_inactive"],
    [!grant.enabled, "capability_disabled"],
    [!online, "agent_offline"],
    [readiness === null, "readiness_unknown"],
    [readiness !== null && !USABLE_READINESS.has(readiness), "readiness_unavailable"],
    [verdict === "unresolved_host", "unresolved_host"],
    [verdict === "out_of_scope", "out_of_scope"],
    [activeRuns >= maxConcurrent, "at_capacity"],
  ];
  const reason = checks.find(([failed]) => failed)?.[1] ?? null;
  return {
    agent_id: agent.id,
    name: agent.name ?? agent.hostname,
    online,
    granted,
    readiness,
    readiness_collector: collector,
    max_concurrent: maxConcurrent,
    active_runs: activeRuns,
    scope_version: scope.version,
    scope_networks: scope.networks,
    excluded_networks: scope.excluded,
    in_scope: verdict === "in_scope",
    eligible: reason === null,
    reason,
  };
}
