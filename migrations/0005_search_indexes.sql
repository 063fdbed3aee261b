-- One trigram index per searched table over exactly the text GET /search matches (shared/verbs/search/search.ts searchText).
CREATE INDEX IF NOT EXISTS "search_hardware_trgm_idx" ON "hardware" USING gin ((lower(coalesce(name, '') || ' ' || coalesce(ip_address, '') || ' ' || coalesce(role, '') || ' ' || coalesce(vendor, '') || ' ' || coalesce(model, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_compute_units_trgm_idx" ON "compute_units" USING gin ((lower(coalesce(name, '') || ' ' || coalesce(ip_address, '') || ' ' || coalesce(os, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_services_trgm_idx" ON "services" USING gin ((lower(coalesce(name, '') || ' ' || coalesce(slug, '') || ' ' || coalesce(url, '') || ' ' || coalesce(ip_address, '') || ' ' || coalesce(description, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_storage_trgm_idx" ON "storage" USING gin ((lower(coalesce(name, '') || ' ' || coalesce(path, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_networks_trgm_idx" ON "networks" USING gin ((lower(coalesce(name, '') || ' ' || coalesce(cidr, '') || ' ' || coalesce(description, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_hardware_clusters_trgm_idx" ON "hardware_clusters" USING gin ((lower(coalesce(name, '') || ' ' || coalesce(description, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_external_nodes_trgm_idx" ON "external_nodes" USING gin ((lower(coalesce(name, '') || ' ' || coalesce(provider, '') || ' ' || coalesce(region, '') || ' ' || coalesce(ip_address, '') || ' ' || coalesce(url, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_misc_items_trgm_idx" ON "misc_items" USING gin ((lower(coalesce(name, '') || ' ' || coalesce(description, '') || ' ' || coalesce(url, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_docs_trgm_idx" ON "docs" USING gin ((lower(coalesce(title, '') || ' ' || coalesce(body_md, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_ip_addresses_trgm_idx" ON "ip_addresses" USING gin ((lower(coalesce(address, '') || ' ' || coalesce(hostname, '') || ' ' || coalesce(mac_address, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_sites_trgm_idx" ON "sites" USING gin ((lower(coalesce(name, '') || ' ' || coalesce(address, '') || ' ' || coalesce(description, ''))) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_vlans_trgm_idx" ON "vlans" USING gin ((lower(coalesce(name, '') || ' ' || coalesce(description, ''))) gin_trgm_ops);
