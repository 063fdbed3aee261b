// POST /discovery/results/enhanced-bulk-merge: a bulk accept with per-result assignments (name, role,
// vendor, catalogue keys), optionally a new cluster holding the nodes, a network they join (existing or
// new) and a service per open port. One verb, one transaction, one audit entry (its undo): a refused
// part (a cluster name taken, a bad network) refuses the whole merge. Conflicts and reviewed results
// are skipped. `errors` lists what was left out without failing (an unknown environment name).
import { eq, inArray, sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { environments, hardware, hardwareClusters, services } from "../../../db/schema/index.ts";
import type { MergeOverridesT } from "../../../schemas/discovery-results.ts";
import { requireUnique } from "../../resources/row-checks.ts";
import { slugify, uniqueSlug } from "../../inventory/services/slug.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import { acceptResults, type MergeOutcome } from "./merge-results.ts";
import { announce, auditMerge, lockResults, markResults } from "./merge-writes.ts";
import { ensureNetwork, joinNetwork, type NetworkSpec } from "./network-join.ts";
import type { ScanResultRow } from "./present-result.ts";
import { emptyUndo, type UndoLog } from "./undo-log.ts";

export interface EnhancedMergeInput {
  result_ids: number[];
  cluster?:
    | {
        name: string;
        description?: string | null | undefined;
        environment?: string | null | undefined;
        location?: string | null | undefined;
      }
    | null
    | undefined;
  network?: NetworkSpec | null | undefined;
  assignments: {
    result_id: number;
    vendor?: string | null | undefined;
    vendor_catalog_key?: string | null | undefined;
    model_catalog_key?: string | null | undefined;
    vendor_icon_slug?: string | null | undefined;
    role?: string | null | undefined;
    name?: string | null | undefined;
  }[];
  create_services: boolean;
}

export interface EnhancedMergeAnswer {
  merged: number;
  skipped: number;
  created: { clusters: number; networks: number; services: number };
  hardware_ids: number[];
  errors: string[];
}

const overridesOf = (a: EnhancedMergeInput["assignments"][number] | undefined): MergeOverridesT => {
  if (!a) return {};
  const { name, role, vendor, vendor_catalog_key, model_catalog_key } = a;
  return Object.fromEntries(
    Object.entries({ name, role, vendor, vendor_catalog_key, model_catalog_key }).filter(([, x]) => x != null),
  ) as MergeOverridesT;
};

async function createCluster(
  s: VerbScope,
  spec: NonNullable<EnhancedMergeInput["cluster"]>,
  hardwareIds: number[],
  undo: UndoLog,
  errors: string[],
): Promise<void> {
  await requireUnique(s.tx, {
    table: hardwareClusters,
    id: hardwareClusters.id,
    column: hardwareClusters.name,
    value: spec.name,
    field: "cluster.name",
    label: "Hardware cluster",
  });
  let environmentId: number | null = null;
  if (spec.environment) {
    const [env] = await s.tx.select({ id: environments.id }).from(environments).where(eq(environments.name, spec.environment));
    if (env) environmentId = env.id;
    else errors.push(`Environment "${spec.environment}" was not found; the cluster has none.`);
  }
  const [row] = await s.tx
    .insert(hardwareClusters)
    .values({ name: spec.name, description: spec.description ?? null, environment_id: environmentId })
    .returning({ id: hardwareClusters.id, version: hardwareClusters.version });
  undo.created.push({ table: "hardware_clusters", id: row!.id, version: row!.version });
  announce(s, "hardware_clusters", "create", row!.id);
  // Members go with the cluster when an undo deletes it (cascade).
  if (hardwareIds.length > 0)
    await s.tx.execute(
      sql`insert into cluster_members (cluster_id, hardware_id) select ${row!.id}, h::int from jsonb_array_elements_text(${JSON.stringify(hardwareIds)}::jsonb) as j(h) on conflict do nothing`,
    );
  if (spec.location && hardwareIds.length > 0) {
    const nodes = hardwareIds.map((id) => ({ id, location: spec.location! }));
    const before = await queryRows<{ id: number; location: string | null; version: number }>(
      s.tx,
      sql`
      with u as (select * from jsonb_to_recordset(${JSON.stringify(nodes)}::jsonb) as x(id int, location text)),
      old as (select h.id, h.location from hardware h where h.id in (select id from u) for update)
      update hardware h set location = u.location, version = h.version + 1, updated_at = ${s.now.toISOString()}::timestamptz
      from u, old where h.id = u.id and old.id = u.id and h.location is distinct from u.location
      returning h.id, old.location, h.version`,
    );
    for (const b of before) {
      // A node this merge already touched keeps one undo entry: its first before-values, its latest version.
      const made = undo.created.find((r) => r.table === "hardware" && r.id === b.id);
      const changed = undo.updated.find((r) => r.table === "hardware" && r.id === b.id);
      if (made) made.version = b.version;
      else if (changed) {
        changed.version = b.version;
        if (!("location" in changed.before)) changed.before.location = b.location;
      } else undo.updated.push({ table: "hardware", id: b.id, version: b.version, before: { location: b.location } });
    }
  }
}

/** A service per open port of each merged node, named after what answered there. */
async function createServices(s: VerbScope, merged: { result: ScanResultRow; hardwareId: number }[], undo: UndoLog): Promise<number> {
  if (merged.length === 0) return 0;
  const names = new Map(
    (
      await s.tx
        .select({ id: hardware.id, name: hardware.name })
        .from(hardware)
        .where(
          inArray(
            hardware.id,
            merged.map((m) => m.hardwareId),
          ),
        )
    ).map((h) => [h.id, h.name]),
  );
  let n = 0;
  for (const { result, hardwareId } of merged) {
    for (const p of result.open_ports) {
      const label = p.service ?? `port ${p.port}`;
      const name = `${label} on ${names.get(hardwareId) ?? result.ip_address}`.slice(0, 200);
      const slug = await uniqueSlug(s.tx, slugify(name));
      const [row] = await s.tx
        .insert(services)
        .values({
          name,
          slug,
          status: "running",
          hardware_id: hardwareId,
          ip_address: result.ip_address,
          ports: [{ ip: result.ip_address, port: p.port, protocol: p.protocol ?? "tcp", label: p.service ?? null }],
        })
        .returning({ id: services.id, version: services.version });
      undo.created.push({ table: "services", id: row!.id, version: row!.version });
      announce(s, "services", "create", row!.id);
      n++;
    }
  }
  return n;
}

export const enhancedBulkMerge = defineVerb(
  { scope: WRITE_DISCOVERY },
  async (s, input: EnhancedMergeInput): Promise<MergeOutcome<EnhancedMergeAnswer>> => {
    const ids = [...new Set(input.result_ids)];
    const rows = (await lockResults(s, ids)).filter((r) => r.merge_status === "pending" && r.state !== "conflict");
    const skipped = ids.length - rows.length;
    const errors: string[] = [];
    const created = { clusters: 0, networks: 0, services: 0 };
    if (rows.length === 0) return { merge_id: null, result_ids: [], answer: { merged: 0, skipped, created, hardware_ids: [], errors } };
    const assigned = new Map(input.assignments.map((a) => [a.result_id, a]));
    for (const a of input.assignments)
      if (!rows.some((r) => r.id === a.result_id))
        errors.push(`Assignment for result ${a.result_id} ignored: it is not among the merged results.`);
    const undo = emptyUndo();
    const out = await acceptResults(
      s,
      rows.map((result) => ({ result, overrides: overridesOf(assigned.get(result.id)), loc: ["body", "assignments"] })),
      undo,
    );
    await markResults(s, out.marks, undo);
    const merged = rows.flatMap((result) => {
      const id =
        out.created.get(result.id) ?? (out.updated.get(result.id)?.type === "hardware" ? out.updated.get(result.id)!.id : undefined);
      return id === undefined ? [] : [{ result, hardwareId: id }];
    });
    const hardwareIds = [...new Set(merged.map((m) => m.hardwareId))];
    if (input.cluster) {
      await createCluster(s, input.cluster, hardwareIds, undo, errors);
      created.clusters = 1;
    }
    if (input.network) {
      const net = await ensureNetwork(s, input.network, undo, ["body", "network"]);
      if (net.created) created.networks = 1;
      await joinNetwork(
        s,
        net,
        merged.map((m) => ({ id: m.hardwareId, ip: m.result.ip_address })),
        undo,
      );
    }
    if (input.create_services) created.services = await createServices(s, merged, undo);
    const merge_id = auditMerge(s, "enhanced_bulk_merge", undo, { result_ids: rows.map((r) => r.id) });
    return {
      merge_id,
      result_ids: rows.map((r) => r.id),
      answer: { merged: rows.length, skipped, created, hardware_ids: hardwareIds, errors },
    };
  },
);
