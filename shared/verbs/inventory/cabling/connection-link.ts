// A cable between ports of two nodes is a node-to-node hardware connection, the edge the topology, the
// blast radius and the export read (ADR 0493): a cable joins the connection between its nodes (either
// direction; power cables a "power" one running from the outlet's node, data cables any other), one is
// made when there is none, and a connection goes with its last cable.
import { and, eq, inArray, like, ne, notExists, or, sql } from "drizzle-orm";
import { cables, hardwareConnections, interfaces } from "../../../db/schema/index.ts";
import type { EndpointRef } from "../../../domain/cabling/trace.ts";
import type { VerbScope } from "../../verb.ts";
import { ENDPOINT_TABLES } from "./tables.ts";

async function nodeOf(s: VerbScope, e: EndpointRef): Promise<number | undefined> {
  const t = ENDPOINT_TABLES[e.kind];
  const [row] = await s.tx.select({ hardware_id: t.hardware_id }).from(t).where(eq(t.id, e.id));
  return row?.hardware_id;
}

/** The connection a cable with these ends belongs to (made when missing), or null when both ends are on one node. */
export async function connectionFor(s: VerbScope, a: EndpointRef, b: EndpointRef): Promise<number | null> {
  const power = a.kind === "power_outlet" || a.kind === "power_port";
  // Power flows from the outlet: its node is the connection's source (the blast radius runs source -> target).
  const [from, to] = power && b.kind === "power_outlet" ? [b, a] : [a, b];
  const [source, target] = [await nodeOf(s, from), await nodeOf(s, to)];
  if (source === undefined || target === undefined || source === target) return null;
  const pair = or(
    and(eq(hardwareConnections.source_hardware_id, source), eq(hardwareConnections.target_hardware_id, target)),
    and(eq(hardwareConnections.source_hardware_id, target), eq(hardwareConnections.target_hardware_id, source)),
  );
  const type = power ? eq(hardwareConnections.connection_type, "power") : ne(hardwareConnections.connection_type, "power");
  const [found] = await s.tx
    .select({ id: hardwareConnections.id })
    .from(hardwareConnections)
    .where(and(pair, type))
    .orderBy(hardwareConnections.id)
    .limit(1);
  if (found) return found.id;
  const row = await insertConnection(s, {
    source_hardware_id: source,
    target_hardware_id: target,
    connection_type: power ? "power" : "ethernet",
  });
  return row.id;
}

/** Writes one hardware connection with its audit entry and topology event (the connections API and the cables). */
export async function insertConnection(s: VerbScope, values: typeof hardwareConnections.$inferInsert) {
  const [row] = await s.tx.insert(hardwareConnections).values(values).returning();
  s.audit({
    action: "hardware.connection.create",
    category: "inventory",
    entity_type: "hardware_connection",
    entity_id: row!.id,
    diff: { after: row },
  });
  s.emit("topology", { entity: "hardware_connection", action: "create", id: row!.id });
  return row!;
}

/** Deletes those of these connections that no cable belongs to any more. */
export async function dropConnectionsWithoutCables(s: VerbScope, ids: (number | null)[]): Promise<void> {
  const wanted = [...new Set(ids.filter((x): x is number => x !== null))];
  if (wanted.length === 0) return;
  const gone = await s.tx
    .delete(hardwareConnections)
    .where(
      and(
        inArray(hardwareConnections.id, wanted),
        notExists(s.tx.select({ one: sql`1` }).from(cables).where(eq(cables.connection_id, hardwareConnections.id))),
      ),
    )
    .returning();
  for (const row of gone) {
    s.audit({
      action: "hardware.connection.delete",
      category: "inventory",
      entity_type: "hardware_connection",
      entity_id: row.id,
      diff: { before: row, reason: "its last cable was removed" },
    });
    s.emit("topology", { entity: "hardware_connection", action: "delete", id: row.id });
  }
}

/** A free interface name on the node: `base`, else `base-2`, `base-3`, ... */
async function freeName(s: VerbScope, hardwareId: number, base: string): Promise<string> {
  const taken = new Set(
    (
      await s.tx
        .select({ name: interfaces.name })
        .from(interfaces)
        .where(and(eq(interfaces.hardware_id, hardwareId), like(interfaces.name, `${base}%`)))
    ).map((r) => r.name),
  );
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  return name;
}

/**
 * A connection made through the connections API gets its cable, as the migration gave every connection
 * before it (migrations/0046): an interface link-<id> on each node and a cable carrying the type and notes.
 */
export async function cableForConnection(s: VerbScope, c: typeof hardwareConnections.$inferSelect): Promise<number> {
  const ends: number[] = [];
  for (const node of [c.source_hardware_id, c.target_hardware_id]) {
    const [row] = await s.tx
      .insert(interfaces)
      .values({
        hardware_id: node,
        name: await freeName(s, node, `link-${c.id}`),
        type: "copper",
        speed_mbps: c.bandwidth_mbps,
        description: `Hardware connection ${c.id}`,
      })
      .returning();
    s.audit({ action: "interface.create", category: "inventory", entity_type: "interface", entity_id: row!.id, diff: { after: row } });
    ends.push(row!.id);
  }
  const [cable] = await s.tx
    .insert(cables)
    .values({
      a_kind: "interface",
      a_id: ends[0]!,
      b_kind: "interface",
      b_id: ends[1]!,
      type: c.connection_type,
      label: `link-${c.id}`,
      description: c.notes,
      connection_id: c.id,
    })
    .returning();
  s.audit({ action: "cable.create", category: "inventory", entity_type: "cable", entity_id: cable!.id, diff: { after: cable } });
  s.emit("inventory", { entity: "cable", action: "create", id: cable!.id });
  return cable!.id;
}
