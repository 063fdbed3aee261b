// [agents] staged fleet rollouts of agent updates (docs/agents.md, "Updating agents and fleet rollouts"):
// the create body, the list query, and the rollout as answered (with its targets on GET of one).
import * as v from "valibot";
import { MAX_INT4, writeBody } from "./fields.ts";
import { listQuery, listResponse } from "./list-query.ts";
import { Version } from "./agents.ts";

export const ROLLOUT_STATES = ["running", "stopped", "completed", "cancelled"] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];
export const TARGET_STATES = ["pending", "queued", "started", "succeeded", "failed", "rolled_back", "skipped"] as const;
export type TargetState = (typeof TARGET_STATES)[number];
/** A target in one of these has its outcome; a wave moves on once all of its targets are. */
export const TERMINAL_TARGET_STATES: readonly TargetState[] = ["succeeded", "failed", "rolled_back", "skipped"];
export const ROLLOUT_SORTS = ["id", "created_at", "state", "version"] as const;

export const ROLLOUT_DEFAULTS = { wave_percent: 20, failure_threshold: 1, wave_timeout_seconds: 600 } as const;
/** At most this many agent ids in one rollout's body. */
export const MAX_ROLLOUT_AGENTS = 10_000;

const int = (min: number, max: number, what: string) =>
  v.pipe(
    v.number(`Must be a whole number (${what}).`),
    v.integer(`Must be a whole number (${what}).`),
    v.minValue(min, `Must be at least ${min}.`),
    v.maxValue(max, `Must be at most ${max}.`),
  );

export const RolloutCreateBody = v.optional(
  writeBody({
    version: v.optional(Version),
    agent_ids: v.optional(
      v.pipe(
        v.array(int(1, MAX_INT4, "an agent id")),
        v.minLength(1, "Give at least one agent id, or leave agent_ids out to update every active agent on another version."),
        v.maxLength(MAX_ROLLOUT_AGENTS, `At most ${MAX_ROLLOUT_AGENTS} agents in one rollout.`),
      ),
    ),
    wave_percent: v.optional(int(1, 100, "a percentage"), ROLLOUT_DEFAULTS.wave_percent),
    failure_threshold: v.optional(int(1, 100_000, "a number of agents"), ROLLOUT_DEFAULTS.failure_threshold),
    wave_timeout_seconds: v.optional(int(10, 7 * 86_400, "seconds"), ROLLOUT_DEFAULTS.wave_timeout_seconds),
  }),
  {},
);

export const RolloutListQuery = listQuery(
  ROLLOUT_SORTS,
  { state: v.optional(v.picklist(ROLLOUT_STATES, `Must be one of: ${ROLLOUT_STATES.join(", ")}.`)) },
  "id",
);

export const RolloutTarget = v.object({
  agent_id: v.number(),
  hostname: v.nullable(v.string()),
  /** 1 or 2; 0 for a target skipped when the rollout was made. */
  wave: v.number(),
  state: v.picklist(TARGET_STATES),
  error: v.nullable(v.string()),
  updated_at: v.string(),
});

export const RolloutCounts = v.object(
  Object.fromEntries(TARGET_STATES.map((s) => [s, v.number()])) as Record<TargetState, v.NumberSchema<undefined>>,
);

export const RolloutSummary = v.object({
  id: v.number(),
  state: v.picklist(ROLLOUT_STATES),
  version: v.string(),
  wave_percent: v.number(),
  failure_threshold: v.number(),
  wave_timeout_seconds: v.number(),
  /** The wave being sent: 1, then 2 (the rest); 0 when nothing was sent. */
  current_wave: v.number(),
  /** How many waves the rollout has (1 when the first takes every target). */
  waves: v.number(),
  /** Failures before the last resume, which the threshold no longer counts. */
  failures_acknowledged: v.number(),
  stop_reason: v.nullable(v.string()),
  counts: RolloutCounts,
  total: v.number(),
  created_by: v.nullable(v.number()),
  created_at: v.string(),
  updated_at: v.string(),
  finished_at: v.nullable(v.string()),
});

export const RolloutRead = v.object({ ...RolloutSummary.entries, targets: v.array(RolloutTarget) });
export const RolloutList = listResponse(RolloutSummary);
