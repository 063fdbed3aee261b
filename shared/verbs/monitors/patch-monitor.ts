// PATCH /monitors/{id}: only the fields given change; check_type cannot (422 when a different one is
// sent); a config is validated against the stored type and replaces the stored one (masks sent back keep
// their secrets). A new probe agent cancels the runs in flight (monitor_reassigned), as does disabling
// (monitor_paused); enabling makes the monitor due now (a push monitor: its deadline counted from now). The row is written by the resource engine's row
// steps (resources/update-row.ts): If-Match against the monitor's version (its updated_at in epoch ms,
// which only writes by users move, docs/adr/0105), nothing written when nothing changes, the audit entry
// monitors.update with the before/after diff of the audit view.
import { canonicalJson } from "../../audit/canonical.ts";
import type { monitors } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { MonitorPatchInput, MonitorReadShape, TargetType } from "../../schemas/monitors.ts";
import type { Vault } from "../../vault/vault.ts";
import { updateRow } from "../resources/update-row.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { findMonitor, monitorKind, type MonitorRow } from "./monitor-row.ts";
import { checkVantage } from "./vantage-fields.ts";
import { evaluateGroups } from "./groups/evaluate.ts";
import { checkMembership } from "./groups/membership.ts";
import { announceMonitor, wakeRunner } from "./notify.ts";
import { presentMonitor } from "./present.ts";
import { WRITE_MONITORS } from "./scopes.ts";
import { openSecrets, sealSecrets, sendsMask, sendsSecret } from "./secrets.ts";
import {
  cancelOpenRuns,
  checkConfig,
  checkDestinations,
  checkHost,
  checkProbeAgent,
  checkRefs,
  PROBE_RESET,
  vaultReadyFor,
} from "./write-fields.ts";
import { vaultOf } from "../verb-context.ts";
import { sourceOf } from "../../domain/monitors/check-types.ts";
import { firstDueAt } from "./push/deadline.ts";

type Changes = Partial<typeof monitors.$inferInsert>;

/** The column values a patch writes, checked against the row as it is; `secretsChanged`: a new secret sent, or secrets gone or appeared. */
async function patchValues(
  s: VerbScope,
  vault: Vault,
  before: MonitorRow,
  patch: MonitorPatchInput,
): Promise<{ values: Changes; secretsChanged: boolean }> {
  const { id } = before;
  const { check_type, config: newConfig, ...fields } = patch;
  if (check_type !== undefined && check_type !== before.check_type)
    throw ApiError.validation([
      {
        loc: ["body", "check_type"],
        msg: `check_type cannot be changed (it is ${before.check_type}); create a new monitor.`,
        type: "read_only",
      },
    ]);

  const values: Changes = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  checkHost(before.check_type, values.host, false);
  checkProbeAgent(before.check_type, values.probe_agent_id);
  let secretsChanged = false;
  if (newConfig !== undefined) {
    await vaultReadyFor(s, vault, before.check_type, newConfig);
    const previous = sendsMask(before.check_type, newConfig) ? await openSecrets(vault, id, before.secret_config) : null;
    const checked = checkConfig(before.check_type, newConfig, previous);
    values.config = checked.config;
    // A mask sent back changes nothing: the sealed secrets are written only with a changed config or changed secrets.
    secretsChanged = sendsSecret(before.check_type, newConfig) || (before.secret_config != null) !== (checked.secrets != null);
    if (secretsChanged || canonicalJson(checked.config) !== canonicalJson(before.config))
      values.secret_config = checked.secrets ? await sealSecrets(vault, id, checked.secrets) : null;
  }
  // Only what the patch sends: a host saved before the policy tightened is refused when the check runs.
  await checkDestinations(s, before.check_type, { host: values.host, config: newConfig === undefined ? undefined : values.config });
  const given = <K extends "target_type" | "target_id" | "probe_agent_id" | "group_id">(k: K) =>
    values[k] !== undefined && values[k] !== before[k];
  // Only what changes is checked: a target deleted since does not block renaming its monitor.
  if (given("target_type") || given("target_id") || given("probe_agent_id"))
    await checkRefs(s.tx, {
      target_type: (values.target_type !== undefined ? values.target_type : before.target_type) as TargetType | null,
      target_id: values.target_id !== undefined ? values.target_id : before.target_id,
      probe_agent_id: given("probe_agent_id") ? (values.probe_agent_id ?? null) : null,
    });
  const vantageGiven = (["vantage_agent_ids", "vantage_sidecar", "quorum", "probe_agent_id"] as const).some((k) => values[k] !== undefined);
  if (vantageGiven) {
    const pick = <K extends "vantage_agent_ids" | "vantage_sidecar" | "quorum" | "probe_agent_id">(k: K) =>
      (values[k] !== undefined ? values[k] : before[k]) as MonitorRow[K];
    const agentsChanged =
      values.vantage_agent_ids !== undefined && canonicalJson(values.vantage_agent_ids) !== canonicalJson(before.vantage_agent_ids);
    await checkVantage(
      s.tx,
      before.check_type,
      {
        vantage_agent_ids: pick("vantage_agent_ids"),
        vantage_sidecar: pick("vantage_sidecar"),
        quorum: pick("quorum"),
        probe_agent_id: pick("probe_agent_id"),
      },
      agentsChanged,
    );
  }
  if (given("group_id") && values.group_id != null) await checkMembership(s, id, values.group_id);
  // A new probe agent starts with no execution status; enabling makes the monitor due now.
  if (given("probe_agent_id")) Object.assign(values, PROBE_RESET);
  const config = values.config ?? before.config;
  const interval_secs = values.interval_secs ?? before.interval_secs;
  const resumed = values.enabled === true && !before.enabled;
  // A push monitor's deadline is counted afresh under a new expectation too.
  const expectationChanged =
    sourceOf(before.check_type) === "push" &&
    (interval_secs !== before.interval_secs || canonicalJson(config) !== canonicalJson(before.config));
  if (resumed || (expectationChanged && (values.enabled ?? before.enabled)))
    values.next_check_at = firstDueAt({ check_type: before.check_type, config, interval_secs }, s.now);
  return { values, secretsChanged };
}

export const patchMonitor = defineVerb<{ id: number; patch: MonitorPatchInput; ifMatch?: number | undefined }, MonitorReadShape>(
  { scope: WRITE_MONITORS },
  async (s, { id, patch, ifMatch }) => {
    const vault = vaultOf(s.ctx);
    let secretsChanged = false;
    const after = await updateRow(
      s,
      monitorKind,
      { id, ifMatch },
      {
        skipUnchanged: true,
        async values(before) {
          const planned = await patchValues(s, vault, before, patch);
          secretsChanged = planned.secretsChanged;
          return planned.values;
        },
        async after(before, row, changed) {
          // Leaving a vantage agent out cancels its runs too (their answers would be ignored anyway).
          const reassigned =
            row.probe_agent_id !== before.probe_agent_id || before.vantage_agent_ids.some((a) => !row.vantage_agent_ids.includes(a));
          const disabling = before.enabled && !row.enabled;
          const cancelled = reassigned
            ? await cancelOpenRuns(s, id, "monitor_reassigned")
            : disabling
              ? await cancelOpenRuns(s, id, "monitor_paused")
              : 0;
          announceMonitor(s, id, "updated", { fields: secretsChanged && !changed.includes("config") ? [...changed, "config"] : changed });
          wakeRunner(s, [id], "updated");
          // The groups it left, joined or stopped (or started) counting in; a group whose rule changed or that resumed.
          const moved = row.group_id !== before.group_id || row.enabled !== before.enabled;
          const regroup = row.check_type === "group" && (changed.includes("config") || (row.enabled && !before.enabled));
          await evaluateGroups(s, [...(moved ? [before.group_id, row.group_id] : []), ...(regroup ? [row.id] : [])]);
          return { ...(secretsChanged ? { secrets_changed: true } : {}), ...(cancelled > 0 ? { cancelled_runs: cancelled } : {}) };
        },
      },
    );
    // Read again: a group's evaluation above may have moved its status.
    return presentMonitor(s.tx, (await findMonitor(s.tx, id)) ?? after, s.now);
  },
);
