// Agents' discovery over HTTP: GET /discovery/eligible-agents (spec/catalogue.tsv, group discovery
// EligibleDiscoveryAgent), GET /agents/{agent_id}/discovery and its pause / resume.
import * as v from "valibot";
import { ScanJobOut } from "./discovery.ts";

export const EligibleAgentsQuery = v.object({
  cidr: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64, "At most 64 characters."))),
});

export const EligibleDiscoveryAgent = v.object({
  agent_id: v.number(),
  name: v.nullable(v.string()),
  hostname: v.nullable(v.string()),
  online: v.boolean(),
  granted: v.boolean(),
  paused: v.boolean(),
  readiness: v.nullable(v.string()),
  readiness_collector: v.string(),
  scope_version: v.string(),
  scope_networks: v.array(v.string()),
  direct_networks: v.array(v.string()),
  excluded_networks: v.array(v.string()),
  max_addresses_per_job: v.number(),
  max_concurrent_hosts: v.number(),
  tcp_ports: v.array(v.number()),
  active_jobs: v.number(),
  assigned_profiles: v.number(),
  in_scope: v.nullable(v.boolean()),
  eligible: v.boolean(),
  reason: v.nullable(v.string()),
  detail: v.nullable(v.string()),
});
export const EligibleAgentList = v.array(EligibleDiscoveryAgent);

/** One agent's discovery: its eligibility (no targets named), pause, and its latest jobs. */
export const AgentDiscoveryOut = v.object({
  ...EligibleDiscoveryAgent.entries,
  paused_globally: v.boolean(),
  recent_jobs: v.array(ScanJobOut),
});
export type AgentDiscoveryOut = v.InferInput<typeof AgentDiscoveryOut>;
