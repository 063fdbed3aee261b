import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates SQL from the schema; it never connects, so no credentials are needed here.
export default defineConfig({
  dialect: "postgresql",
  schema: "./shared/db/schema/index.ts",
  out: "./migrations",
});
