// PATCH /monitors/{id}: only the fields given change; check_type cannot (422 when a different one is
// sent); a config is validated against the stored type and replaces the stored one (masks sent back keep
// their secrets). A new probe agent cancels the runs in flight (monitor_reassigned), as does disabling
// (monitor_paused); enabling makes the monitor due now. With If-Match, a monitor changed since the
// caller read it is a 412: its version is updated_at in epoch milliseconds, which only writes by users
// move (patch, pause, resume; the runner's results do not), so a check between read and write is no conflict.
import { eq } from "drizzle-orm";
import { monitors } from "../../db/schema/index.ts";
import type { CheckType } from "../../domain/monitors/config.ts";
import { ApiError } from "../../errors.ts";
import type { MonitorPatchInput, MonitorReadShape, TargetType } from "../../schemas/monitors.ts";
import { defineVerb } from "../verb.ts";
import { auditView } from "./create-monitor.ts";
import { requireMonitor } from "./monitor-row.ts";
import { announceMonitor, auditMonitor, wakeRunner } from "./notify.ts";
import { presentMonitor } from "./present.ts";
import { WRITE_MONITORS } from "./scopes.ts";
import { openSecrets, sealSecrets, sendsMask, sendsSecret } from "./secrets.ts";
import { cancelOpenRuns, checkConfig, checkDestinations, checkRefs, PROBE_RESET, vaultReadyFor } from "./write-fields.ts";
import { vaultOf } from "../verb-context.ts";

type Changes = Partial<typeof monitors.$inferInsert>;

/** The version a client sends back in If-Match (and is given in ETag). */
export const monitorVersion = (row: { updated_at: Date }) => row.updated_at.getTime();

export const patchMonitor = defineVerb<{ id: number; patch: MonitorPatchInput; ifMatch?: number | undefined }, MonitorReadShape>({ scope: WRITE_MONITORS }, async (s, { id, patch, ifMatch }) => {
  const vault = vaultOf(s.ctx);
  const before = await requireMonitor(s.tx, id, { forUpdate: true });
  if (ifMatch !== undefined && ifMatch !== monitorVersion(before))
    throw new ApiError("PRECONDITION_FAILED", `Monitor ${id} changed since it was read (it was last changed at ${before.updated_at.toISOString()}).`);
  const { check_type, config: newConfig, ...fields } = patch;
  if (check_type !== undefined && check_type !== before.check_type)
    throw ApiError.validation([{ loc: ["body", "check_type"], msg: `check_type cannot be changed (it is ${before.check_type}); create a new monitor.`, type: "read_only" }]);

  const values: Changes = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  let secretsChanged = false;
  if (newConfig !== undefined) {
    await vaultReadyFor(s, vault, before.check_type === "http" ? newConfig : undefined);
    const previous = before.check_type === "http" && sendsMask(newConfig) ? await openSecrets(vault, id, before.secret_config) : null;
    const checked = checkConfig(before.check_type, newConfig, previous);
    values.config = checked.config;
    const sealed = checked.secrets ? await sealSecrets(vault, id, checked.secrets) : null;
    // A new value sent, or secrets gone or appeared (a mask sent back changes nothing).
    secretsChanged = sendsSecret(newConfig) || (before.secret_config != null) !== (checked.secrets != null);
    values.secret_config = sealed;
  }
  // Only what the patch sends: a host saved before the policy tightened is refused when the check runs.
  await checkDestinations(s, before.check_type, { host: values.host, config: newConfig === undefined ? undefined : (values.config as Record<string, unknown>) });
  const merged = {
    target_type: (values.target_type !== undefined ? values.target_type : before.target_type) as TargetType | null,
    target_id: values.target_id !== undefined ? values.target_id : before.target_id,
    probe_agent_id: values.probe_agent_id !== undefined ? values.probe_agent_id : before.probe_agent_id,
  };
  // Only what changes is checked: a target deleted since does not block renaming its monitor.
  const refsChanged = (["target_type", "target_id", "probe_agent_id"] as const).some((k) => values[k] !== undefined && values[k] !== before[k]);
  if (refsChanged) await checkRefs(s.tx, { ...merged, probe_agent_id: values.probe_agent_id !== undefined && values.probe_agent_id !== before.probe_agent_id ? merged.probe_agent_id : null });

  const changed = (Object.keys(values) as (keyof Changes)[]).filter((k) =>
    k === "config" ? JSON.stringify(values.config) !== JSON.stringify(before.config) || secretsChanged : k === "secret_config" ? false : values[k] !== before[k as keyof typeof before],
  );
  if (changed.length === 0) return presentMonitor(s.tx, before, s.now);

  const reassigned = changed.includes("probe_agent_id");
  const enabling = values.enabled === true && !before.enabled;
  const set: Changes = { ...values, updated_at: s.now, ...(reassigned ? PROBE_RESET : {}), ...(enabling ? { next_check_at: s.now } : {}) };
  if (!changed.includes("config")) delete set.secret_config;
  const disabling = values.enabled === false && before.enabled;
  const cancelled = reassigned ? await cancelOpenRuns(s, id, "monitor_reassigned") : disabling ? await cancelOpenRuns(s, id, "monitor_paused") : 0;
  const [after] = await s.tx.update(monitors).set(set).where(eq(monitors.id, id)).returning();
  const b = auditView(before) as Record<string, unknown>;
  const a = auditView(after!) as Record<string, unknown>;
  auditMonitor(s, "update", id, {
    before: Object.fromEntries(changed.map((k) => [k, b[k]])),
    after: Object.fromEntries(changed.map((k) => [k, a[k]])),
    ...(secretsChanged ? { secrets_changed: true } : {}),
    ...(cancelled > 0 ? { cancelled_runs: cancelled } : {}),
  });
  announceMonitor(s, id, "updated", { fields: changed });
  wakeRunner(s, [id], "updated");
  return presentMonitor(s.tx, after!, s.now);
});
