DROP INDEX "service_dependencies_target_idx";--> statement-breakpoint
CREATE INDEX "service_dependencies_target_idx" ON "service_dependencies" USING btree ("depends_on_id","service_id");