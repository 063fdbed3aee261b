// The discovery collectors the reference agent reports (the server requires discovery.tcp ready before
// it sends a scan): TCP connect always; ICMP through the system ping (no raw socket in Node), so ready
// only where a ping executable is found.
import { existsSync } from "node:fs";
import type { ReadinessPayload } from "../../shared/agents/payloads.ts";

const PING_PATHS = ["/usr/bin/ping", "/bin/ping", "/usr/sbin/ping", "/sbin/ping"];

export function pingPath(): string | undefined {
  return PING_PATHS.find((p) => existsSync(p));
}

export function discoveryReadiness(): ReadinessPayload[] {
  const ping = pingPath();
  return [
    { collector: "discovery.tcp", state: "ready", reason: null, remediation: null, missing: [] },
    ping
      ? { collector: "discovery.icmp", state: "ready", reason: null, remediation: null, missing: [] }
      : {
          collector: "discovery.icmp",
          state: "unavailable",
          reason: "no ping executable found",
          remediation: "install iputils-ping",
          missing: ["ping"],
        },
  ];
}
