// POST /auth/demo: signs in as the shared read-only demo user (role demo), created on first use without
// a password, so it can only ever be entered through this route while demo_enabled is on.
import { sql } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { readSetting } from "../../settings/read.ts";
import { defineVerb } from "../verb.ts";
import { completeLogin, type SessionOutcome } from "./login.ts";
import type { SignInClient } from "./sign-in-client.ts";

/** A reserved domain (RFC 2606), so no real address can collide with it. */
export const DEMO_EMAIL = "demo@demo.invalid";

export const demoSignIn = defineVerb<SignInClient, SessionOutcome>(
  {
    scope: "public",
    prepare: async (ctx) => {
      if (!(await readSetting(ctx.db, "demo_enabled"))) throw ApiError.forbidden("The demo is disabled.");
    },
  },
  async (s, client) => {
    const created = await s.tx
      .insert(users)
      .values({ email: DEMO_EMAIL, display_name: "Demo", role: "demo", password_hash: null, created_at: s.now, updated_at: s.now })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (created[0])
      s.audit({
        action: "user.created",
        category: "security",
        entity_type: "user",
        entity_id: created[0].id,
        diff: { after: { email: DEMO_EMAIL, role: "demo" } },
      });
    const [user] = await s.tx.select().from(users).where(sql`lower(${users.email}) = ${DEMO_EMAIL}`);
    // An administrator may have disabled the demo account, or changed its role: then it is not the demo.
    if (user?.role !== "demo" || !user.is_active) throw ApiError.forbidden("The demo account is not available.");
    return completeLogin(s, client, user, "login.demo");
  },
);
