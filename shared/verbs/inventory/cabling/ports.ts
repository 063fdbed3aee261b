// The port kinds of a node, one resource definition each (interfaces, rear and front ports, power
// ports and outlets), made by one factory for what they share: the node they are on (given at creation,
// never moved), a name unique on that node (409 naming the port that has it), the cable they hold and
// its far end in the read shape, and the delete taking the port's cable with it. What each kind adds
// (LAG membership and VLANs, a front port's rear mapping, a rear port's positions) is its `check`.
import { eq, inArray, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type * as v from "valibot";
import { frontPorts, hardware, interfaces, powerOutlets, powerPorts, rearPorts, vlans } from "../../../db/schema/index.ts";
import { ENDPOINT_LABELS, type EndpointKind } from "../../../domain/cabling/endpoints.ts";
import { ApiError } from "../../../errors.ts";
import type {
  FrontPortListQuery,
  InterfaceListQuery,
  PowerOutletListQuery,
  PowerPortListQuery,
  RearPortListQuery,
} from "../../../schemas/cabling.ts";
import type { ListParams } from "../../../schemas/list-query.ts";
import { refuseWhileDependents } from "../../resources/dependents-conflict.ts";
import { eqFilter } from "../../resources/filters.ts";
import { iso, namesById } from "../../resources/present.ts";
import { defineResource, type RowOf, type ValuesOf } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { requireRow, requireUnique } from "../../resources/row-checks.ts";
import type { VerbScope } from "../../verb.ts";
import { cableOn, connections, removeCablesOn } from "./endpoints.ts";
import { ENDPOINT_TABLES } from "./tables.ts";

type PortTable = (typeof ENDPOINT_TABLES)[EndpointKind];
type Db = Parameters<typeof namesById>[0];
/** What every port row has. */
interface PortRow {
  id: number;
  hardware_id: number;
  name: string;
  description: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const invalid = (field: string, msg: string, type = "value_error") => ApiError.validation([{ loc: ["body", field], msg, type }]);

interface PortKind<T extends PortTable, Q extends ListParams, Extra> {
  kind: EndpointKind;
  table: T;
  filters?(q: Q): (SQL | undefined)[];
  /** The kind's own rules on the merged row (stored values overlaid by the input); refusals throw. */
  check?(s: VerbScope, merged: RowOf<T>, input: ValuesOf<T>, existing: RowOf<T> | undefined): Promise<void>;
  beforeDelete?(s: VerbScope, row: RowOf<T>): Promise<void>;
  /** What the kind's read shape adds, for a page of rows (one lookup for the page). */
  extra(db: Db, rows: RowOf<T>[]): Promise<(row: RowOf<T>) => Extra>;
}

function portResource<T extends PortTable, Q extends ListParams & { hardware_id?: number | undefined }, Extra>(p: PortKind<T, Q, Extra>) {
  // The columns every port table has, typed once for the shared steps.
  const c = p.table as unknown as Record<keyof PortRow, PgColumn>;
  const label = ENDPOINT_LABELS[p.kind];
  return resourceVerbs(
    defineResource({
      label,
      entityType: p.kind,
      scopeResource: "hardware",
      table: p.table,
      columns: { id: c.id, version: c.version },
      channels: ["inventory"],
      list: {
        sortable: { name: c.name, created_at: c.created_at, updated_at: c.updated_at },
        search: [c.name, c.description],
      },
      filters: (q: Q) => [eqFilter(c.hardware_id, q.hardware_id), ...(p.filters?.(q) ?? [])],
      async toValues(s, input, existing) {
        const merged = { ...existing, ...input } as RowOf<T>;
        const m = merged as unknown as PortRow;
        if (!existing) await requireRow(s.tx, hardware, hardware.id, m.hardware_id, "Hardware node", "hardware_id");
        if ("name" in input)
          await requireUnique(
            s.tx,
            {
              table: p.table,
              id: c.id,
              column: c.name,
              value: m.name,
              exceptId: (existing as PortRow | undefined)?.id,
              also: eq(c.hardware_id, m.hardware_id),
              field: "name",
              label,
            },
            (id) => `${label} ${id} of hardware node ${m.hardware_id}`,
          );
        await p.check?.(s, merged, input, existing);
        return input;
      },
      async beforeDelete(s, row) {
        await p.beforeDelete?.(s, row);
        const id = (row as unknown as PortRow).id;
        await removeCablesOn(s, [{ kind: p.kind, id }], `${label.toLowerCase()} ${id} deleted`);
      },
      async present(db, rows) {
        const ports = rows as unknown as PortRow[];
        const [nodes, cabled, extra] = await Promise.all([
          namesById(
            db,
            hardware,
            hardware.id,
            hardware.name,
            ports.map((r) => r.hardware_id),
          ),
          connections(
            db,
            p.kind,
            ports.map((r) => r.id),
          ),
          p.extra(db, rows),
        ]);
        return rows.map((row) => {
          const r = row as unknown as PortRow;
          return {
            id: r.id,
            hardware_id: r.hardware_id,
            hardware_name: nodes.get(r.hardware_id) ?? "",
            name: r.name,
            description: r.description,
            ...cabled(r.id),
            ...extra(row),
            version: r.version,
            created_at: iso(r.created_at)!,
            updated_at: iso(r.updated_at)!,
          };
        });
      },
    }),
  );
}

// Interfaces: LAG membership (a lag-type interface of the same node), VLAN mode and VLAN records.
type InterfaceRow = typeof interfaces.$inferSelect;

async function checkInterface(s: VerbScope, m: InterfaceRow, input: ValuesOf<typeof interfaces>, existing: InterfaceRow | undefined) {
  if (m.lag_id != null && ("lag_id" in input || "type" in input)) {
    if (existing && m.lag_id === existing.id) throw invalid("lag_id", "An interface cannot be a member of itself.");
    if (m.type === "lag") throw invalid("lag_id", "A lag interface cannot itself be a member of another lag.");
    const [lag] = await s.tx.select().from(interfaces).where(eq(interfaces.id, m.lag_id));
    if (!lag) throw invalid("lag_id", `Interface ${m.lag_id} was not found.`, "foreign_key");
    if (lag.hardware_id !== m.hardware_id)
      throw invalid(
        "lag_id",
        `Interface ${lag.id} (${lag.name}) is on hardware node ${lag.hardware_id}, not on this interface's node ${m.hardware_id}.`,
      );
    if (lag.type !== "lag") throw invalid("lag_id", `Interface ${lag.id} (${lag.name}) is a ${lag.type} interface, not a lag.`);
  }
  if (existing?.type === "lag" && "type" in input && m.type !== "lag") {
    const [member] = await s.tx
      .select({ id: interfaces.id, name: interfaces.name })
      .from(interfaces)
      .where(eq(interfaces.lag_id, existing.id))
      .limit(1);
    if (member) throw invalid("type", `Interface ${member.id} (${member.name}) is a member of this lag: remove it from the lag first.`);
  }
  if (existing && "type" in input && ["wireless", "virtual", "lag"].includes(m.type)) {
    const cable = await cableOn(s.tx, { kind: "interface", id: existing.id });
    if (cable) throw invalid("type", `A ${m.type} interface takes no cable, and cable ${cable.id} is on this one.`);
  }
  const tagged = m.tagged_vlan_ids ?? [];
  if (m.vlan_mode == null && (m.untagged_vlan_id != null || tagged.length > 0))
    throw invalid("vlan_mode", "VLANs need a VLAN mode (access, tagged or tagged-all).");
  if (m.vlan_mode === "access" && tagged.length > 0) throw invalid("tagged_vlan_ids", "An access port carries its untagged VLAN only.");
  if (m.vlan_mode === "tagged-all" && tagged.length > 0)
    throw invalid("tagged_vlan_ids", "A tagged-all port carries every VLAN: leave tagged_vlan_ids empty.");
  const wanted = [...(m.untagged_vlan_id != null ? [m.untagged_vlan_id] : []), ...tagged];
  if (wanted.length > 0 && ("untagged_vlan_id" in input || "tagged_vlan_ids" in input)) {
    const found = new Set((await s.tx.select({ id: vlans.id }).from(vlans).where(inArray(vlans.id, wanted))).map((r) => r.id));
    if (m.untagged_vlan_id != null && !found.has(m.untagged_vlan_id))
      throw invalid("untagged_vlan_id", `VLAN record ${m.untagged_vlan_id} was not found.`, "foreign_key");
    const missing = tagged.filter((id) => !found.has(id));
    if (missing.length > 0) throw invalid("tagged_vlan_ids", `VLAN records not found: ${missing.join(", ")}.`, "foreign_key");
    if (m.untagged_vlan_id != null && tagged.includes(m.untagged_vlan_id))
      throw invalid("tagged_vlan_ids", `VLAN record ${m.untagged_vlan_id} is the untagged VLAN; it cannot be tagged too.`);
  }
}

export const interfaceVerbs = portResource({
  kind: "interface",
  table: interfaces,
  filters: (q: v.InferOutput<typeof InterfaceListQuery>) => [
    eqFilter(interfaces.lag_id, q.lag_id),
    eqFilter(interfaces.type, q.type),
    q.enabled === undefined ? undefined : eq(interfaces.enabled, q.enabled === "true"),
  ],
  check: checkInterface,
  async extra(db, rows) {
    const lags = await namesById(
      db,
      interfaces,
      interfaces.id,
      interfaces.name,
      rows.map((r) => r.lag_id),
    );
    return (r: InterfaceRow) => ({
      type: r.type as "copper",
      speed_mbps: r.speed_mbps,
      mac_address: r.mac_address,
      enabled: r.enabled,
      lag_id: r.lag_id,
      lag_name: r.lag_id == null ? null : (lags.get(r.lag_id) ?? null),
      vlan_mode: r.vlan_mode as "access" | null,
      untagged_vlan_id: r.untagged_vlan_id,
      tagged_vlan_ids: r.tagged_vlan_ids,
    });
  },
});

// Rear ports carry positions; their front ports map onto them.
type RearRow = typeof rearPorts.$inferSelect;
export const rearPortVerbs = portResource({
  kind: "rear_port",
  table: rearPorts,
  filters: (_q: v.InferOutput<typeof RearPortListQuery>) => [],
  async check(s, m, input, existing) {
    if (!existing || !("positions" in input)) return;
    const [beyond] = await s.tx
      .select({ id: frontPorts.id, name: frontPorts.name, rear_position: frontPorts.rear_position })
      .from(frontPorts)
      .where(eq(frontPorts.rear_port_id, existing.id))
      .orderBy(frontPorts.rear_position)
      .then((rows) => rows.filter((r) => r.rear_position > m.positions));
    if (beyond) throw invalid("positions", `Front port ${beyond.id} (${beyond.name}) maps to position ${beyond.rear_position}.`);
  },
  beforeDelete: (s, row) =>
    refuseWhileDependents(s.tx, "Rear port", row.id, {
      type: "front_port",
      table: frontPorts,
      id: frontPorts.id,
      name: frontPorts.name,
      where: eq(frontPorts.rear_port_id, row.id),
    }),
  extra: async () => (r: RearRow) => ({ type: r.type, positions: r.positions }),
});

type FrontRow = typeof frontPorts.$inferSelect;
export const frontPortVerbs = portResource({
  kind: "front_port",
  table: frontPorts,
  filters: (q: v.InferOutput<typeof FrontPortListQuery>) => [eqFilter(frontPorts.rear_port_id, q.rear_port_id)],
  async check(s, m, input, existing) {
    if (!("rear_port_id" in input) && !("rear_position" in input)) return;
    const [rear] = await s.tx.select().from(rearPorts).where(eq(rearPorts.id, m.rear_port_id));
    if (!rear) throw invalid("rear_port_id", `Rear port ${m.rear_port_id} was not found.`, "foreign_key");
    if (rear.hardware_id !== m.hardware_id)
      throw invalid(
        "rear_port_id",
        `Rear port ${rear.id} (${rear.name}) is on hardware node ${rear.hardware_id}, not on this port's node ${m.hardware_id}.`,
      );
    const position = m.rear_position ?? 1;
    if (position > rear.positions)
      throw invalid(
        "rear_position",
        `Rear port ${rear.id} (${rear.name}) has ${rear.positions} position${rear.positions === 1 ? "" : "s"}.`,
      );
    await requireUnique(
      s.tx,
      {
        table: frontPorts,
        id: frontPorts.id,
        column: frontPorts.rear_position,
        value: position,
        exceptId: existing?.id,
        also: eq(frontPorts.rear_port_id, rear.id),
        field: "rear_position",
        label: "Front port",
      },
      (id) => `Front port ${id} (on rear port ${rear.id})`,
    );
  },
  async extra(db, rows) {
    const rears = await namesById(
      db,
      rearPorts,
      rearPorts.id,
      rearPorts.name,
      rows.map((r) => r.rear_port_id),
    );
    return (r: FrontRow) => ({
      type: r.type,
      rear_port_id: r.rear_port_id,
      rear_port_name: rears.get(r.rear_port_id) ?? "",
      rear_position: r.rear_position,
    });
  },
});

type PowerPortRow = typeof powerPorts.$inferSelect;
export const powerPortVerbs = portResource({
  kind: "power_port",
  table: powerPorts,
  filters: (_q: v.InferOutput<typeof PowerPortListQuery>) => [],
  async check(_s, m) {
    if (m.allocated_w != null && m.maximum_w != null && m.allocated_w > m.maximum_w)
      throw invalid("allocated_w", `The allocated draw (${m.allocated_w} W) is more than the maximum (${m.maximum_w} W).`);
  },
  extra: async () => (r: PowerPortRow) => ({ allocated_w: r.allocated_w, maximum_w: r.maximum_w }),
});

export const powerOutletVerbs = portResource({
  kind: "power_outlet",
  table: powerOutlets,
  filters: (_q: v.InferOutput<typeof PowerOutletListQuery>) => [],
  extra: async () => () => ({}),
});

/** A node's ports of every kind (its delete takes their cables first). */
export async function portsOfNode(db: Db, hardwareId: number) {
  const kinds = Object.entries(ENDPOINT_TABLES) as [EndpointKind, PortTable][];
  const lists = await Promise.all(
    kinds.map(async ([kind, t]) =>
      (await db.select({ id: t.id }).from(t).where(eq(t.hardware_id, hardwareId))).map((r) => ({ kind, id: r.id })),
    ),
  );
  return lists.flat();
}
