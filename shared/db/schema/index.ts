// The database schema, one file per area. drizzle-kit generates migrations/ from these files
// (`npm run db:generate -- --name <what>`); a generated migration is never edited by hand.
export * from "./foundation.ts";
export * from "./identity.ts";
export * from "./inventory.ts";
export * from "./content.ts";
export * from "./telemetry.ts";
export * from "./agents.ts";
export * from "./agent-rollouts.ts";
export * from "./monitors.ts";
export * from "./notifications.ts";
export * from "./discovery.ts";
export * from "./integrations.ts";
export * from "./administration.ts";
export * from "./oauth.ts";
export * from "./exposure.ts";
export * from "./alert-rules.ts";
export * from "./status-pages.ts";
export * from "./status-page-subscribers.ts";
export * from "./status-page-incidents.ts";
export * from "./journal.ts";
export * from "./event-rules.ts";
export * from "./prefixes.ts";
export * from "./custom-fields.ts";
export * from "./config-objects.ts";
export * from "./cabling.ts";
export * from "./cli-login.ts";
