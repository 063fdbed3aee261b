// GET /security/status (public, spec/catalogue.tsv, group security): whether sign-in is in force and whether any
// account exists; nothing more (no counts, no names), so it tells an anonymous caller only what the
// login page needs to show.
import { sql } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { bootstrapStatus } from "../bootstrap/status.ts";
import { defineRead } from "../verb.ts";

export const AUTH_DISABLED_WARNING =
  "Authentication is not set up yet: until first-run setup creates an administrator, only the setup routes answer.";

export const securityStatus = defineRead({ scope: "public" }, async (ctx) => {
  // Auth is in force once an active administrator exists (spec 5.4), the same rule as GET /bootstrap/status.
  const { bootstrapped } = await bootstrapStatus({ ctx });
  const [row] = await ctx.db.select({ any: sql<boolean>`exists (select 1 from ${users})` }).from(sql`(select 1) as one`);
  return { auth_enabled: bootstrapped, has_users: row?.any === true, warning: bootstrapped ? null : AUTH_DISABLED_WARNING };
});
