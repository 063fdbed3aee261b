CREATE TABLE "agent_tls_pin_rotations" (
	"id" serial PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"successor_pin" text NOT NULL,
	"certificate_id" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_by" integer
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "device_successor_pk" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "device_successor_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "tls_pin_kind" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "tls_pins" jsonb;--> statement-breakpoint
ALTER TABLE "agent_tls_pin_rotations" ADD CONSTRAINT "agent_tls_pin_rotations_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_tls_pin_rotations_one_active" ON "agent_tls_pin_rotations" USING btree ("state") WHERE state = 'active';--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_device_successor_pk_unique" UNIQUE("device_successor_pk");