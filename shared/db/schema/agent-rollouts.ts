// Staged fleet rollouts of agent updates (docs/agents.md, "Updating agents and fleet rollouts";
// docs/adr/0429, docs/adr/0430): one row per rollout and one per agent it concerns. The build each target
// installs is chosen at creation and kept on its row, so advancing a wave needs no file and no process
// memory: whichever sidecar advances the rollout reads everything from here.
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { agents } from "./agents.ts";
import { timestamps, tz } from "./columns.ts";
import { users } from "./identity.ts";

/** The build a target installs: what the `update` frame carries. */
export interface RolloutBuild {
  version: string;
  sha256: string;
  signature: string;
  os: string;
  arch: string;
}

export const agentRollouts = pgTable(
  "agent_rollouts",
  {
    id: serial("id").primaryKey(),
    /** running | stopped | completed | cancelled */
    state: text("state").notNull().default("running"),
    version: text("version").notNull(),
    wave_percent: integer("wave_percent").notNull(),
    failure_threshold: integer("failure_threshold").notNull(),
    wave_timeout_seconds: integer("wave_timeout_seconds").notNull(),
    /** The wave being sent (1 or 2); 0 before the first. */
    current_wave: integer("current_wave").notNull().default(0),
    /** Failures counted before the last resume: the threshold applies to failures after it. */
    failures_acknowledged: integer("failures_acknowledged").notNull().default(0),
    stop_reason: text("stop_reason"),
    created_by: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    finished_at: tz("finished_at"),
    /** updated_at changes with every change of the rollout or one of its targets: the ETag. */
    ...timestamps,
  },
  (t) => [
    index("agent_rollouts_state_idx").on(t.state),
    // One unfinished rollout at a time (docs/adr/0429): an agent is never a live target of two.
    uniqueIndex("agent_rollouts_one_unfinished").on(sql`(true)`).where(sql`state in ('running', 'stopped')`),
  ],
);

export const agentRolloutTargets = pgTable(
  "agent_rollout_targets",
  {
    rollout_id: integer("rollout_id")
      .notNull()
      .references(() => agentRollouts.id, { onDelete: "cascade" }),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    /** The agent's hostname when the rollout was made (the agent may be renamed or deleted since). */
    hostname: text("hostname"),
    /** 1 or 2; 0 for a target skipped at creation. */
    wave: integer("wave").notNull(),
    /** pending | queued | started | succeeded | failed | rolled_back | skipped */
    state: text("state").notNull(),
    /** null for a target skipped at creation (no build for its platform). */
    build: jsonb("build").$type<RolloutBuild | null>(),
    error: text("error"),
    queued_at: tz("queued_at"),
    updated_at: tz("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.rollout_id, t.agent_id] }), index("agent_rollout_targets_agent_state_idx").on(t.agent_id, t.state)],
);
