// GET /admin/user-actions/{user_id}: what one user did, newest first. A deleted user's history stays
// readable (audit rows keep no foreign key), so 404 only when neither the user nor any entry exists.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { ListPage } from "../resources/list.ts";
import { defineRead } from "../verb.ts";
import { AUDIT_SCOPE, type AuditEntry } from "./entry.ts";
import { type AuditListInput, listAuditEntries } from "./list-entries.ts";

export const listUserActions = defineRead<
  { user_id: number; page: Pick<AuditListInput, "limit" | "offset" | "direction"> },
  ListPage<AuditEntry>
>({ scope: AUDIT_SCOPE }, async (ctx, input) => {
  const page = await listAuditEntries({ ctx, input: { ...input.page, sort: "timestamp", actor_id: input.user_id } });
  if (page.total > 0) return page;
  const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, input.user_id));
  if (!user) throw ApiError.notFound("User", input.user_id);
  return page;
});
