-- Every hardware connection (node to node) becomes a cable between two interfaces, and stays as the
-- topology's edge the cable belongs to (cables.connection_id; ADR 0493). Nothing is dropped: each side
-- gets an interface named link-<connection id> (speed from bandwidth_mbps), the cable carries the
-- connection's type and its notes; tests/api/inventory/connections-migration.test.ts runs this file
-- on rows written with the schema before it.
INSERT INTO "interfaces" ("hardware_id", "name", "type", "speed_mbps", "description")
SELECT c."source_hardware_id", 'link-' || c."id", 'copper', c."bandwidth_mbps", 'Hardware connection ' || c."id" || ' (migrated)'
FROM "hardware_connections" c
ON CONFLICT ("hardware_id", "name") DO NOTHING;
--> statement-breakpoint
INSERT INTO "interfaces" ("hardware_id", "name", "type", "speed_mbps", "description")
SELECT c."target_hardware_id", 'link-' || c."id", 'copper', c."bandwidth_mbps", 'Hardware connection ' || c."id" || ' (migrated)'
FROM "hardware_connections" c
ON CONFLICT ("hardware_id", "name") DO NOTHING;
--> statement-breakpoint
INSERT INTO "cables" ("a_kind", "a_id", "b_kind", "b_id", "type", "status", "label", "description", "connection_id", "created_at", "updated_at")
SELECT 'interface', s."id", 'interface', t."id", c."connection_type", 'connected', 'link-' || c."id", c."notes", c."id", c."created_at", c."updated_at"
FROM "hardware_connections" c
JOIN "interfaces" s ON s."hardware_id" = c."source_hardware_id" AND s."name" = 'link-' || c."id"
JOIN "interfaces" t ON t."hardware_id" = c."target_hardware_id" AND t."name" = 'link-' || c."id"
ORDER BY c."id";
