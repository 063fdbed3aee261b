// POST /discovery/results/{id}/merge and /results/bulk-merge: each one verb, one transaction, one audit
// entry holding its undo. Accepting a new result creates a hardware node; accepting a matched (or, one at a
// time, a conflicting) result writes what the scan saw onto the node it matched; a match whose node was
// deleted meanwhile becomes a new node. Rejecting only marks the result.
import { inArray, sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import type { OpenPort } from "../../../domain/discovery/finding.ts";
import { computeUnits, hardware, scanResults } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { MergeOverridesT } from "../../../schemas/discovery-results.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import type { VerbContext } from "../../verb-context.ts";
import { WRITE_DISCOVERY } from "../scopes.ts";
import {
  auditMerge,
  createNodes,
  lockResults,
  markResults,
  type NewNode,
  type NodeUpdate,
  type ResultMark,
  updateMatched,
} from "./merge-writes.ts";
import type { ScanResultRow } from "./present-result.ts";
import { emptyUndo, MERGE_ENTITY } from "./undo-log.ts";

/** The matched results whose node still exists. */
async function stillMatched(s: VerbScope, rows: ScanResultRow[]): Promise<Set<number>> {
  const ids = (type: string) =>
    rows.filter((r) => r.matched_entity_type === type && r.matched_entity_id != null).map((r) => r.matched_entity_id!);
  const hw = ids("hardware");
  const cu = ids("compute_unit");
  const live = new Set<string>();
  if (hw.length > 0)
    for (const r of await s.tx.select({ id: hardware.id }).from(hardware).where(inArray(hardware.id, hw))) live.add(`hardware:${r.id}`);
  if (cu.length > 0)
    for (const r of await s.tx.select({ id: computeUnits.id }).from(computeUnits).where(inArray(computeUnits.id, cu)))
      live.add(`compute_unit:${r.id}`);
  return new Set(rows.filter((r) => live.has(`${r.matched_entity_type}:${r.matched_entity_id}`)).map((r) => r.id));
}

export interface AcceptItem {
  result: ScanResultRow;
  overrides: MergeOverridesT;
  loc: (string | number)[];
  environment_id?: number | null;
}

export interface AcceptOutcome {
  /** result id -> the node it became or updated. */
  created: Map<number, number>;
  updated: Map<number, { type: string; id: number }>;
  marks: ResultMark[];
}

/** Accepts the results: new ones become nodes, matched ones update theirs. The caller marks and audits. */
export async function acceptResults(s: VerbScope, items: AcceptItem[], undo = emptyUndo()): Promise<AcceptOutcome> {
  const live = await stillMatched(
    s,
    items.map((i) => i.result),
  );
  const fresh: NewNode[] = items.filter((i) => !live.has(i.result.id));
  const known: NodeUpdate[] = items.filter((i) => live.has(i.result.id));
  // Two new results of one address (two scans of it, neither merged yet) become one node.
  const firstByIp = new Map<string, NewNode>();
  for (const f of fresh) if (!firstByIp.has(f.result.ip_address)) firstByIp.set(f.result.ip_address, f);
  const created = await createNodes(s, [...firstByIp.values()], undo);
  for (const f of fresh)
    if (!created.has(f.result.id)) created.set(f.result.id, created.get(firstByIp.get(f.result.ip_address)!.result.id)!);
  await updateMatched(s, known, undo);
  const updated = new Map(known.map((k) => [k.result.id, { type: k.result.matched_entity_type!, id: k.result.matched_entity_id! }]));
  const marks: ResultMark[] = [
    ...fresh.map((f) => ({
      result: f.result,
      merge_status: "merged" as const,
      entity: { type: "hardware", id: created.get(f.result.id)! },
    })),
    ...known.map((k) => ({ result: k.result, merge_status: "accepted" as const, entity: updated.get(k.result.id)! })),
  ];
  return { created, updated, marks };
}

export interface MergeInput {
  result_id: number;
  action: "accept" | "reject";
  overrides: MergeOverridesT;
}

/** What a merge verb answers: its answer, and what finds and links its audit entry. */
export interface MergeOutcome<A> {
  merge_id: string | null;
  result_ids: number[];
  answer: A;
}

export interface MergeAnswer {
  rejected?: boolean;
  updated?: boolean;
  entity_type?: string;
  entity_id?: number;
  ports?: OpenPort[];
}

export const mergeResult = defineVerb({ scope: WRITE_DISCOVERY }, async (s, input: MergeInput): Promise<MergeOutcome<MergeAnswer>> => {
  const [row] = await lockResults(s, [input.result_id]);
  if (!row) throw new ApiError("RESOURCE_NOT_FOUND", `Scan result not found: there is no scan result ${input.result_id}.`);
  if (row.merge_status !== "pending") throw ApiError.conflict(`Scan result ${row.id} is already ${row.merge_status}.`);
  const undo = emptyUndo();
  if (input.action === "reject") {
    await markResults(s, [{ result: row, merge_status: "rejected" }], undo);
    return { merge_id: auditMerge(s, "merge.reject", undo, { result_ids: [row.id] }), result_ids: [row.id], answer: { rejected: true } };
  }
  const out = await acceptResults(s, [{ result: row, overrides: input.overrides, loc: ["body", "overrides"] }], undo);
  await markResults(s, out.marks, undo);
  const merge_id = auditMerge(s, "merge.accept", undo, { result_ids: [row.id] });
  const createdId = out.created.get(row.id);
  const answer: MergeAnswer =
    createdId !== undefined
      ? { entity_type: "hardware", entity_id: createdId, ports: row.open_ports }
      : { updated: true, entity_type: out.updated.get(row.id)!.type, entity_id: out.updated.get(row.id)!.id };
  return { merge_id, result_ids: [row.id], answer };
});

export interface BulkMergeInput {
  result_ids: number[];
  action: "accept" | "reject";
}

export const bulkMerge = defineVerb({ scope: WRITE_DISCOVERY }, async (s, input: BulkMergeInput) => {
  const rows = await lockResults(s, [...new Set(input.result_ids)]);
  const pending = rows.filter((r) => r.merge_status === "pending");
  // Conflicts need a decision per result (POST /results/{id}/merge); a bulk accept leaves them.
  const chosen = input.action === "accept" ? pending.filter((r) => r.state !== "conflict") : pending;
  const skipped = input.result_ids.length - chosen.length;
  if (chosen.length === 0) return { merge_id: null, result_ids: [], answer: { accepted: 0, rejected: 0, skipped } };
  const undo = emptyUndo();
  if (input.action === "reject") {
    await markResults(
      s,
      chosen.map((result) => ({ result, merge_status: "rejected" as const })),
      undo,
    );
  } else {
    const out = await acceptResults(
      s,
      chosen.map((result) => ({ result, overrides: {}, loc: ["body", "result_ids"] })),
      undo,
    );
    await markResults(s, out.marks, undo);
  }
  const ids = chosen.map((r) => r.id);
  const merge_id = auditMerge(s, `bulk_merge.${input.action}`, undo, { result_ids: ids });
  const n = chosen.length;
  return {
    merge_id,
    result_ids: ids,
    answer: { accepted: input.action === "accept" ? n : 0, rejected: input.action === "reject" ? n : 0, skipped },
  };
});

/**
 * The audit entry a merge recorded (found by its merge id once the verb committed), linked from the
 * results it consumed: the id a client gives to POST /discovery/merges/{audit_id}/undo.
 */
export const linkMergeAudit = defineVerb(
  { scope: WRITE_DISCOVERY },
  async (s, input: { merge_id: string | null; result_ids: number[] }) => {
    if (input.merge_id === null) return null;
    const [entry] = await queryRows<{ id: number }>(
      s.tx,
      sql`select id::int as id from audit_log where entity_type = ${MERGE_ENTITY} and entity_id = ${input.merge_id}`,
    );
    if (!entry) return null;
    if (input.result_ids.length > 0)
      await s.tx.update(scanResults).set({ merge_audit_id: entry.id }).where(inArray(scanResults.id, input.result_ids));
    return entry.id;
  },
);

/** Runs a merge verb and answers its answer with the audit id undo takes. */
export async function withAuditId<A extends object>(
  ctx: VerbContext,
  run: Promise<MergeOutcome<A>>,
): Promise<A & { audit_id: number | null }> {
  const { merge_id, result_ids, answer } = await run;
  const audit_id = await linkMergeAudit({ ctx, input: { merge_id, result_ids } });
  return { ...answer, audit_id };
}
