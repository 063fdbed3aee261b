// The inventory writes a merge makes, set-based (one statement per kind of write whatever the number of
// results), each noted in the merge's undo log and announced like the inventory verbs announce theirs
// (`inventory` and `topology`, {entity, action, id}). New nodes pass the inventory's own body rule
// (HardwareCreate) before they are written.
import { inArray, sql } from "drizzle-orm";
import * as v from "valibot";
import { queryRows } from "../../../db/database.ts";
import { hardware, scanResults } from "../../../db/schema/index.ts";
import { ApiError, type ValidationIssue } from "../../../errors.ts";
import { HardwareCreate } from "../../../schemas/hardware.ts";
import type { MergeOverridesT } from "../../../schemas/discovery-results.ts";
import { iso } from "../../resources/present.ts";
import type { VerbScope } from "../../verb.ts";
import { inferResult } from "./infer.ts";
import { loadHostnameRules } from "./kb-rules.ts";
import type { ScanResultRow } from "./present-result.ts";
import { MERGE_ENTITY, type UndoLog } from "./undo-log.ts";

const ENTITY_OF = {
  hardware: "hardware",
  compute_units: "compute_unit",
  networks: "network",
  hardware_clusters: "cluster",
  services: "service",
} as const;

export function announce(s: VerbScope, table: keyof typeof ENTITY_OF, action: "create" | "update" | "delete", id: number): void {
  for (const channel of ["inventory", "topology"] as const) s.emit(channel, { entity: ENTITY_OF[table], action, id });
}

/** Who reviewed: the actor's e-mail, "api-token" for a token without one, "system" for the system. */
export function reviewer(s: VerbScope): string {
  const a = s.ctx.actor;
  return a?.email ?? (a?.kind === "system" ? "system" : "api-token");
}

/** The results `ids` names that exist, locked for the merge. */
export async function lockResults(s: VerbScope, ids: number[]): Promise<ScanResultRow[]> {
  return s.tx.select().from(scanResults).where(inArray(scanResults.id, ids)).orderBy(scanResults.id).for("update");
}

export interface NewNode {
  result: ScanResultRow;
  overrides: MergeOverridesT;
  /** The error's location for a value the inventory refuses (["body", "items", 3, "overrides"]). */
  loc: (string | number)[];
  environment_id?: number | null;
}

/** Creates one hardware node per result; answers result id -> node id. */
export async function createNodes(s: VerbScope, nodes: NewNode[], undo: UndoLog): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (nodes.length === 0) return out;
  const issues: ValidationIssue[] = [];
  const rules = await loadHostnameRules(s.tx);
  const values = nodes.map((n) => {
    const inf = inferResult(n.result, rules);
    const body = {
      name: n.overrides.name ?? inf.name,
      // What a scan or the knowledge base named is cut to the column's limit; overrides were checked against it.
      role: n.overrides.role ?? inf.role?.slice(0, 100) ?? null,
      vendor: n.overrides.vendor ?? inf.vendor?.slice(0, 100) ?? null,
      model: n.overrides.model ?? n.result.model?.slice(0, 100) ?? null,
      notes: n.overrides.notes ?? null,
      vendor_catalog_key: n.overrides.vendor_catalog_key ?? null,
      model_catalog_key: n.overrides.model_catalog_key ?? null,
      ip_address: n.result.ip_address,
      mac_address: n.result.mac_address,
      status: "up" as const,
      environment_id: n.environment_id ?? null,
    };
    const parsed = v.safeParse(HardwareCreate, body);
    if (!parsed.success)
      for (const i of parsed.issues)
        issues.push({ loc: [...n.loc, ...(i.path ?? []).map((p) => p.key as string)], msg: i.message, type: i.type });
    return { ...(parsed.success ? parsed.output : body), status_changed_at: s.now };
  });
  if (issues.length > 0) throw ApiError.validation(issues);
  const created = await s.tx.insert(hardware).values(values).returning({ id: hardware.id, version: hardware.version });
  // A multi-row VALUES insert returns its rows in the order given.
  created.forEach((row, i) => {
    out.set(nodes[i]!.result.id, row.id);
    undo.created.push({ table: "hardware", id: row.id, version: row.version });
    announce(s, "hardware", "create", row.id);
  });
  return out;
}

export interface NodeUpdate {
  result: ScanResultRow;
  overrides: MergeOverridesT;
}

const HW_COLUMNS = [
  "name",
  "role",
  "vendor",
  "model",
  "notes",
  "vendor_catalog_key",
  "model_catalog_key",
  "ip_address",
  "mac_address",
] as const;

/**
 * Writes what the results saw onto the nodes they matched: the address and MAC they were found at, the
 * vendor where the node has none, and the overrides. A node matched twice takes the first result.
 * Compute units take the address only. Unchanged nodes are not touched.
 */
export async function updateMatched(s: VerbScope, updates: NodeUpdate[], undo: UndoLog): Promise<void> {
  const seen = new Set<string>();
  const hw: Record<string, unknown>[] = [];
  const cu: Record<string, unknown>[] = [];
  for (const { result: r, overrides: o } of updates) {
    const key = `${r.matched_entity_type}:${r.matched_entity_id}`;
    if (r.matched_entity_id == null || seen.has(key)) continue;
    seen.add(key);
    if (r.matched_entity_type === "hardware")
      hw.push({
        id: r.matched_entity_id,
        ...o,
        vendor: o.vendor ?? null,
        vendor_fill: r.vendor?.slice(0, 100) ?? null,
        ip_address: r.ip_address,
        mac_address: r.mac_address,
      });
    else if (r.matched_entity_type === "compute_unit") cu.push({ id: r.matched_entity_id, ip_address: r.ip_address });
  }
  if (hw.length > 0) {
    const rows = await queryRows<{ id: number; version: number; old: Record<string, unknown>; new: Record<string, unknown> }>(
      s.tx,
      sql`
      with u as (
        select * from jsonb_to_recordset(${JSON.stringify(hw)}::jsonb) as x(id int, name text, role text, vendor text, model text, notes text,
          vendor_catalog_key text, model_catalog_key text, ip_address text, mac_address text, vendor_fill text)
      ),
      old as (select h.* from hardware h where h.id in (select id from u) for update)
      update hardware h set
        name = coalesce(u.name, h.name), role = coalesce(u.role, h.role), vendor = coalesce(u.vendor, h.vendor, u.vendor_fill),
        model = coalesce(u.model, h.model), notes = coalesce(u.notes, h.notes), vendor_catalog_key = coalesce(u.vendor_catalog_key, h.vendor_catalog_key),
        model_catalog_key = coalesce(u.model_catalog_key, h.model_catalog_key), ip_address = coalesce(u.ip_address, h.ip_address),
        mac_address = coalesce(u.mac_address, h.mac_address), version = h.version + 1, updated_at = ${s.now.toISOString()}::timestamptz
      from u, old
      where h.id = u.id and old.id = u.id
        and (coalesce(u.name, h.name), coalesce(u.role, h.role), coalesce(u.vendor, h.vendor, u.vendor_fill), coalesce(u.model, h.model),
          coalesce(u.notes, h.notes), coalesce(u.vendor_catalog_key, h.vendor_catalog_key), coalesce(u.model_catalog_key, h.model_catalog_key),
          coalesce(u.ip_address, h.ip_address), coalesce(u.mac_address, h.mac_address))
          is distinct from (h.name, h.role, h.vendor, h.model, h.notes, h.vendor_catalog_key, h.model_catalog_key, h.ip_address, h.mac_address)
      returning h.id, h.version, to_jsonb(old) as old, to_jsonb(h) as new`,
    );
    for (const r of rows) {
      const before = Object.fromEntries(HW_COLUMNS.filter((c) => r.old[c] !== r.new[c]).map((c) => [c, r.old[c]]));
      undo.updated.push({ table: "hardware", id: r.id, version: r.version, before });
      announce(s, "hardware", "update", r.id);
    }
  }
  if (cu.length > 0) {
    const rows = await queryRows<{ id: number; version: number; old_ip: string | null }>(
      s.tx,
      sql`
      with u as (select * from jsonb_to_recordset(${JSON.stringify(cu)}::jsonb) as x(id int, ip_address text)),
      old as (select c.id, c.ip_address from compute_units c where c.id in (select id from u) for update)
      update compute_units c set ip_address = u.ip_address, version = c.version + 1, updated_at = ${s.now.toISOString()}::timestamptz
      from u, old where c.id = u.id and old.id = u.id and c.ip_address is distinct from u.ip_address
      returning c.id, c.version, old.ip_address as old_ip`,
    );
    for (const r of rows) {
      undo.updated.push({ table: "compute_units", id: r.id, version: r.version, before: { ip_address: r.old_ip } });
      announce(s, "compute_units", "update", r.id);
    }
  }
}

export interface ResultMark {
  result: ScanResultRow;
  merge_status: "accepted" | "merged" | "rejected";
  entity?: { type: string; id: number };
}

/** Marks the results reviewed (and linked to the node they became), noting their previous review. */
export async function markResults(s: VerbScope, marks: ResultMark[], undo: UndoLog): Promise<void> {
  if (marks.length === 0) return;
  const by = reviewer(s);
  const rows = marks.map((m) => ({
    id: m.result.id,
    merge_status: m.merge_status,
    entity_type: m.entity?.type ?? null,
    entity_id: m.entity?.id ?? null,
  }));
  await s.tx.execute(sql`
    update scan_results r set merge_status = u.merge_status, reviewed_by = ${by}, reviewed_at = ${s.now.toISOString()}::timestamptz,
      matched_entity_type = coalesce(u.entity_type, r.matched_entity_type), matched_entity_id = coalesce(u.entity_id, r.matched_entity_id)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as u(id int, merge_status text, entity_type text, entity_id int)
    where r.id = u.id`);
  for (const m of marks) {
    const r = m.result;
    undo.results.push({
      id: r.id,
      merge_status_after: m.merge_status,
      merge_status: r.merge_status,
      reviewed_by: r.reviewed_by,
      reviewed_at: iso(r.reviewed_at),
      matched_entity_type: r.matched_entity_type,
      matched_entity_id: r.matched_entity_id,
      state: r.state,
    });
  }
  const jobs = [...new Set(marks.map((m) => m.result.scan_job_id))];
  s.emit("discovery", { type: "results_reviewed", job_ids: jobs, count: marks.length });
}

/** The merge's one audit entry; its id is what undo takes. Answers the merge id that finds the entry. */
export function auditMerge(s: VerbScope, kind: string, undo: UndoLog, extra: Record<string, unknown> = {}): string {
  const mergeId = s.ctx.random.uuid();
  s.audit({
    action: `discovery.${kind}`,
    category: "inventory",
    entity_type: MERGE_ENTITY,
    entity_id: mergeId,
    diff: { merge_id: mergeId, kind, ...extra, undo },
  });
  return mergeId;
}
