// The database schema. drizzle-kit generates the SQL in migrations/ from this file
// (`npm run db:generate`); never edit a generated migration by hand.
import { sql } from "drizzle-orm";
import { boolean, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

const timestamps = {
  created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updated_at: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
};

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    display_name: text("display_name"),
    password_hash: text("password_hash"),
    role: text("role").notNull().default("viewer"),
    is_active: boolean("is_active").notNull().default(true),
    failed_logins: integer("failed_logins").notNull().default(0),
    locked_until: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`)],
);

/** Application settings, one JSON value per key (rate_limit_profile, telemetry_hot_days, ...). */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updated_at: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
