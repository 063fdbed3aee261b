// The caller's own account record: GET /users/me and GET /auth/me (the same answer), PATCH /users/me,
// PATCH /users/me/password and DELETE /auth/me.
import type { Hono } from "hono";
import { DeleteAccountBody, Me, PasswordChangeBody, PasswordChanged, ProfilePatch } from "../../../shared/schemas/account.ts";
import { Detail, PublicUser } from "../../../shared/schemas/auth.ts";
import { changeMyPassword } from "../../../shared/verbs/account/change-password.ts";
import { deleteMyAccount } from "../../../shared/verbs/account/delete-account.ts";
import { getMe } from "../../../shared/verbs/account/get-me.ts";
import { updateMyProfile } from "../../../shared/verbs/account/update-profile.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { clearSessionCookies } from "../../session-cookies.ts";

export function profileRoutes(app: Hono<AppEnv>): void {
  for (const [path, tag, summary] of [
    ["/api/v1/users/me", "users", "Your own account"],
    ["/api/v1/auth/me", "auth", "The signed-in user"],
  ] as const) {
    route(app, { method: "get", path, tag, summary, response: { schema: Me } }, async (c, { reply }) =>
      reply(await getMe({ ctx: verbContext(c) })),
    );
  }

  route(
    app,
    {
      method: "patch",
      path: "/api/v1/users/me",
      tag: "users",
      summary: "Change your display name, email address (needs current_password) or console language",
      description: "Read-only fields of the user shape (id, role, scopes, ...) are ignored; any other unknown field is a 422 naming it.",
      body: ProfilePatch,
      response: { schema: PublicUser },
      errors: [409],
    },
    async (c, { body, reply }) => reply(await updateMyProfile({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "patch",
      path: "/api/v1/users/me/password",
      tag: "users",
      summary: "Change your password; your other sessions are signed out",
      body: PasswordChangeBody,
      response: { schema: PasswordChanged },
    },
    async (c, { body, reply }) => reply(await changeMyPassword({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/auth/me",
      tag: "auth",
      summary: "Delete your own account (confirm with the current password); the last active administrator cannot",
      body: DeleteAccountBody,
      response: { schema: Detail },
      errors: [409],
    },
    async (c, { body, reply }) => {
      const result = await deleteMyAccount({ ctx: verbContext(c), input: body });
      clearSessionCookies(c);
      return reply(result);
    },
  );
}
