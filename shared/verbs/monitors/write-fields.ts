// The checks create and PATCH share: the config against the check type (unknown keys named), secrets
// split out and sealed, the target and the probe agent named by the body. Every problem is a 422 in the
// envelope, raised before anything is written.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { agentProbeRuns, agents, type monitors } from "../../db/schema/index.ts";
import { type CheckType, validateConfig } from "../../domain/monitors/config.ts";
import { sourceOf } from "../../domain/monitors/check-types.ts";
import { hostOfTarget } from "../../domain/net/outbound-policy.ts";
import { savedHostRefusal } from "../../net/resolved-host.ts";
import { readMonitorPolicy } from "../integrations/outbound-policy.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { TargetType } from "../../schemas/monitors.ts";
import type { Vault } from "../../vault/vault.ts";
import { OPEN_RUN_STATES } from "../agents/probe-runs.ts";
import { assertVaultWritable } from "../vault/writable.ts";
import type { VerbScope } from "../verb.ts";
import { type MonitorSecrets, sendsSecret, splitSecrets } from "./secrets.ts";
import { findTarget } from "./targets.ts";
import { tellSidecar } from "../agents/notify.ts";

const issue = (loc: (string | number)[], msg: string, type = "invalid"): ValidationIssue => ({ loc: ["body", ...loc], msg, type });

export interface CheckedConfig {
  config: Record<string, unknown>;
  secrets: MonitorSecrets | null;
}

/** Validates `config` for `checkType` and splits its secrets (`previous`: the stored ones, for masks sent back). */
export function checkConfig(checkType: CheckType, config: unknown, previous: MonitorSecrets | null): CheckedConfig {
  const result = validateConfig(checkType, config);
  if (!result.ok) throw ApiError.validation(result.issues.map((i) => issue(["config", ...i.path], i.msg, i.type)));
  const split = splitSecrets(checkType, result.config, previous);
  if (split.issues.length > 0) throw ApiError.validation(split.issues.map((i) => issue(["config", ...i.path], i.msg, i.type)));
  return { config: split.config, secrets: split.secrets };
}

/**
 * A probe type checks its host, so it needs one; a push or group monitor has none (stored as "", which
 * the API answers as it is: docs/adr/0434).
 */
export function checkHost(checkType: CheckType, host: string | undefined, creating: boolean): void {
  const needsHost = sourceOf(checkType) === "probe";
  if (needsHost && (host === "" || (creating && host === undefined)))
    throw ApiError.validation([issue(["host"], `Required for a ${checkType} check.`, "missing")]);
  if (!needsHost && host) throw ApiError.validation([issue(["host"], `A ${checkType} monitor has no host; leave it out.`, "invalid")]);
}

/** Only a probe type is run by an agent: a push or group monitor names none. */
export function checkProbeAgent(checkType: CheckType, probeAgentId: number | null | undefined): void {
  if (probeAgentId != null && sourceOf(checkType) !== "probe")
    throw ApiError.validation([issue(["probe_agent_id"], `A ${checkType} monitor is not probed; leave it out.`, "invalid")]);
}

/**
 * The addresses a monitor's check would reach (its host, an http or websocket check's url, a dns check's resolver)
 * against the monitor policy (monitor_policy): link-local and cloud metadata never, in any spelling.
 * A name is judged by the addresses it resolves to now, and again when the check runs.
 */
export async function checkDestinations(
  s: VerbScope,
  checkType: CheckType,
  fields: { host?: string | undefined; config?: Record<string, unknown> | undefined },
): Promise<void> {
  const places: { loc: (string | number)[]; host: string }[] = [];
  if (fields.host) places.push({ loc: ["host"], host: hostOfTarget(fields.host) });
  const url = fields.config?.url;
  const urlTyped = checkType === "http" || checkType === "websocket";
  if (urlTyped && typeof url === "string") places.push({ loc: ["config", "url"], host: hostOfTarget(url) });
  const resolver = fields.config?.resolver;
  if (checkType === "dns" && typeof resolver === "string") places.push({ loc: ["config", "resolver"], host: resolver });
  if (!places.length) return;
  const policy = await readMonitorPolicy(s.tx);
  const issues: ValidationIssue[] = [];
  for (const { loc, host } of places) {
    const reason = await savedHostRefusal(s.ctx.resolveHost, host, policy);
    if (reason !== null) issues.push(issue(loc, `Not a destination monitors may reach: ${reason}.`, "value_error"));
  }
  if (issues.length > 0) throw ApiError.validation(issues);
}

/** Refuses a new secret while the vault cannot write (no key, a wrong key, a rotation pending). */
export async function vaultReadyFor(
  s: VerbScope,
  vault: Vault,
  checkType: CheckType,
  config: Record<string, unknown> | undefined,
): Promise<void> {
  if (config && sendsSecret(checkType, config)) await assertVaultWritable(s.tx, vault, s.now);
}

/** The target named (type and id together; `ip` needs no row) and the probe agent exist. */
export async function checkRefs(
  db: Db,
  refs: { target_type: TargetType | null; target_id: number | null; probe_agent_id: number | null },
): Promise<void> {
  const issues: ValidationIssue[] = [];
  if (refs.target_id != null && refs.target_type == null) issues.push(issue(["target_type"], "Give target_type with target_id."));
  if (refs.target_type != null && refs.target_type !== "ip") {
    if (refs.target_id == null) issues.push(issue(["target_id"], `Give target_id with target_type ${refs.target_type}.`));
    else if (!(await findTarget(db, refs.target_type, refs.target_id)))
      issues.push(issue(["target_id"], `There is no ${refs.target_type} ${refs.target_id}.`, "not_found"));
  }
  if (refs.probe_agent_id != null) {
    const [agent] = await db.select({ id: agents.id, status: agents.status }).from(agents).where(eq(agents.id, refs.probe_agent_id));
    if (!agent) issues.push(issue(["probe_agent_id"], `There is no agent ${refs.probe_agent_id}.`, "not_found"));
    else if (agent.status === "rejected" || agent.status === "revoked")
      issues.push(issue(["probe_agent_id"], `Agent ${agent.id} is ${agent.status}.`));
  }
  if (issues.length > 0) throw ApiError.validation(issues);
}

/** Cancels the monitor's queued and in-flight probe runs (error_code: why); the sidecar drops their late answers. */
export async function cancelOpenRuns(s: VerbScope, monitorId: number, errorCode: string): Promise<number> {
  const cancelled = await s.tx
    .update(agentProbeRuns)
    .set({ state: "cancelled", finished_at: s.now, msg: `cancelled: ${errorCode}`, details: { error_code: errorCode } })
    .where(and(eq(agentProbeRuns.monitor_id, monitorId), inArray(agentProbeRuns.state, [...OPEN_RUN_STATES])))
    .returning({ run_id: agentProbeRuns.run_id, agent_id: agentProbeRuns.agent_id });
  // The sidecar holding each agent's link sends probe.cancel for the runs it had sent out.
  for (const agentId of new Set(cancelled.map((r) => r.agent_id))) tellSidecar(s, agentId, "probe");
  return cancelled.length;
}

/** Clears the probe execution fields a new assignment makes stale. */
export const PROBE_RESET = { probe_execution_status: null, probe_execution_reason: null } satisfies Partial<typeof monitors.$inferInsert>;
