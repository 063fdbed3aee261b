// GET /settings/roles: built-in and custom roles with their scopes.
import { defineRead } from "../verb.ts";
import { allRoles } from "./role-view.ts";

export const listRoles = defineRead({ scope: "read:settings" }, async (ctx) => allRoles(ctx.db));
