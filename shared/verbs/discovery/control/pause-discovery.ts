// POST /discovery/pause and /resume: the fleet-wide hold (app_settings discovery_paused). While it holds,
// the worker claims no job and dispatches no agent job, and the schedule starts none; jobs already
// running go on (cancel them to stop them). The worker hears the change on discovery_control at once.
import { sql } from "drizzle-orm";
import { appSettings } from "../../../db/schema/index.ts";
import { defineVerb } from "../../verb.ts";
import { DISCOVERY_PAUSED_KEY, discoveryPaused } from "../run/pause-state.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";

export const setDiscoveryPaused = defineVerb<{ paused: boolean }, { paused: boolean }>(
  { scope: WRITE_DISCOVERY },
  async (s, { paused }) => {
    const was = await discoveryPaused(s.tx);
    await s.tx
      .insert(appSettings)
      .values({ key: DISCOVERY_PAUSED_KEY, value: paused, updated_at: s.now })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: sql`excluded.value`, updated_at: s.now } });
    if (was !== paused) {
      s.audit({
        action: paused ? "discovery.pause" : "discovery.resume",
        category: "discovery",
        entity_type: "app_setting",
        entity_id: DISCOVERY_PAUSED_KEY,
        diff: { before: { paused: was }, after: { paused } },
      });
      s.emit("discovery_control", { type: paused ? "paused" : "resumed", paused });
      s.emit("discovery", { type: "paused", paused });
    }
    return { paused };
  },
);
