// POST /discovery/jobs/{job_id}/batch-import and /import-as-network: chosen results of one job into the
// inventory, each import one verb with one audit entry (its undo). A result of another job, unknown or
// already reviewed is skipped; a conflict is answered, not merged (it needs a decision of its own). The
// network variant also joins the nodes to a network for the scanned subnet (a placeholder made when none
// has that CIDR) and, given a map, places new nodes on it in a grid.
import { eq } from "drizzle-orm";
import { environments, mapEntities, maps, scanJobs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { MergeOverridesT } from "../../../schemas/discovery-results.ts";
import { defineVerb, requireScope, type VerbScope } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { type AcceptItem, acceptResults, type MergeOutcome } from "./merge-results.ts";
import { auditMerge, lockResults, markResults } from "./merge-writes.ts";
import { joinNetwork, subnetNetwork } from "./network-join.ts";
import type { ScanResultRow } from "./present-result.ts";
import { emptyUndo, type UndoLog } from "./undo-log.ts";

export interface ImportItem {
  scan_result_id: number;
  overrides: MergeOverridesT;
}

interface Imported {
  id: number;
  ip: string;
  position: { x: number; y: number } | null;
  scan_result_id: number;
}

interface ImportConflict {
  scan_result_id: number;
  ip: string | null;
  mac: string | null;
  reason: string;
}

export interface BatchImportAnswer {
  created: Imported[];
  updated: Imported[];
  conflicts: ImportConflict[];
  skipped: number[];
}

const conflictReason = (r: ScanResultRow) =>
  r.conflicts
    .map(
      (c) =>
        `${String(c.field)} ${String(c.discovered)} differs from ${String(c.entity_type)} ${String(c.entity_id)} (${String(c.existing)})`,
    )
    .join("; ") || "conflict";

async function loadJob(s: VerbScope, jobId: number) {
  const [job] = await s.tx
    .select({ id: scanJobs.id, target_cidr: scanJobs.target_cidr, targets: scanJobs.targets })
    .from(scanJobs)
    .where(eq(scanJobs.id, jobId));
  if (!job) throw new ApiError("RESOURCE_NOT_FOUND", `Scan job not found: there is no scan job ${jobId}.`);
  return job;
}

/** Merges the items' results of the job; the caller adds its own writes to `undo` before auditing. */
async function importItems(s: VerbScope, jobId: number, items: ImportItem[], undo: UndoLog, environmentId: number | null = null) {
  const rows = new Map(
    (
      await lockResults(
        s,
        items.map((i) => i.scan_result_id),
      )
    ).map((r) => [r.id, r]),
  );
  const skipped: number[] = [];
  const conflicts: ImportConflict[] = [];
  const accept: AcceptItem[] = [];
  const seen = new Set<number>();
  for (const [i, item] of items.entries()) {
    const r = rows.get(item.scan_result_id);
    if (!r || r.scan_job_id !== jobId || r.merge_status !== "pending" || seen.has(r.id)) {
      skipped.push(item.scan_result_id);
      continue;
    }
    seen.add(r.id);
    if (r.state === "conflict") {
      conflicts.push({ scan_result_id: r.id, ip: r.ip_address, mac: r.mac_address, reason: conflictReason(r) });
      continue;
    }
    accept.push({ result: r, overrides: item.overrides, loc: ["body", "items", i, "overrides"], environment_id: environmentId });
  }
  const out = await acceptResults(s, accept, undo);
  await markResults(s, out.marks, undo);
  const created: Imported[] = [];
  const updated: Imported[] = [];
  for (const a of accept) {
    const newId = out.created.get(a.result.id);
    if (newId !== undefined) created.push({ id: newId, ip: a.result.ip_address, position: null, scan_result_id: a.result.id });
    else updated.push({ id: out.updated.get(a.result.id)!.id, ip: a.result.ip_address, position: null, scan_result_id: a.result.id });
  }
  const hardwareIds = [...out.created.values(), ...[...out.updated.values()].filter((u) => u.type === "hardware").map((u) => u.id)];
  return { created, updated, conflicts, skipped, accepted: accept.map((a) => a.result.id), hardwareIds };
}

export const batchImport = defineVerb(
  { scope: WRITE_DISCOVERY },
  async (s, input: { job_id: number; items: ImportItem[] }): Promise<MergeOutcome<BatchImportAnswer>> => {
    await loadJob(s, input.job_id);
    const undo = emptyUndo();
    const { created, updated, conflicts, skipped, accepted } = await importItems(s, input.job_id, input.items, undo);
    const merge_id = accepted.length === 0 ? null : auditMerge(s, "batch_import", undo, { job_id: input.job_id, result_ids: accepted });
    return { merge_id, result_ids: accepted, answer: { created, updated, conflicts, skipped } };
  },
);

export interface ImportAsNetworkInput {
  job_id: number;
  items: ImportItem[];
  map_id?: number | null | undefined;
  environment_id?: number | null | undefined;
}

export interface ImportAsNetworkAnswer extends BatchImportAnswer {
  placeholders: { id: number; subnet: string }[];
  edges_created: number;
}

const GRID = { columns: 8, step: 160 };

export const importAsNetwork = defineVerb(
  { scope: WRITE_DISCOVERY },
  async (s, input: ImportAsNetworkInput): Promise<MergeOutcome<ImportAsNetworkAnswer>> => {
    const job = await loadJob(s, input.job_id);
    if (input.map_id != null) {
      // Placing on a map is a layout change: the caller needs write:layout as well.
      requireScope(s.ctx, "write:layout");
      const [map] = await s.tx.select({ id: maps.id }).from(maps).where(eq(maps.id, input.map_id)).for("update");
      if (!map) throw new ApiError("RESOURCE_NOT_FOUND", `Map not found: there is no map ${input.map_id}.`);
    }
    if (input.environment_id != null) {
      const [env] = await s.tx.select({ id: environments.id }).from(environments).where(eq(environments.id, input.environment_id));
      if (!env)
        throw ApiError.validation([
          { loc: ["body", "environment_id"], msg: `Environment ${input.environment_id} was not found.`, type: "foreign_key" },
        ]);
    }
    const undo = emptyUndo();
    const imported = await importItems(s, input.job_id, input.items, undo, input.environment_id ?? null);
    const cidr = job.target_cidr ?? (job.targets.length === 1 ? job.targets[0]! : null);
    const net = imported.accepted.length === 0 ? null : await subnetNetwork(s, cidr, undo);
    const placeholders = net?.created ? [{ id: net.id, subnet: net.cidr ?? "" }] : [];
    const ips = new Map([...imported.created, ...imported.updated].map((x) => [x.id, x.ip]));
    const edges_created = net
      ? await joinNetwork(
          s,
          net,
          imported.hardwareIds.map((id) => ({ id, ip: ips.get(id) ?? null })),
          undo,
        )
      : 0;
    if (input.map_id != null && imported.created.length > 0) {
      const mapId = input.map_id;
      for (const [i, c] of imported.created.entries())
        c.position = { x: (i % GRID.columns) * GRID.step, y: Math.floor(i / GRID.columns) * GRID.step };
      await s.tx
        .insert(mapEntities)
        .values(
          imported.created.map((c) => ({ map_id: mapId, entity_type: "hardware", entity_id: c.id, x: c.position!.x, y: c.position!.y })),
        )
        .onConflictDoNothing();
      undo.placements = imported.created.map((c) => ({ map_id: mapId, entity_type: "hardware", entity_id: c.id }));
      await s.tx.update(maps).set({ updated_at: s.now }).where(eq(maps.id, mapId));
      s.emit("inventory", { entity: "map", action: "update", id: mapId });
    }
    const merge_id =
      imported.accepted.length === 0
        ? null
        : auditMerge(s, "import_as_network", undo, {
            job_id: input.job_id,
            result_ids: imported.accepted,
            network_id: net?.id ?? null,
            map_id: input.map_id ?? null,
          });
    const { created, updated, conflicts, skipped } = imported;
    return { merge_id, result_ids: imported.accepted, answer: { created, updated, conflicts, skipped, placeholders, edges_created } };
  },
);
