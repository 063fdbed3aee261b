// DELETE /monitors/{id}, pause, resume and "check now", one monitor at a time; the target-scoped forms
// (target-monitors.ts) apply the same steps to each monitor of a target.
import { and, eq } from "drizzle-orm";
import { agentProbeRuns, monitors } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { MonitorReadShape } from "../../schemas/monitors.ts";
import { findAgent } from "../agents/agent-row.ts";
import { evaluateProbeAgent } from "../agents/probe-eligibility.ts";
import { openRunCount, openRunsOf } from "../agents/probe-runs.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { auditView, findMonitor, type MonitorRow, requireMonitor } from "./monitor-row.ts";
import { evaluateGroups } from "./groups/evaluate.ts";
import { announceMonitor, auditMonitor, recordUserEvent, wakeRunner } from "./notify.ts";
import { followMonitors } from "./node-status.ts";
import { presentMonitor } from "./present.ts";
import { DELETE_MONITORS, WRITE_MONITORS } from "./scopes.ts";
import { cancelOpenRuns } from "./write-fields.ts";
import { sourceOf } from "../../domain/monitors/check-types.ts";
import { firstDueAt } from "./push/deadline.ts";

/** Pause: disabled, an event `paused`, open probe runs cancelled. Already paused: nothing changes. */
export async function pauseRow(s: VerbScope, before: MonitorRow): Promise<MonitorRow> {
  if (!before.enabled) return before;
  const cancelled = await cancelOpenRuns(s, before.id, "monitor_paused");
  const [after] = await s.tx
    .update(monitors)
    .set({ enabled: false, claimed_by: null, claimed_at: null, updated_at: s.now })
    .where(eq(monitors.id, before.id))
    .returning();
  await recordUserEvent(s, before, "paused", before.status, "paused by user");
  auditMonitor(s, "pause", before.id, { enabled: { before: true, after: false }, ...(cancelled > 0 ? { cancelled_runs: cancelled } : {}) });
  announceMonitor(s, before.id, "paused");
  wakeRunner(s, [before.id], "paused");
  // A paused member no longer counts in its group, nor in what the node it watches is.
  await evaluateGroups(s, [before.group_id]);
  await followMonitorsOf(s, before);
  return after!;
}

/** Resume: enabled and due now (a push monitor: its deadline counted from now), an event `resumed`. Already enabled: nothing changes. */
export async function resumeRow(s: VerbScope, before: MonitorRow): Promise<MonitorRow> {
  if (before.enabled) return before;
  const [after] = await s.tx
    .update(monitors)
    .set({ enabled: true, next_check_at: firstDueAt(before, s.now), updated_at: s.now })
    .where(eq(monitors.id, before.id))
    .returning();
  await recordUserEvent(s, before, "resumed", before.status || "pending", "resumed by user");
  auditMonitor(s, "resume", before.id, { enabled: { before: false, after: true } });
  announceMonitor(s, before.id, "resumed");
  wakeRunner(s, [before.id], "resumed");
  // It counts in its group again (with its last status until its next result); a resumed group is judged now.
  await evaluateGroups(s, [before.group_id, before.check_type === "group" ? before.id : null]);
  // And in what the node it watches is, likewise.
  await followMonitorsOf(s, before);
  return (await findMonitor(s.tx, before.id)) ?? after!;
}

/**
 * Check now: due now, and the runner woken. A paused monitor is refused (409 monitor_paused: the runner
 * only runs enabled monitors), and so is a push or group monitor (409 not_probed: nothing probes it). An agent-probed monitor is refused with the agent's reason when the agent
 * cannot take the probe now (previous_run_in_flight, agent_offline, ...).
 */
export async function checkRow(s: VerbScope, before: MonitorRow): Promise<MonitorRow> {
  if (!before.enabled) throw ApiError.conflict(`Monitor ${before.id} is paused; resume it to check it.`, { reason: "monitor_paused" });
  // The runner never claims a group: checking it is judging it by its members now.
  if (before.check_type === "group") {
    await evaluateGroups(s, [before.id]);
    auditMonitor(s, "check", before.id, { judged_at: s.now.toISOString() });
    return (await findMonitor(s.tx, before.id)) ?? before;
  }
  if (sourceOf(before.check_type) !== "probe")
    throw ApiError.conflict(`Monitor ${before.id} is a ${before.check_type} monitor: nothing checks it, its results come to it.`, {
      reason: "not_probed",
    });
  if (before.probe_agent_id != null) {
    const agent = await findAgent(s.tx, before.probe_agent_id);
    const [open] = await s.tx
      .select({ run_id: agentProbeRuns.run_id })
      .from(agentProbeRuns)
      .where(and(openRunsOf(before.probe_agent_id), eq(agentProbeRuns.monitor_id, before.id)))
      .limit(1);
    const reason = !agent
      ? "agent_missing"
      : open
        ? "previous_run_in_flight"
        : evaluateProbeAgent(agent, { check_type: before.check_type, host: before.host }, await openRunCount(s.tx, agent.id), s.now).reason;
    if (reason)
      throw ApiError.conflict(`Monitor ${before.id} cannot be checked through agent ${before.probe_agent_id} now: ${reason}.`, { reason });
  }
  const [after] = await s.tx.update(monitors).set({ next_check_at: s.now }).where(eq(monitors.id, before.id)).returning();
  auditMonitor(s, "check", before.id, { next_check_at: s.now.toISOString() });
  announceMonitor(s, before.id, "check_requested");
  wakeRunner(s, [before.id], "check_requested");
  return after!;
}

const oneMonitor = (step: (s: VerbScope, row: MonitorRow) => Promise<MonitorRow>) =>
  defineVerb<{ id: number }, MonitorReadShape>({ scope: WRITE_MONITORS }, async (s, { id }) =>
    presentMonitor(s.tx, await step(s, await requireMonitor(s.tx, id, { forUpdate: true })), s.now),
  );

export const pauseMonitor = oneMonitor(pauseRow);
export const resumeMonitor = oneMonitor(resumeRow);
export const checkMonitor = oneMonitor(checkRow);

/** DELETE: its events, samples and buckets go with it; its open probe runs are cancelled (monitor_deleted). */
export const deleteMonitor = defineVerb<{ id: number }, void>({ scope: DELETE_MONITORS }, async (s, { id }) => {
  const before = await requireMonitor(s.tx, id, { forUpdate: true });
  const cancelled = await cancelOpenRuns(s, id, "monitor_deleted");
  await s.tx.delete(monitors).where(eq(monitors.id, id));
  auditMonitor(s, "delete", id, { before: auditView(before), ...(cancelled > 0 ? { cancelled_runs: cancelled } : {}) });
  announceMonitor(s, id, "deleted");
  wakeRunner(s, [id], "deleted");
  // Its group is judged without it (a deleted group's members simply leave it: group_id set null).
  await evaluateGroups(s, [before.group_id]);
  await followMonitorsOf(s, before);
});

/** The hardware node `m` watched takes what its other monitors say (docs/adr/0466). */
async function followMonitorsOf(s: VerbScope, m: MonitorRow): Promise<void> {
  if (m.target_type === "hardware" && m.target_id != null) await followMonitors(s, [m.target_id]);
}
