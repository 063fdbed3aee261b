CREATE TABLE "config_objects" (
	"owner" text NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"object_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "config_objects_owner_kind_key_pk" PRIMARY KEY("owner","kind","key")
);
--> statement-breakpoint
CREATE INDEX "config_objects_object_idx" ON "config_objects" USING btree ("kind","object_id");