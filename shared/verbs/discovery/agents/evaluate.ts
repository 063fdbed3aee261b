// Whether an agent can run a discovery scan of some targets (spec/catalogue.tsv, group discovery, eligibility
// reasons), as one pure evaluation the eligible-agents list and the job checks share: active, its
// local_discovery grant enabled, online (only when asked: a job for an offline agent waits for it),
// its discovery.tcp collector ready, not paused, and the targets inside its scope (the private networks it
// is directly on plus additional_cidrs, minus excluded_cidrs) and under max_addresses_per_job.
import { isOnline } from "../../../agents/control.ts";
import { effectiveGrants } from "../../../domain/agents/capabilities.ts";
import { scopeDetail } from "../../../domain/discovery/scope-detail.ts";
import type { AgentRow } from "../../agents/agent-row.ts";
import { readinessOf } from "../../agents/probe-eligibility.ts";
import { probeScope } from "../../agents/probe-scope.ts";

export type DiscoveryRefusalReason =
  | "agent_missing"
  | "agent_inactive"
  | "capability_disabled"
  | "agent_offline"
  | "readiness_unknown"
  | "readiness_degraded"
  | "readiness_unavailable"
  | "out_of_scope"
  | "paused";

/** The collector the agent must report ready (reference: discovery.tcp is the required one). */
export const DISCOVERY_COLLECTOR = "discovery.tcp";

export interface EligibleDiscoveryAgent {
  agent_id: number;
  name: string | null;
  hostname: string | null;
  online: boolean;
  granted: boolean;
  paused: boolean;
  readiness: string | null;
  readiness_collector: string;
  scope_version: string;
  scope_networks: string[];
  direct_networks: string[];
  excluded_networks: string[];
  max_addresses_per_job: number;
  max_concurrent_hosts: number;
  tcp_ports: number[];
  active_jobs: number;
  assigned_profiles: number;
  in_scope: boolean | null;
  eligible: boolean;
  reason: DiscoveryRefusalReason | null;
  detail: string | null;
}

/** What is asked of the agent: target ranges (null: no targets named) and whether it must be online now. */
export interface DiscoveryAsk {
  targets: string[] | null;
  count: number | null;
  requireOnline: boolean;
}

const numberOf = (v: unknown, fallback: number) => (typeof v === "number" ? v : fallback);

export function evaluateDiscoveryAgent(
  agent: AgentRow,
  ask: DiscoveryAsk,
  counts: { active_jobs: number; assigned_profiles: number },
  now: Date,
): EligibleDiscoveryAgent {
  const grant = effectiveGrants(agent.capabilities).local_discovery;
  const config = grant.config;
  const active = agent.status === "active";
  const online = isOnline(agent, now);
  const readiness = readinessOf(agent.readiness ?? [], DISCOVERY_COLLECTOR);
  const paused = config.auto_discovery_paused === true;
  const direct = probeScope(agent.networks ?? [], {});
  const scope = probeScope(agent.networks ?? [], { excluded_cidrs: config.excluded_cidrs, additional_cidrs: config.additional_cidrs });
  const maxAddresses = numberOf(config.max_addresses_per_job, 1024);
  let detail: string | null = null;
  if (ask.targets) detail = scopeDetail(ask.targets, scope.networks, scope.excluded);
  if (!detail && ask.count !== null && ask.count > maxAddresses) detail = `too_many_addresses:${ask.count}>${maxAddresses}`;
  const inScope = ask.targets ? detail === null : null;
  const checks: [failed: boolean, reason: DiscoveryRefusalReason][] = [
    [!active, "agent_inactive"],
    [!grant.enabled, "capability_disabled"],
    [ask.requireOnline && !online, "agent_offline"],
    [readiness === null, "readiness_unknown"],
    [readiness === "degraded", "readiness_degraded"],
    [readiness !== null && readiness !== "ready" && readiness !== "degraded", "readiness_unavailable"],
    [inScope === false, "out_of_scope"],
    [paused, "paused"],
  ];
  const reason = checks.find(([failed]) => failed)?.[1] ?? null;
  return {
    agent_id: agent.id,
    name: agent.name,
    hostname: agent.hostname,
    online,
    granted: active && grant.enabled,
    paused,
    readiness,
    readiness_collector: DISCOVERY_COLLECTOR,
    scope_version: scope.version,
    scope_networks: scope.networks,
    direct_networks: direct.networks,
    excluded_networks: scope.excluded,
    max_addresses_per_job: maxAddresses,
    max_concurrent_hosts: numberOf(config.max_concurrent_hosts, 64),
    tcp_ports: Array.isArray(config.tcp_ports) ? (config.tcp_ports as number[]) : [],
    active_jobs: counts.active_jobs,
    assigned_profiles: counts.assigned_profiles,
    in_scope: inScope,
    eligible: reason === null,
    reason,
    detail: reason === "out_of_scope" ? detail : null,
  };
}

const MESSAGES: Record<DiscoveryRefusalReason, string> = {
  agent_missing: "The agent does not exist.",
  agent_inactive: "The agent is not active.",
  capability_disabled: "The agent's local_discovery capability is disabled.",
  agent_offline: "The agent is offline.",
  readiness_unknown: "The agent has not reported whether it can scan (discovery.tcp readiness unknown).",
  readiness_degraded: "The agent reports its discovery collector degraded.",
  readiness_unavailable: "The agent reports it cannot scan (discovery.tcp unavailable).",
  out_of_scope: "The targets are outside the agent's discovery scope.",
  paused: "Discovery is paused on this agent.",
};

export function refusalMessage(reason: DiscoveryRefusalReason, detail: string | null): string {
  return detail ? `${MESSAGES[reason]} (${detail})` : MESSAGES[reason];
}
