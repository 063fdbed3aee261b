// /admin/invites: list, create (the token is shown once with its link) and change (revoke or extend).
import type { Hono } from "hono";
import * as v from "valibot";
import { IdParam, writeBody } from "../../../shared/schemas/fields.ts";
import { listQuery, listResponse } from "../../../shared/schemas/list-query.ts";
import { RoleName } from "../../../shared/verbs/admin-users/input-schemas.ts";
import { createInvite } from "../../../shared/verbs/invites/create-invite.ts";
import { INVITE_STATUSES, MAX_INVITE_HOURS } from "../../../shared/verbs/invites/invite-rows.ts";
import { INVITE_SORTS, listInvites } from "../../../shared/verbs/invites/list-invites.ts";
import { updateInvite } from "../../../shared/verbs/invites/update-invite.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { Email } from "../../../shared/schemas/auth.ts";

const Invite = v.object({
  id: v.number(),
  email: v.string(),
  role: v.string(),
  status: v.picklist(INVITE_STATUSES),
  expires_at: v.string(),
  accepted_at: v.nullable(v.string()),
  revoked_at: v.nullable(v.string()),
  created_by: v.nullable(v.number()),
  created_at: v.string(),
});

const Hours = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_INVITE_HOURS, `At most ${MAX_INVITE_HOURS} hours (30 days).`));
const INVITE_READ_ONLY = Object.keys(Invite.entries).filter((k) => k !== "email" && k !== "role");

export function adminInvitesRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/admin/invites", tag: "admin-users", scope: listInvites.scope,
      summary: "List invites (q on email; filters status, role)",
      query: listQuery(INVITE_SORTS, { status: v.optional(v.picklist(INVITE_STATUSES)), role: v.optional(v.string()) }),
      response: { schema: listResponse(Invite) },
    },
    async (c, { query }) => c.json(await listInvites({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/admin/invites", tag: "admin-users", scope: createInvite.scope,
      summary: "Invite someone: a single-use, expiring token (shown once) and its accept link",
      description: "expires_in_hours defaults to the invite_expiry_hours setting. 409 when a user with the email exists or an invite for it is still open.",
      body: writeBody({ email: Email, role: RoleName, expires_in_hours: v.optional(Hours) }, INVITE_READ_ONLY),
      response: { status: 201, schema: v.object({ ...Invite.entries, token: v.string(), invite_url: v.string() }) },
      errors: [409],
    },
    async (c, { body }) => c.json(await createInvite({ ctx: verbContext(c), input: body }), 201),
  );

  route(
    app,
    {
      method: "patch", path: "/api/v1/admin/invites/:invite_id", tag: "admin-users", scope: updateInvite.scope,
      summary: "Revoke an invite ({revoke: true}) or extend it ({expires_in_hours}: from now)",
      params: IdParam("invite_id"),
      body: v.union(
        [v.strictObject({ revoke: v.literal(true) }), v.strictObject({ expires_in_hours: Hours })],
        "Send either {\"revoke\": true} or {\"expires_in_hours\": n}.",
      ),
      response: { schema: Invite },
      errors: [409],
    },
    async (c, { params, body }) => c.json(await updateInvite({ ctx: verbContext(c), input: { inviteId: params.invite_id!, ...body } })),
  );
}
