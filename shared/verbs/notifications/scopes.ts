// Every notifications route is the administrators' (spec/catalogue.tsv, group notifications: require_role("admin"),
// reads included: sink configurations name where alerts go).
export const ADMIN_NOTIFICATIONS = "admin:notifications";
