// Export, import and clear-lab are administration (reference: "admin (all require admin)").
export const ADMIN_SCOPE = "admin:*";
