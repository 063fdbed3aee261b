// The five endpoint kinds as tables: describing endpoints (node and port names) for answers, finding the
// cable on a port, and removing the cables of ports that go (a port's or a node's delete).
import { and, eq, inArray, or, type SQL } from "drizzle-orm";
import { cables, hardware } from "../../../db/schema/index.ts";
import type { Db } from "../../../db/database.ts";
import { ENDPOINT_KINDS, type EndpointKind } from "../../../domain/cabling/endpoints.ts";
import type { EndpointRef } from "../../../domain/cabling/trace.ts";
import type { VerbScope } from "../../verb.ts";
import { dropConnectionsWithoutCables } from "./connection-link.ts";
import { type CableRow, ENDPOINT_TABLES, endpointKey, endsOf } from "./tables.ts";

export interface EndpointView {
  kind: EndpointKind;
  id: number;
  name: string;
  hardware_id: number;
  hardware_name: string;
}

/** Node and port names of these endpoints, one query per kind present. */
export async function describeEndpoints(db: Db, refs: EndpointRef[]): Promise<Map<string, EndpointView>> {
  const out = new Map<string, EndpointView>();
  await Promise.all(
    ENDPOINT_KINDS.map(async (kind) => {
      const ids = [...new Set(refs.filter((r) => r.kind === kind).map((r) => r.id))];
      if (ids.length === 0) return;
      const t = ENDPOINT_TABLES[kind];
      const rows = await db
        .select({ id: t.id, name: t.name, hardware_id: t.hardware_id, hardware_name: hardware.name })
        .from(t)
        .innerJoin(hardware, eq(hardware.id, t.hardware_id))
        .where(inArray(t.id, ids));
      for (const r of rows) out.set(endpointKey({ kind, id: r.id }), { kind, ...r });
    }),
  );
  return out;
}

const onEnds = (kind: EndpointKind, ids: number[]): SQL | undefined =>
  or(and(eq(cables.a_kind, kind), inArray(cables.a_id, ids)), and(eq(cables.b_kind, kind), inArray(cables.b_id, ids)));

/** The cables on these ports of one kind, by port id. */
export async function cablesOnPorts(db: Db, kind: EndpointKind, ids: number[]): Promise<Map<number, CableRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(cables).where(onEnds(kind, ids));
  const out = new Map<number, CableRow>();
  for (const c of rows) for (const e of endsOf(c)) if (e.kind === kind && ids.includes(e.id)) out.set(e.id, c);
  return out;
}

/** The cable holding one endpoint, if any. */
export async function cableOn(db: Db, end: EndpointRef): Promise<CableRow | undefined> {
  return (await cablesOnPorts(db, end.kind, [end.id])).get(end.id);
}

/**
 * For a page of ports of one kind: the cable each holds and what is at its other end, for the read
 * shapes' cable_id and connected_to.
 */
export async function connections(db: Db, kind: EndpointKind, ids: number[]) {
  const held = await cablesOnPorts(db, kind, ids);
  const far = (id: number): EndpointRef | undefined => {
    const c = held.get(id);
    if (!c) return undefined;
    const [a, b] = endsOf(c);
    return a.kind === kind && a.id === id ? b : a;
  };
  const views = await describeEndpoints(
    db,
    ids.map(far).filter((e): e is EndpointRef => e !== undefined),
  );
  return (id: number) => {
    const f = far(id);
    return { cable_id: held.get(id)?.id ?? null, connected_to: f ? (views.get(endpointKey(f)) ?? null) : null };
  };
}

/**
 * Deletes the cables on these ports (the ports are about to go), audited one by one; a connection that
 * loses its last cable goes with it (./connection-link.ts).
 */
export async function removeCablesOn(s: VerbScope, ends: EndpointRef[], why: string): Promise<number[]> {
  const removed: number[] = [];
  const links: (number | null)[] = [];
  for (const kind of ENDPOINT_KINDS) {
    const ids = ends.filter((e) => e.kind === kind).map((e) => e.id);
    if (ids.length === 0) continue;
    const rows = await s.tx.delete(cables).where(onEnds(kind, ids)).returning();
    for (const row of rows) {
      removed.push(row.id);
      links.push(row.connection_id);
      s.audit({
        action: "cable.delete",
        category: "inventory",
        entity_type: "cable",
        entity_id: row.id,
        diff: { before: row, reason: why },
      });
      s.emit("inventory", { entity: "cable", action: "delete", id: row.id });
    }
  }
  await dropConnectionsWithoutCables(s, links);
  return removed;
}
