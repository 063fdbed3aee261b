// Cables: two endpoints of any kind (interface, front/rear port, power port/outlet) on either side, with
// type, status, label, colour and length. One cable per endpoint: 409 naming the cable that holds it
// (checked across both sides under a transaction lock, the per-side unique indexes behind it); ends of
// different families (a power port to an interface) are a 422. A cable between ports of two nodes
// belongs to the connection between them (connection-link.ts, ADR 0493).
import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import type * as v from "valibot";
import { cables, interfaces } from "../../../db/schema/index.ts";
import { type EndpointKind, incompatibility } from "../../../domain/cabling/endpoints.ts";
import type { EndpointRef } from "../../../domain/cabling/trace.ts";
import { ApiError } from "../../../errors.ts";
import type { CableListQuery } from "../../../schemas/cabling.ts";
import { eqFilter } from "../../resources/filters.ts";
import { iso } from "../../resources/present.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import type { VerbScope } from "../../verb.ts";
import { connectionFor, dropConnectionsWithoutCables } from "./connection-link.ts";
import { describeEndpoints, type EndpointView } from "./endpoints.ts";
import { type CableRow, ENDPOINT_TABLES, endpointKey, endsOf } from "./tables.ts";

/** One lock for every cable write: the cross-side one-cable-per-endpoint check is then race-free. */
const CABLE_LOCK = 7_246_033;

const invalid = (field: string, msg: string, type = "value_error") => ApiError.validation([{ loc: ["body", field], msg, type }]);

async function checkEnds(s: VerbScope, a: EndpointRef, b: EndpointRef, exceptId: number | undefined): Promise<void> {
  if (a.kind === b.kind && a.id === b.id) throw invalid("b_id", "A cable joins two different endpoints.");
  const views = await describeEndpoints(s.tx, [a, b]);
  for (const [side, e] of [["a", a] as const, ["b", b] as const])
    if (!views.has(endpointKey(e))) throw invalid(`${side}_id`, `${e.kind.replace("_", " ")} ${e.id} was not found.`, "foreign_key");
  const types = new Map<number, string>();
  const ifIds = [a, b].filter((e) => e.kind === "interface").map((e) => e.id);
  if (ifIds.length > 0)
    for (const r of await s.tx.select({ id: interfaces.id, type: interfaces.type }).from(interfaces).where(inArray(interfaces.id, ifIds)))
      types.set(r.id, r.type);
  const why = incompatibility(
    { kind: a.kind, interfaceType: a.kind === "interface" ? types.get(a.id) : null },
    { kind: b.kind, interfaceType: b.kind === "interface" ? types.get(b.id) : null },
  );
  if (why) throw invalid("b_kind", why);
  await s.tx.execute(sql`select pg_advisory_xact_lock(${CABLE_LOCK})`);
  for (const [side, e] of [["a", a] as const, ["b", b] as const]) {
    const on = or(and(eq(cables.a_kind, e.kind), eq(cables.a_id, e.id)), and(eq(cables.b_kind, e.kind), eq(cables.b_id, e.id)));
    const [held] = await s.tx
      .select({ id: cables.id, label: cables.label })
      .from(cables)
      .where(exceptId === undefined ? on : and(on, ne(cables.id, exceptId)))
      .limit(1);
    if (held) {
      const v = views.get(endpointKey(e))!;
      const msg = `Cable ${held.id}${held.label ? ` (${held.label})` : ""} already holds ${e.kind.replace("_", " ")} ${e.id} (${v.hardware_name}:${v.name}).`;
      throw ApiError.conflict(msg, { fields: { [`${side}_id`]: msg }, cable_id: held.id });
    }
  }
}

export const cableDef = defineResource({
  label: "Cable",
  entityType: "cable",
  scopeResource: "hardware",
  table: cables,
  columns: { id: cables.id, version: cables.version },
  channels: ["inventory", "topology"],
  list: {
    sortable: { id: cables.id, label: cables.label, created_at: cables.created_at, updated_at: cables.updated_at },
    search: [cables.label, cables.type, cables.colour, cables.description],
  },
  filters: (q: v.InferOutput<typeof CableListQuery>) => [
    eqFilter(cables.connection_id, q.connection_id),
    eqFilter(cables.status, q.status),
    q.hardware_id === undefined ? undefined : onNode(q.hardware_id),
  ],
  async toValues(s, input, existing) {
    const ends = ["a_kind", "a_id", "b_kind", "b_id"] as const;
    if (existing && !ends.some((k) => k in input)) return input;
    const m = { ...existing, ...input } as CableRow;
    const a = { kind: m.a_kind as EndpointKind, id: m.a_id };
    const b = { kind: m.b_kind as EndpointKind, id: m.b_id };
    await checkEnds(s, a, b, existing?.id);
    if (existing?.connection_id != null) {
      // The old connection may lose its last cable: let go of it before it goes (it would take the cable).
      await s.tx.update(cables).set({ connection_id: null }).where(eq(cables.id, existing.id));
      await dropConnectionsWithoutCables(s, [existing.connection_id]);
    }
    return { ...input, connection_id: await connectionFor(s, a, b) };
  },
  async beforeDelete(s, row) {
    if (row.connection_id == null) return;
    await s.tx.update(cables).set({ connection_id: null }).where(eq(cables.id, row.id));
    await dropConnectionsWithoutCables(s, [row.connection_id]);
  },
  present: presentCables,
});

export const cableVerbs = resourceVerbs(cableDef);

/** Cables with an end on one of the node's ports. */
function onNode(hardwareId: number) {
  const kinds = Object.entries(ENDPOINT_TABLES) as [EndpointKind, (typeof ENDPOINT_TABLES)[EndpointKind]][];
  return or(
    ...kinds.flatMap(([kind, t]) => {
      const ids = sql`(select ${t.id} from ${t} where ${t.hardware_id} = ${hardwareId})`;
      return [and(eq(cables.a_kind, kind), sql`${cables.a_id} in ${ids}`), and(eq(cables.b_kind, kind), sql`${cables.b_id} in ${ids}`)];
    }),
  );
}

const unknownEnd = (e: EndpointRef): EndpointView => ({ kind: e.kind, id: e.id, name: "", hardware_id: 0, hardware_name: "" });

export async function presentCables(db: Parameters<typeof describeEndpoints>[0], rows: CableRow[]) {
  const views = await describeEndpoints(db, rows.flatMap(endsOf));
  return rows.map((r) => {
    const [a, b] = endsOf(r);
    return {
      id: r.id,
      a_kind: a.kind,
      a_id: a.id,
      b_kind: b.kind,
      b_id: b.id,
      a: views.get(endpointKey(a)) ?? unknownEnd(a),
      b: views.get(endpointKey(b)) ?? unknownEnd(b),
      type: r.type,
      status: r.status as "connected",
      label: r.label,
      colour: r.colour,
      length: r.length,
      length_unit: r.length_unit as "m" | null,
      description: r.description,
      connection_id: r.connection_id,
      version: r.version,
      created_at: iso(r.created_at)!,
      updated_at: iso(r.updated_at)!,
    };
  });
}
