// Reads any signed-in user may make, whatever their scopes (timezones, capabilities, intelligence, /auth/me).
import { ApiError } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";

export function requireSignedIn(ctx: VerbContext): void {
  if (!ctx.actor) throw ApiError.unauthorized("Authentication required.");
}
