CREATE TABLE "agent_rollout_targets" (
	"rollout_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"hostname" text,
	"wave" integer NOT NULL,
	"state" text NOT NULL,
	"build" jsonb,
	"error" text,
	"queued_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_rollout_targets_rollout_id_agent_id_pk" PRIMARY KEY("rollout_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "agent_rollouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"version" text NOT NULL,
	"wave_percent" integer NOT NULL,
	"failure_threshold" integer NOT NULL,
	"wave_timeout_seconds" integer NOT NULL,
	"current_wave" integer DEFAULT 0 NOT NULL,
	"failures_acknowledged" integer DEFAULT 0 NOT NULL,
	"stop_reason" text,
	"created_by" integer,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_rollout_targets" ADD CONSTRAINT "agent_rollout_targets_rollout_id_agent_rollouts_id_fk" FOREIGN KEY ("rollout_id") REFERENCES "public"."agent_rollouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_rollout_targets" ADD CONSTRAINT "agent_rollout_targets_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_rollouts" ADD CONSTRAINT "agent_rollouts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_rollout_targets_agent_state_idx" ON "agent_rollout_targets" USING btree ("agent_id","state");--> statement-breakpoint
CREATE INDEX "agent_rollouts_state_idx" ON "agent_rollouts" USING btree ("state");--> statement-breakpoint
CREATE UNIQUE INDEX "agent_rollouts_one_unfinished" ON "agent_rollouts" USING btree ((true)) WHERE state in ('running', 'stopped');