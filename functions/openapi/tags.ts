// Tag names are the catalogue's groups (../shared/spec/catalogue.tsv), so the document and the spec
// group operations the same way.
export const TAGS = [
  "admin", "admin-audit", "admin-db", "admin-users", "agents", "agents-binary", "assets", "auth", "bootstrap",
  "branding", "capabilities", "catalog", "categories", "certificates", "clusters", "compute-units", "cve",
  "discovery", "discovery-ws", "docs", "environments", "events", "external-nodes", "graph", "hardware", "health",
  "hypervisor integration", "integrations", "intelligence", "ip-check", "ipam", "kb", "logs", "maps", "misc",
  "monitors", "networks", "notifications", "oauth", "privacy and threat analysis", "search", "security",
  "services", "settings", "sites", "storage", "system", "tags", "telemetry", "tenants", "timezones", "topologies",
  "topology-ws", "users", "vault", "vlans",
] as const;

export type Tag = (typeof TAGS)[number];
