// The agent's own check of a discovery.request against its grant (the server checked too; the agent
// does not trust it blindly): every target inside the private networks it is directly on plus the
// grant's additional_cidrs, outside its excluded_cidrs, and no more addresses than max_addresses_per_job.
import type { NetworkPayload } from "../../shared/agents/payloads.ts";
import { parseTargets, type TargetSet } from "../../shared/domain/discovery/targets.ts";
import { scopeDetail } from "../../shared/domain/discovery/scope-detail.ts";
import { probeScope } from "../../shared/verbs/agents/probe-scope.ts";

export type ScopeCheck = { ok: true; targets: TargetSet } | { ok: false; code: "out_of_scope" | "invalid_request"; msg: string };

export function checkScope(targets: string[], exclude: string[], networks: NetworkPayload[], config: Record<string, unknown>): ScopeCheck {
  const max = typeof config.max_addresses_per_job === "number" ? config.max_addresses_per_job : 1024;
  const parsed = parseTargets({ targets, exclude, allowed: ["0.0.0.0/0"], cap: max });
  if (!parsed.ok)
    return {
      ok: false,
      code: parsed.message.includes("at most") ? "out_of_scope" : "invalid_request",
      msg: `${parsed.field}: ${parsed.message}`,
    };
  const scope = probeScope(networks, { excluded_cidrs: config.excluded_cidrs, additional_cidrs: config.additional_cidrs });
  const detail = scopeDetail(targets, scope.networks, scope.excluded);
  return detail
    ? { ok: false, code: "out_of_scope", msg: `outside this agent's discovery scope (${detail})` }
    : { ok: true, targets: parsed.value };
}
