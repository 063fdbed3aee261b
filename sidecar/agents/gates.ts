// The rate gates of the agent endpoints, checked before the first handshake byte is read: per client
// address, then for everyone. A refusal, and an unavailable counter store too (Redis down: the gates
// cannot count, so they do not admit), closes the socket 1013.
import type { RateLimiter } from "../../shared/ratelimit/limiter.ts";
import type { AgentLinkOptions } from "./options.ts";

export type AgentEndpoint = "enroll" | "link";

/** null when admitted, else the close reason. */
export async function passGates(
  limiter: RateLimiter,
  options: AgentLinkOptions,
  endpoint: AgentEndpoint,
  client: string,
): Promise<string | null> {
  const prefix = `${options.gateKeyPrefix}:${endpoint}`;
  const perIp = await limiter.checkRule(`${prefix}:ip:${client}`, options.gates.perIp);
  if (perIp.unchecked) return "rate_gate_unavailable";
  if (!perIp.allowed) return "rate_limited_ip";
  const global = await limiter.checkRule(`${prefix}:global`, endpoint === "enroll" ? options.gates.enrollGlobal : options.gates.linkGlobal);
  if (global.unchecked) return "rate_gate_unavailable";
  if (!global.allowed) return "rate_limited_global";
  return null;
}
