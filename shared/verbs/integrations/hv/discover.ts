// POST /integrations/hv/{id}/discover and the scheduled sync (spec/catalogue.tsv, group hypervisor integration): reads the
// cluster with no transaction open (hv-read.ts), then writes nodes, guests, bridges and storage into the
// inventory in ONE audited verb transaction keyed by external_refs (source `hv:<config id>`), writing only
// what changed and marking what vanished. Each run is a hv_discover_runs row: inserted "running" before
// the read (its own small transaction, so the run is visible while the cluster is read), then
// "completed" with the counts in the inventory transaction, or "failed" with the reason, changing nothing else.
import { and, eq, lt, sql } from "drizzle-orm";
import { externalRefs, hvDiscoverRuns, integrationConfigs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import type { VerbContext } from "../../verb-context.ts";
import { WRITE_INTEGRATIONS } from "../scopes.ts";
import {
  adoptHvNodes,
  type HvChange,
  markHvVanished,
  type RefRow,
  syncHvMembers,
  syncHvRows,
  type Vanished,
  type WriteTally,
} from "./discover-writes.ts";
import { hvDepsOf, openHvApi } from "./hv-connection.ts";
import { hvInventory, type HvEntityType, type HvInventory } from "./hv-inventory.ts";
import { readHvSnapshot } from "./hv-read.ts";
import type { HvSnapshot } from "./hv-snapshot.ts";
import type { PveClient } from "./pve-client.ts";

export const hvSource = (configId: number) => `hv:${configId}`;

export interface HvDiscoverOut {
  ok: boolean;
  cluster_name: string | null;
  nodes_imported: number;
  vms_imported: number;
  cts_imported: number;
  networks_imported: number;
  storage_imported: number;
  results_queued: 0;
  review_job_id: null;
  errors: string[];
  run_id: number;
  rows_written: number;
  vanished: Vanished[];
}

/** More changed rows than this are announced as one "import" event per entity type, not one each. */
const EVENTS_PER_ROW_MAX = 100;
const RUN_ENTITY = "hv_discover_run";
/** Far above a 2,000-guest read (seconds): a run still "running" after this was interrupted. */
const STALE_RUN_MS = 30 * 60_000;
const INTERRUPTED = "The run was interrupted: the process stopped before it finished.";

const startRun = defineVerb<
  { configId: number; trigger: string; triggeredBy: string | null },
  { runId: number; client: PveClient },
  PveClient
>(
  {
    scope: WRITE_INTEGRATIONS,
    async prepare(ctx, { configId }) {
      const [row] = await ctx.db.select().from(integrationConfigs).where(eq(integrationConfigs.id, configId));
      if (row?.type !== "hv") throw new ApiError("RESOURCE_NOT_FOUND", "Integration not found");
      // A missing or malformed token is the reference's 400, before any run is recorded.
      return openHvApi(ctx.db, hvDepsOf(ctx), row);
    },
  },
  async (s, { configId, trigger, triggeredBy }, client) => {
    // A run whose process stopped mid-read would say "running" for ever: older than any real read, it failed.
    await s.tx
      .update(hvDiscoverRuns)
      .set({ status: "failed", completed_at: s.now, errors: [INTERRUPTED] })
      .where(
        and(
          eq(hvDiscoverRuns.integration_id, configId),
          eq(hvDiscoverRuns.status, "running"),
          lt(hvDiscoverRuns.started_at, new Date(s.now.getTime() - STALE_RUN_MS)),
        ),
      );
    const [run] = await s.tx
      .insert(hvDiscoverRuns)
      .values({ integration_id: configId, status: "running", trigger, triggered_by: triggeredBy, started_at: s.now })
      .returning({ id: hvDiscoverRuns.id });
    await s.tx
      .update(integrationConfigs)
      .set({ last_sync_status: "syncing", updated_at: s.now })
      .where(eq(integrationConfigs.id, configId));
    return { runId: run!.id, client };
  },
);

const failRun = defineVerb<{ configId: number; runId: number; error: string }, void>(
  { scope: WRITE_INTEGRATIONS },
  async (s, { configId, runId, error }) => {
    await s.tx
      .update(hvDiscoverRuns)
      .set({ status: "failed", completed_at: s.now, errors: [error] })
      .where(eq(hvDiscoverRuns.id, runId));
    await s.tx
      .update(integrationConfigs)
      .set({ last_sync_at: s.now, last_sync_status: "error", last_sync_error: error, updated_at: s.now })
      .where(eq(integrationConfigs.id, configId));
    s.audit({
      action: "integrations.hv.discover",
      category: "inventory",
      level: "warning",
      entity_type: RUN_ENTITY,
      entity_id: runId,
      diff: { integration_id: configId, status: "failed", error },
    });
  },
);

interface Applied {
  inv: HvInventory;
  rows: number;
  vanished: Vanished[];
  errors: string[];
}

const applyRun = defineVerb<{ configId: number; runId: number; configUrl: string; snap: HvSnapshot }, Applied>(
  { scope: WRITE_INTEGRATIONS },
  async (s, { configId, runId, configUrl, snap }) => {
    const [row] = await s.tx.select().from(integrationConfigs).where(eq(integrationConfigs.id, configId)).for("update");
    if (row?.type !== "hv") throw new ApiError("RESOURCE_NOT_FOUND", "Integration not found");
    // An operator who repointed the config while the cluster was read gets the new cluster next time,
    // not the old cluster's guests under the new config.
    if (row.config_url !== configUrl) return s.refuse(ApiError.conflict("The config's URL changed during the discover; run it again."));
    const source = hvSource(configId);
    await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${source}))`);
    const refs = new Map<string, RefRow>(
      (await s.tx.select().from(externalRefs).where(eq(externalRefs.source, source))).map((r) => [r.external_id, r]),
    );
    const inv = hvInventory(snap);
    const tally: WriteTally = { created: [], updated: [], rows: 0 };

    await adoptHvNodes(s, source, refs, inv.hardware);
    const hw = await syncHvRows(s, source, refs, "hardware", inv.hardware, tally);
    const computeRows = inv.compute.map((c) => ({ ...c, values: { ...c.values, hardware_id: hw.get(c.node) ?? null } }));
    const cu = await syncHvRows(s, source, refs, "compute_unit", computeRows, tally);
    const storageRows = inv.storage.map((r) => ({ ...r, values: { ...r.values, hardware_id: r.node ? (hw.get(r.node) ?? null) : null } }));
    await syncHvRows(s, source, refs, "storage", storageRows, tally);
    const nets = await syncHvRows(s, source, refs, "network", inv.networks, tally);

    const netIds = [...nets.values()];
    // Nodes whose network was not read keep their memberships as they are.
    const readNodes = inv.hardware.filter((h) => snap.networks.has(String(h.attributes.node))).map((h) => hw.get(h.external_id)!);
    tally.rows += await syncHvMembers(
      s,
      "hardware",
      netIds,
      readNodes,
      inv.networks.flatMap((n) =>
        n.nodes
          .filter((m) => hw.has(m.node))
          .map((m) => ({ network_id: nets.get(n.external_id)!, member_id: hw.get(m.node)!, ip_address: m.ip })),
      ),
    );
    const readGuests = inv.compute.filter((c) => c.bridges !== null);
    tally.rows += await syncHvMembers(
      s,
      "compute",
      netIds,
      readGuests.map((c) => cu.get(c.external_id)!),
      readGuests.flatMap((c) =>
        c
          .bridges!.filter((b) => nets.has(`bridge/${b.bridge}`))
          .map((b) => ({ network_id: nets.get(`bridge/${b.bridge}`)!, member_id: cu.get(c.external_id)!, ip_address: b.ip })),
      ),
    );

    const seen = new Set([...inv.hardware, ...inv.compute, ...inv.storage, ...inv.networks].map((r) => r.external_id));
    const keep = new Set<HvEntityType>(snap.networksPartial ? ["network"] : []);
    const vanished = await markHvVanished(s, source, refs, seen, keep, tally);

    const errors = snap.errors;
    await s.tx
      .update(hvDiscoverRuns)
      .set({
        status: "completed",
        completed_at: s.now,
        cluster_name: snap.clusterName,
        ...importedCounts(inv.counts),
        rows_written: tally.rows,
        vanished,
        errors,
      })
      .where(eq(hvDiscoverRuns.id, runId));
    await s.tx
      .update(integrationConfigs)
      .set({
        cluster_name: snap.clusterName,
        last_sync_at: s.now,
        last_sync_status: errors.length > 0 ? "partial" : "ok",
        last_sync_error: errors.length > 0 ? errors.slice(0, 5).join("; ") : null,
        updated_at: s.now,
      })
      .where(eq(integrationConfigs.id, configId));
    emitChanges(s, tally, vanished);
    const ids = (list: HvChange[]) => list.map((c) => [c.entity_type, c.id, c.name]);
    s.audit({
      action: "integrations.hv.discover",
      category: "inventory",
      entity_type: RUN_ENTITY,
      entity_id: runId,
      diff: {
        integration_id: configId,
        source,
        cluster_name: snap.clusterName,
        counts: inv.counts,
        rows_written: tally.rows,
        created: ids(tally.created),
        updated: tally.updated.map((c) => [c.entity_type, c.id, c.name, c.fields]),
        vanished,
        errors,
      },
    });
    return { inv, rows: tally.rows, vanished, errors };
  },
);

/** The five per-kind counts of a run, as the run row and the answer name them. */
function importedCounts(c: { nodes: number; vms: number; cts: number; networks: number; storage: number }) {
  return { nodes_imported: c.nodes, vms_imported: c.vms, cts_imported: c.cts, networks_imported: c.networks, storage_imported: c.storage };
}

/** The run's audit entry is appended when its transaction commits; the run row points at it after. */
const linkRunAudit = defineVerb<{ runId: number }, void>({ scope: WRITE_INTEGRATIONS }, async (s, { runId }) => {
  await s.tx.execute(
    sql`update hv_discover_runs set audit_id = (select max(id) from audit_log where entity_type = ${RUN_ENTITY} and entity_id = ${String(runId)}) where id = ${runId}`,
  );
});

function emitChanges(s: VerbScope, tally: WriteTally, vanished: Vanished[]) {
  const changes = [
    ...tally.created.map((c) => ["create", c] as const),
    ...tally.updated.map((c) => ["update", c] as const),
    ...vanished.map((v) => ["update", { entity_type: v.entity_type, id: v.entity_id }] as const),
  ];
  if (changes.length <= EVENTS_PER_ROW_MAX) {
    for (const [action, c] of changes) {
      s.emit("inventory", { entity: c.entity_type, action, id: c.id });
      s.emit("topology", { entity: c.entity_type, action, id: c.id });
    }
    return;
  }
  const types = new Set(changes.map(([, c]) => c.entity_type));
  for (const entity of types) {
    const count = (list: { entity_type: string }[]) => list.filter((c) => c.entity_type === entity).length;
    const payload = { entity, action: "import", created: count(tally.created), updated: count(tally.updated), removed: count(vanished) };
    s.emit("inventory", payload);
    s.emit("topology", payload);
  }
}

export async function discoverHv(
  ctx: VerbContext,
  configId: number,
  trigger: "manual" | "scheduled",
  triggeredBy: string | null,
): Promise<HvDiscoverOut> {
  const { runId, client } = await startRun({ ctx, input: { configId, trigger, triggeredBy } });
  const base = { results_queued: 0 as const, review_job_id: null, run_id: runId };
  const failed = async (error: string): Promise<HvDiscoverOut> => {
    await failRun({ ctx, input: { configId, runId, error } });
    await linkRunAudit({ ctx, input: { runId } });
    return {
      ...base,
      ok: false,
      cluster_name: null,
      ...importedCounts({ nodes: 0, vms: 0, cts: 0, networks: 0, storage: 0 }),
      errors: [error],
      rows_written: 0,
      vanished: [],
    };
  };
  let snap: HvSnapshot;
  try {
    snap = await readHvSnapshot(client);
  } catch (e) {
    // PveError and OutboundError messages are operator-safe (never the token, never a body).
    return failed(e instanceof Error ? e.message : String(e));
  }
  const [cfg] = await ctx.db
    .select({ config_url: integrationConfigs.config_url })
    .from(integrationConfigs)
    .where(and(eq(integrationConfigs.id, configId), eq(integrationConfigs.type, "hv")));
  let applied: Applied;
  try {
    applied = await applyRun({ ctx, input: { configId, runId, configUrl: cfg?.config_url ?? "", snap } });
  } catch (e) {
    // The config was changed (409) or removed (404) meanwhile; anything else is ours: the run must not stay "running".
    if (e instanceof ApiError && e.status === 409) return failed(e.message);
    await failed(e instanceof ApiError ? e.message : "The inventory could not be written; see the server log.");
    throw e;
  }
  await linkRunAudit({ ctx, input: { runId } });
  const { inv } = applied;
  return {
    ...base,
    ok: true,
    cluster_name: snap.clusterName,
    ...importedCounts(inv.counts),
    errors: applied.errors,
    rows_written: applied.rows,
    vanished: applied.vanished,
  };
}
