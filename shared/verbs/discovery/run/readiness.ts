// What the sidecar's probe of the scan tools found (A's probeDiscoveryReadiness), stored as app_settings
// discovery_readiness with when it was probed; GET /discovery/readiness answers it and job creation
// refuses nmap when it says nmap is unavailable.
import { appSettings } from "../../../db/schema/index.ts";
import { defineVerb } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";

export const DISCOVERY_READINESS_KEY = "discovery_readiness";

export interface DiscoveryReadiness {
  helper_installed: boolean;
  capabilities: {
    key: string;
    title: string;
    state: "ready" | "degraded" | "unavailable";
    explanation: string;
    reason_code: string | null;
    last_healed_at: null;
    last_error: string | null;
  }[];
}

export const storeDiscoveryReadiness = defineVerb<DiscoveryReadiness, void>({ scope: WRITE_DISCOVERY }, async (s, readiness) => {
  const value = { ...readiness, probed_at: s.now.toISOString() };
  await s.tx
    .insert(appSettings)
    .values({ key: DISCOVERY_READINESS_KEY, value, updated_at: s.now })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updated_at: s.now } });
});
