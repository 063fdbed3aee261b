// /monitors/target/{target_type}/{target_id}: create the target's monitor (idempotent per target and check
// type: the existing one is answered unchanged), and pause, resume or check every monitor of a target.
import { and, asc, eq, sql } from "drizzle-orm";
import { monitors } from "../../db/schema/index.ts";
import { type CheckType, DEFAULT_INTERVAL_SECS, sourceOf } from "../../domain/monitors/check-types.ts";
import { ApiError } from "../../errors.ts";
import type { MonitorReadShape, TargetType } from "../../schemas/monitors.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { insertMonitor } from "./create-monitor.ts";
import { checkRow, pauseRow, resumeRow } from "./lifecycle.ts";
import type { MonitorRow } from "./monitor-row.ts";
import { presentMonitor } from "./present.ts";
import { WRITE_MONITORS } from "./scopes.ts";
import { issuePushToken } from "./push/issue-token.ts";
import { pushTokenHash } from "./push/token.ts";
import { defaultMonitor, findTarget } from "./targets.ts";
import { vaultOf } from "../verb-context.ts";

export interface TargetRef {
  target_type: TargetType;
  target_id: number;
}

const NO_TARGET = "Target not found or has no address to probe";

/** The target's monitor of that type; a new push monitor's token too, answered this once (docs/adr/0439). */
export const createTargetMonitor = defineVerb<
  TargetRef & { check_type?: CheckType | undefined; config?: Record<string, unknown> | undefined },
  { created: boolean; monitor: MonitorReadShape; push_token: string | null }
>({ scope: WRITE_MONITORS }, async (s, input) => {
  if (input.check_type && sourceOf(input.check_type) === "derived")
    throw ApiError.validation([
      { loc: ["body", "check_type"], msg: `A ${input.check_type} monitor is judged from its members, not from a target.`, type: "invalid" },
    ]);
  const target = await findTarget(s.tx, input.target_type, input.target_id);
  const plan = target && defaultMonitor(input.target_type, target, input.check_type);
  if (!target || !plan) throw new ApiError("RESOURCE_NOT_FOUND", `${NO_TARGET}: ${input.target_type} ${input.target_id}.`);
  // Serialises creates for one target, so two concurrent requests make one monitor.
  await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`monitor-target:${input.target_type}:${input.target_id}`}))`);
  const [existing] = await s.tx
    .select()
    .from(monitors)
    .where(
      and(eq(monitors.target_type, input.target_type), eq(monitors.target_id, input.target_id), eq(monitors.check_type, plan.check_type)),
    )
    .orderBy(asc(monitors.id))
    .limit(1);
  if (existing) return { created: false, monitor: await presentMonitor(s.tx, existing, s.now), push_token: null };
  const row = await insertMonitor(s, vaultOf(s.ctx), {
    name: `${target.label} (${plan.check_type})`.slice(0, 200),
    check_type: plan.check_type,
    host: plan.host,
    config: input.config ?? plan.config,
    interval_secs: DEFAULT_INTERVAL_SECS,
    max_retries: 0,
    retry_interval_secs: null,
    enabled: true,
    target_type: input.target_type,
    target_id: input.target_id,
    probe_agent_id: null,
  });
  const push_token = sourceOf(row.check_type) === "push" ? await issuePushToken(s, row.id) : null;
  const monitor = await presentMonitor(s.tx, push_token ? { ...row, push_token_hash: pushTokenHash(push_token) } : row, s.now);
  return { created: true, monitor, push_token };
});

const eachTargetMonitor = (step: (s: VerbScope, row: MonitorRow) => Promise<MonitorRow>) =>
  defineVerb<TargetRef, { status: "ok" }>({ scope: WRITE_MONITORS }, async (s, { target_type, target_id }) => {
    const rows = await s.tx
      .select()
      .from(monitors)
      .where(and(eq(monitors.target_type, target_type), eq(monitors.target_id, target_id)))
      .orderBy(asc(monitors.id))
      .for("update");
    if (rows.length === 0) throw new ApiError("RESOURCE_NOT_FOUND", `Monitor not found: ${target_type} ${target_id} has no monitors.`);
    for (const row of rows) await step(s, row);
    return { status: "ok" };
  });

export const pauseTargetMonitors = eachTargetMonitor(pauseRow);
export const resumeTargetMonitors = eachTargetMonitor(resumeRow);
// A paused monitor among them is skipped rather than refusing the whole target.
export const checkTargetMonitors = eachTargetMonitor((s, row) => (row.enabled ? checkRow(s, row) : Promise.resolve(row)));
