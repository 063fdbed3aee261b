// The probe collectors the reference agent reports in its hello (the sidecar checks probe.<check_type>
// before it assigns a probe). ICMP needs raw sockets (root or CAP_NET_RAW), which a Node process does not
// get portably, so it is reported unavailable and answered with execution_error if assigned anyway.
import type { ReadinessPayload } from "../../shared/agents/payloads.ts";

export const ICMP_UNSUPPORTED = "not supported by this agent";

const ready = (collector: string): ReadinessPayload => ({ collector, state: "ready", reason: null, remediation: null, missing: [] });

export const PROBE_READINESS: ReadinessPayload[] = [
  ready("probe.tcp"),
  ready("probe.http"),
  ready("probe.dns"),
  { collector: "probe.icmp", state: "unavailable", reason: `icmp is ${ICMP_UNSUPPORTED}`, remediation: "use the Go agent for icmp checks", missing: ["raw sockets"] },
];
