// Moved to the resource engine (shared/services/resources/present.ts); this re-export keeps the imports of
// services outside the inventory (audit, users, invites, telemetry) working until they import it there.
export * from "../resources/present.ts";
