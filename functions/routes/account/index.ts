// Everything about the caller's own account, whichever prefix the spec gives it (/users/me*, /auth/me,
// /auth/me/avatar). Signing in is auth/; other users' accounts are admin/ and users/.
import type { Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { avatarRoutes } from "./avatar-routes.ts";
import { profileRoutes } from "./profile-routes.ts";
import { mySessionRoutes } from "./session-routes.ts";

export function accountRoutes(app: Hono<AppEnv>): void {
  profileRoutes(app);
  mySessionRoutes(app);
  avatarRoutes(app);
}
