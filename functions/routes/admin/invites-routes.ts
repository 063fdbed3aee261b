// /admin/invites: list, create (the token is shown once with its link) and change (revoke or extend).
import type { Hono } from "hono";
import { InviteCreate, InviteList, InviteListQuery, InvitePatch, Invite, IssuedInvite } from "../../../shared/schemas/admin-users.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { createInvite } from "../../../shared/verbs/invites/create-invite.ts";
import { listInvites } from "../../../shared/verbs/invites/list-invites.ts";
import { updateInvite } from "../../../shared/verbs/invites/update-invite.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function adminInvitesRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/admin/invites",
      tag: "admin-users",
      scope: listInvites.scope,
      summary: "List invites (q on email; filters status, role)",
      query: InviteListQuery,
      response: { schema: InviteList },
    },
    async (c, { query, reply }) => reply(await listInvites({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/invites",
      tag: "admin-users",
      scope: createInvite.scope,
      summary: "Invite someone: a single-use, expiring token (shown once) and its accept link",
      description:
        "expires_in_hours defaults to the invite_expiry_hours setting. 409 when a user with the email exists or an invite for it is still open.",
      body: InviteCreate,
      response: { status: 201, schema: IssuedInvite },
      errors: [409],
    },
    async (c, { body, reply }) => reply(await createInvite({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "patch",
      path: "/api/v1/admin/invites/:invite_id",
      tag: "admin-users",
      scope: updateInvite.scope,
      summary: "Revoke an invite ({revoke: true}) or extend it ({expires_in_hours}: from now)",
      params: IdParam("invite_id"),
      body: InvitePatch,
      response: { schema: Invite },
      errors: [409],
    },
    async (c, { params, body, reply }) =>
      reply(await updateInvite({ ctx: verbContext(c), input: { inviteId: params.invite_id!, ...body } })),
  );
}
