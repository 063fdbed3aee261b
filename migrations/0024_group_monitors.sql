ALTER TABLE "monitors" ADD COLUMN "group_id" integer;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_group_id_monitors_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."monitors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "monitors_group_idx" ON "monitors" USING btree ("group_id") WHERE group_id is not null;