// The Linux capabilities the agent's service is given: only those the probes the agent runs need
// (docs/adr/0432-agent-installer-host-layout.md). A check type the agent runs is one whose registry entry
// lists "agent" among its runners; today icmp is sidecar-only (the reference agent gets no raw sockets:
// agent/probes/readiness.ts), so the installed service gets no capability at all.
import { CHECK_TYPE_REGISTRY, CHECK_TYPES, type CheckType } from "../domain/monitors/check-types.ts";

/** What each check type needs beyond an unprivileged process. */
export const PROBE_CAPABILITIES: Partial<Record<CheckType, readonly string[]>> = { icmp: ["CAP_NET_RAW"] };

/** The capabilities the agent's probes need, sorted, without repeats. */
export function agentCapabilities(): string[] {
  const caps = new Set<string>();
  for (const type of CHECK_TYPES)
    if (CHECK_TYPE_REGISTRY[type].runners.includes("agent")) for (const c of PROBE_CAPABILITIES[type] ?? []) caps.add(c);
  return [...caps].sort();
}
