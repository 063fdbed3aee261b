// Every notifications route is the administrators' (reference-contracts.md 2: require_role("admin"),
// reads included: sink configurations name where alerts go).
export const ADMIN_NOTIFICATIONS = "admin:notifications";
