// POST /agents/rollouts: a staged rollout of one signed version to a set of agents (docs/adr/0429). The
// version is the one given, else the newest with a signed build; the agents those given (each must exist
// and be active), else every active agent on another version. Each agent gets its own platform's build,
// chosen now and kept on its target; one with no signed build of the version, or already on it, is
// skipped with the reason. The first wave is queued in the same transaction; the rest follow as the
// agents report (progress.ts, sweep.ts). Refused, with nothing created: no builds or no release key
// (400), a version without a signed build or agents not found / not active / nothing to update (422),
// another rollout still running or stopped (409).
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { agentRollouts, agentRolloutTargets } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { ValidationIssue } from "../../../errors.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import type { AgentBinary } from "../binaries.ts";
import { requireOfferable } from "../queue-update.ts";
import { ADMIN_AGENTS } from "../scopes.ts";
import type { OfferSource } from "../update-offer.ts";
import { auditRollout, stepRollout } from "./advance.ts";
import { type Candidate, newestSignedVersion, planTargets } from "./plan.ts";
import { presentRollout, type RolloutReadShape } from "./present.ts";

export interface CreateRolloutInput extends OfferSource {
  version?: string | undefined;
  agent_ids?: number[] | undefined;
  wave_percent: number;
  failure_threshold: number;
  wave_timeout_seconds: number;
}

const INSERT_SLICE = 1000;

const bad = (field: string, msg: string): ApiError => ApiError.validation([{ loc: ["body", field], msg, type: "value_error" }]);
const listed = (ids: readonly number[]) =>
  ids.length > 20 ? `${ids.slice(0, 20).join(", ")} and ${ids.length - 20} more` : ids.join(", ");

function chooseVersion(builds: readonly AgentBinary[], version: string | undefined): string {
  const signed = [...new Set(builds.filter((b) => b.signature).map((b) => b.version))];
  if (version === undefined) {
    const newest = newestSignedVersion(builds);
    if (!newest)
      throw new ApiError(
        "BAD_REQUEST",
        "No agent build on this instance is signed (no <file>.sig beside any): agents would refuse them all. Build with the release key.",
      );
    return newest;
  }
  if (signed.includes(version)) return version;
  const exists = builds.some((b) => b.version === version);
  throw bad(
    "version",
    `${exists ? `No build of version ${version} is signed` : `No agent build of version ${version} on this instance`}; signed versions: ${signed.join(", ") || "none"}.`,
  );
}

async function candidates(s: VerbScope, agentIds: number[] | undefined, version: string): Promise<Candidate[]> {
  const columns = sql`id, hostname, os, arch, agent_version, status`;
  if (agentIds === undefined) {
    const rows = await queryRows<Candidate>(
      s.tx,
      sql`select ${columns} from agents where status = 'active' and agent_version is distinct from ${version} order by id`,
    );
    if (rows.length === 0) throw bad("agent_ids", `No active agent runs a version other than ${version}: nothing to update.`);
    return rows;
  }
  const ids = [...new Set(agentIds)];
  const rows = await queryRows<Candidate & { status: string }>(
    s.tx,
    sql`select ${columns} from agents where id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::int) order by id`,
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  const inactive = rows.filter((r) => r.status !== "active");
  const issues: ValidationIssue[] = [];
  if (missing.length) issues.push({ loc: ["body", "agent_ids"], msg: `No agent with id ${listed(missing)}.`, type: "value_error" });
  if (inactive.length)
    issues.push({
      loc: ["body", "agent_ids"],
      msg: `Only active agents can be updated: ${inactive
        .slice(0, 20)
        .map((r) => `agent ${r.id} is ${r.status}`)
        .join(", ")}${inactive.length > 20 ? ` and ${inactive.length - 20} more` : ""}.`,
      type: "value_error",
    });
  if (issues.length) throw ApiError.validation(issues);
  return rows;
}

export const createRollout = defineVerb<CreateRolloutInput, RolloutReadShape>({ scope: ADMIN_AGENTS }, async (s, input) => {
  requireOfferable(input.builds, input.releaseKey);
  const version = chooseVersion(input.builds, input.version);
  // One creator at a time, so the one-unfinished-rollout rule answers 409 rather than a unique violation.
  await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext('agent_rollouts_create'))`);
  const [open] = await queryRows<{ id: number; state: string }>(
    s.tx,
    sql`select id, state from agent_rollouts where state in ('running', 'stopped') limit 1`,
  );
  if (open)
    throw ApiError.conflict(
      `Rollout ${open.id} is ${open.state}: one rollout at a time. ${open.state === "stopped" ? "Resume or cancel it" : "Wait for it or cancel it"} first.`,
      { rollout_id: open.id, state: open.state },
    );
  const planned = planTargets(await candidates(s, input.agent_ids, version), input.builds, version, input.wave_percent);
  if (!planned.some((t) => t.state === "pending"))
    throw bad(
      input.agent_ids === undefined ? "version" : "agent_ids",
      `Nothing to update to ${version}: ${planned
        .slice(0, 20)
        .map((t) => `agent ${t.agent_id} ${t.error}`)
        .join("; ")}${planned.length > 20 ? `; and ${planned.length - 20} more` : ""}.`,
    );
  const [rollout] = await s.tx
    .insert(agentRollouts)
    .values({
      version,
      wave_percent: input.wave_percent,
      failure_threshold: input.failure_threshold,
      wave_timeout_seconds: input.wave_timeout_seconds,
      created_by: s.ctx.actor?.userId ?? null,
      created_at: s.now,
      updated_at: s.now,
    })
    .returning();
  // In slices: eight parameters a row would pass PostgreSQL's 65,535 for a fleet of 8,192 and more.
  for (let i = 0; i < planned.length; i += INSERT_SLICE)
    await s.tx.insert(agentRolloutTargets).values(
      planned.slice(i, i + INSERT_SLICE).map((t) => ({
        rollout_id: rollout!.id,
        agent_id: t.agent_id,
        hostname: t.hostname,
        wave: t.wave,
        state: t.state,
        build: t.build,
        error: t.error,
        updated_at: s.now,
      })),
    );
  auditRollout(s, "created", rollout!, {
    version,
    wave_percent: input.wave_percent,
    failure_threshold: input.failure_threshold,
    wave_timeout_seconds: input.wave_timeout_seconds,
    agent_ids: planned.filter((t) => t.state === "pending").map((t) => t.agent_id),
    skipped: planned.filter((t) => t.state === "skipped").map((t) => ({ agent_id: t.agent_id, reason: t.error })),
  });
  await stepRollout(s, rollout!);
  const [after] = await s.tx.select().from(agentRollouts).where(sql`${agentRollouts.id} = ${rollout!.id}`);
  return presentRollout(s.tx, after!);
});
