// Reads any signed-in user may make, whatever their scopes (timezones, capabilities).
import { ApiError } from "../../errors.ts";
import type { ServiceContext } from "../context.ts";

export function requireSignedIn(ctx: ServiceContext): void {
  if (!ctx.actor) throw new ApiError(401, "UNAUTHORIZED", "Authentication required.");
}
