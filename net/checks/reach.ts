// What a monitor's check may reach (the monitor_policy setting, ADR 0331): judged before the check runs
// and again on the address each connection resolves to. IP literals in any spelling are classified
// here; a tcp or http connection to a name goes through a lookup that drops refused addresses (so DNS
// rebinding cannot pass); ping resolves outside Node, so an icmp check pings the one address pinned here.
import { checkOutboundHost, DEFAULT_MONITOR_POLICY, hostOfTarget, type OutboundPolicy } from "../../shared/domain/net/outbound-policy.ts";
import { OutboundError } from "../../shared/net/outbound.ts";
import { pinAllowedAddress, policyLookup, type Resolve } from "../outbound-http.ts";
import type { CheckSpec, Reach } from "./result.ts";

export type { Reach };

export interface ReachOptions {
  /** The monitor policy in force (default: private and loopback allowed). */
  policy?: OutboundPolicy;
  /** Replaces the system resolver (tests: a name that resolves to a refused address). */
  resolve?: Resolve;
}

/** The spec to run (an icmp check's host pinned to an allowed address), or why the check may not run. */
export async function gateCheck(spec: CheckSpec, options: ReachOptions): Promise<{ spec: CheckSpec } | { refused: string }> {
  const policy = options.policy ?? DEFAULT_MONITOR_POLICY;
  const reach: Reach = { policy, lookup: policyLookup(policy, options.resolve) };
  const refused = (reason: string) => ({ refused: `refused by the monitor policy: ${reason}` });
  const hosts = [hostOfTarget(spec.host)];
  const urlTyped = spec.check_type === "http" || spec.check_type === "websocket";
  if (urlTyped && typeof spec.config.url === "string") hosts.push(hostOfTarget(spec.config.url));
  if (spec.check_type === "dns" && typeof spec.config.resolver === "string") hosts.push(spec.config.resolver);
  for (const host of hosts) {
    const reason = checkOutboundHost(host, policy);
    if (reason !== null) return refused(reason);
  }
  if (spec.check_type !== "icmp") return { spec: { ...spec, reach } };
  try {
    return { spec: { ...spec, host: await pinAllowedAddress(spec.host, policy, options.resolve) } };
  } catch (e) {
    if (e instanceof OutboundError && e.code === "refused") return refused(e.message.replace(/\.$/, ""));
    // A name that does not resolve: ping would say the same; let the check report it as it does.
    return { spec };
  }
}
