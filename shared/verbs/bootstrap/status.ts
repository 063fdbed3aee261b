import { and, count, eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import type { VerbContext } from "../verb-context.ts";

export interface BootstrapStatus {
  bootstrapped: boolean;
  needs_bootstrap: boolean;
}

/** First run is over once an active administrator exists (spec 5.4). */
export async function bootstrapStatus({ ctx }: { ctx: Pick<VerbContext, "db"> }): Promise<BootstrapStatus> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.is_active, true)));
  const bootstrapped = (row?.n ?? 0) > 0;
  return { bootstrapped, needs_bootstrap: !bootstrapped };
}
