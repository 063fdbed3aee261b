// Every notifications route is the administrators' (spec/catalogue.tsv, group notifications: require_role("admin"),
// reads included: sink configurations name where alerts go).
export const ADMIN_NOTIFICATIONS = "admin:notifications";

// The alerts themselves (ours, docs/adr/0447-acknowledgement.md) are the on-call person's: every role reads
// them (read:*), acknowledging is a write (admin's write:*, or a token or custom role given write:alerts).
export const READ_ALERTS = "read:alerts";
export const WRITE_ALERTS = "write:alerts";
