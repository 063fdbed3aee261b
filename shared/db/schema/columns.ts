import { timestamp } from "drizzle-orm/pg-core";

export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const timestamps = {
  created_at: tz("created_at").notNull().defaultNow(),
  updated_at: tz("updated_at").notNull().defaultNow(),
};
