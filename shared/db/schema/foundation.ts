import { jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { tz } from "./columns.ts";

/** Application settings, one JSON value per key (rate_limit_profile, telemetry_hot_days, ...). */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updated_at: tz("updated_at").notNull().defaultNow(),
});

/** Secrets the server generates for itself at first start (the session signing key, ...). */
export const serverSecrets = pgTable("server_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  created_at: tz("created_at").notNull().defaultNow(),
});
