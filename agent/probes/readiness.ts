// The probe collectors the reference agent reports in its hello (the sidecar checks probe.<check_type>
// before it assigns a probe): ready for each check type whose registry entry lists the agent among its
// runners, unavailable for the others. ICMP needs raw sockets (root or CAP_NET_RAW), which a Node process
// does not get portably, so it is reported unavailable and answered with execution_error if assigned anyway.
import type { ReadinessPayload } from "../../shared/agents/payloads.ts";
import { CHECK_TYPE_REGISTRY, PROBE_CHECK_TYPES } from "../../shared/domain/monitors/check-types.ts";

export const UNSUPPORTED = "not supported by this agent";

/** What a type this agent cannot run would need. */
const MISSING: Partial<Record<string, string[]>> = { icmp: ["raw sockets"] };

export const PROBE_READINESS: ReadinessPayload[] = PROBE_CHECK_TYPES.map((type) =>
  CHECK_TYPE_REGISTRY[type].runners.includes("agent")
    ? { collector: `probe.${type}`, state: "ready", reason: null, remediation: null, missing: [] }
    : {
        collector: `probe.${type}`,
        state: "unavailable",
        reason: `${type} is ${UNSUPPORTED}`,
        remediation: `use the Go agent for ${type} checks`,
        missing: MISSING[type] ?? [],
      },
);
