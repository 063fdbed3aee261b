// Export, import and clear-lab are administration (reference: "admin (all require admin)").
export const ADMIN_SCOPE = "admin:*";

/** Advisory lock key: one import or clear-lab at a time, so two merges never interleave. */
export const INVENTORY_IMPORT_LOCK = 7_246_050;
