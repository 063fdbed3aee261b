// GET /admin/invites: invites with their state, searchable by e-mail (docs/architecture.md, API contracts list contract).
import { eq, sql } from "drizzle-orm";
import { invites } from "../../db/schema/index.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { type ListPage, type ListSpec, listPage } from "../resources/list.ts";
import { defineRead } from "../verb.ts";
import { type InviteRow, type InviteStatus, inviteStatusIs, type PublicInvite, publicInvite } from "./invite-rows.ts";

export const INVITE_SORTS = ["created_at", "email", "role", "expires_at"] as const;

export interface ListInvitesInput extends ListParams {
  status?: InviteStatus | undefined;
  role?: string | undefined;
}

const SPEC: ListSpec = {
  table: invites,
  id: invites.id,
  sortable: { created_at: invites.created_at, email: sql`lower(${invites.email})`, role: invites.role, expires_at: invites.expires_at },
  search: [invites.email],
};

export const listInvites = defineRead<ListInvitesInput, ListPage<PublicInvite>>({ scope: "admin:*" }, async (ctx, input) => {
  const now = ctx.clock.now();
  return listPage<InviteRow, PublicInvite>(
    ctx.db,
    SPEC,
    input,
    [input.status ? inviteStatusIs(input.status, now) : undefined, input.role !== undefined ? eq(invites.role, input.role) : undefined],
    (rows) => rows.map((r) => publicInvite(r, now)),
  );
});
