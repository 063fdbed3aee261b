// One sync of a monitoring integration (the sidecar's schedule, or POST /integrations/{id}/sync): Uptime
// Kuma is read first, outside any transaction (kuma-client.ts), then one verb applies what it answered:
// monitors upserted by external_id, a status change recorded as an event, monitors gone at the source
// removed, one live-metric row (source "uptime_kuma") per linked hardware node so capacity forecasts and
// flap detection see the node's reachability, and the integration's sync_status / next_sync_at. A failed
// read records only sync_status "error" with a message safe to show, and the next attempt's time.
import { and, eq, inArray } from "drizzle-orm";
import { hardwareLiveMetrics, integrationMonitorEvents, integrationMonitors, integrations } from "../../../db/schema/index.ts";
import { requireScope, defineVerb } from "../../verb.ts";
import { outboundOf, vaultOf, type VerbContext } from "../../verb-context.ts";
import { readOutboundPolicy } from "../outbound-policy.ts";
import { safeMessage } from "../providers/safe-message.ts";
import { WRITE_INTEGRATIONS } from "../scopes.ts";
import { openApiKey } from "./api-key.ts";
import { findIntegration } from "./integration-row.ts";
import { fetchKumaMonitors, type KumaMonitor } from "./kuma-client.ts";
import { KumaError } from "./kuma-error.ts";

export const SYNC_TIMEOUT_MS = 10_000;

export interface SyncOutcome {
  ok: boolean;
  monitors: number;
  error: string | null;
}

const after = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000);

/** A failure's message: ours (Kuma's answer, the outbound policy, the vault), never a body or a key. */
export const syncMessage = (e: unknown) => (e instanceof KumaError ? e.message : safeMessage(e));

const recordFailure = defineVerb<{ id: number; error: string }, void>({ scope: WRITE_INTEGRATIONS }, async (s, { id, error }) => {
  const row = await findIntegration(s.tx, id, true);
  await s.tx
    .update(integrations)
    .set({ sync_status: "error", sync_error: error, next_sync_at: row.enabled ? after(s.now, row.sync_interval_s) : null })
    .where(eq(integrations.id, id));
});

/** Applies one Uptime Kuma snapshot (null: the native integration, which mirrors our monitors and fetches nothing). */
const applySnapshot = defineVerb<{ id: number; snapshot: KumaMonitor[] | null }, number>(
  { scope: WRITE_INTEGRATIONS },
  async (s, { id, snapshot }) => {
    const row = await findIntegration(s.tx, id, true);
    const existing = await s.tx.select().from(integrationMonitors).where(eq(integrationMonitors.integration_id, id)).for("update");
    let count = existing.length;
    if (snapshot) {
      const byExternal = new Map(existing.map((m) => [m.external_id, m]));
      const seen = new Set<string>();
      const changes: { name: string; from: string; to: string }[] = [];
      const reachability = new Map<number, "up" | "down">();
      for (const m of snapshot) {
        seen.add(m.external_id);
        const fields = {
          name: m.name,
          url: m.url,
          status: m.status,
          uptime_7d: m.uptime_7d,
          uptime_30d: m.uptime_30d,
          last_heartbeat_at: m.last_heartbeat_at,
          avg_response_ms: m.avg_response_ms,
          cert_expiry_days: m.cert_expiry_days,
          last_checked_at: s.now,
          updated_at: s.now,
        };
        const before = byExternal.get(m.external_id);
        if (!before) {
          await s.tx.insert(integrationMonitors).values({ integration_id: id, external_id: m.external_id, ...fields, created_at: s.now });
          continue;
        }
        await s.tx.update(integrationMonitors).set(fields).where(eq(integrationMonitors.id, before.id));
        if (before.status !== m.status) {
          await s.tx
            .insert(integrationMonitorEvents)
            .values({ monitor_id: before.id, previous_status: before.status, new_status: m.status, detected_at: s.now });
          changes.push({ name: m.name, from: before.status, to: m.status });
        }
        // A node is down for this sync when any monitor linked to it is down.
        if (
          before.linked_hardware_id !== null &&
          (m.status === "up" || m.status === "down") &&
          reachability.get(before.linked_hardware_id) !== "down"
        )
          reachability.set(before.linked_hardware_id, m.status);
      }
      const gone = existing.filter((m) => !seen.has(m.external_id));
      if (gone.length)
        await s.tx.delete(integrationMonitors).where(
          and(
            eq(integrationMonitors.integration_id, id),
            inArray(
              integrationMonitors.id,
              gone.map((m) => m.id),
            ),
          ),
        );
      if (reachability.size) {
        await s.tx
          .insert(hardwareLiveMetrics)
          .values([...reachability].map(([hardware_id, status]) => ({ hardware_id, ts: s.now, status, source: "uptime_kuma" })));
        for (const hardware_id of reachability.keys()) s.emit("telemetry", { hardware_id, count: 1 });
      }
      count = snapshot.length;
      const added = snapshot.length - (existing.length - gone.length);
      // Every sync is not an audit entry (one a minute per integration): what it changed is.
      if (added || gone.length || changes.length) {
        s.audit({
          action: "integrations.synced",
          category: "monitors",
          entity_type: "integration",
          entity_id: id,
          diff: { name: row.name, added, removed: gone.map((m) => m.name), status_changes: changes },
        });
      }
    }
    await s.tx
      .update(integrations)
      .set({
        sync_status: "ok",
        sync_error: null,
        last_synced_at: s.now,
        next_sync_at: row.type === "uptime_kuma" && row.enabled ? after(s.now, row.sync_interval_s) : null,
      })
      .where(eq(integrations.id, id));
    return count;
  },
);

/** Syncs integration `id` now (contracts14.md F2): the scheduled worker's and POST /{id}/sync's entry. */
export async function syncMonitoringIntegration(ctx: VerbContext, id: number): Promise<SyncOutcome> {
  requireScope(ctx, WRITE_INTEGRATIONS);
  const row = await findIntegration(ctx.db, id);
  if (row.type === "native") return { ok: true, monitors: await applySnapshot({ ctx, input: { id, snapshot: null } }), error: null };
  let snapshot: KumaMonitor[];
  try {
    const apiKey = await openApiKey(vaultOf(ctx), row);
    const policy = await readOutboundPolicy(ctx.db);
    snapshot = await fetchKumaMonitors(outboundOf(ctx), {
      base_url: row.base_url ?? "",
      slug: row.slug,
      apiKey,
      policy,
      timeoutMs: SYNC_TIMEOUT_MS,
    });
  } catch (e) {
    const error = syncMessage(e);
    await recordFailure({ ctx, input: { id, error } });
    return { ok: false, monitors: 0, error };
  }
  return { ok: true, monitors: await applySnapshot({ ctx, input: { id, snapshot } }), error: null };
}
