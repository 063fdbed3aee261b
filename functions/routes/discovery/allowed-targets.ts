// The allowed target set of this installation (SVC_DISCOVERY_ALLOWED_TARGETS, read with the configuration),
// handed to the scan and profile verbs, which check every target against it.
import type { Context } from "hono";
import { allowedTargetsFromEnv } from "../../../shared/domain/discovery/targets.ts";
import type { AppEnv } from "../../deps.ts";

export function allowedTargets(c: Context<AppEnv>): string[] {
  return allowedTargetsFromEnv({ SVC_DISCOVERY_ALLOWED_TARGETS: c.get("deps").config.SVC_DISCOVERY_ALLOWED_TARGETS });
}
