// Power (docs/ports-and-cables.md): a node's draw (the sum of its power ports' allocated and maximum
// watts), a PDU's outlets and the power ports they feed (the far end of each outlet's cable), the load
// on a PDU (what its outlets feed draws) and on a rack (what its nodes draw). The same queries feed the
// API and the Prometheus families (shared/metrics/power-gauges.ts).
import { eq, sql } from "drizzle-orm";
import { hardware, powerOutlets, powerPorts, racks } from "../../../db/schema/index.ts";
import { type Db, queryRows } from "../../../db/database.ts";
import { ApiError } from "../../../errors.ts";
import { defineRead } from "../../verb.ts";
import { connections } from "./endpoints.ts";

export interface PowerLoad {
  id: number;
  name: string;
  allocated_w: number;
  maximum_w: number;
}

/** PDUs (nodes with outlets) after `after` by id: what their outlets feed draws. */
export const pduLoadQuery = (after: number, limit: number, only?: number) =>
  sql`select h.id, h.name, coalesce(sum(pp.allocated_w), 0)::int as allocated_w, coalesce(sum(pp.maximum_w), 0)::int as maximum_w
      from hardware h
      join power_outlets o on o.hardware_id = h.id
      left join cables c on (c.a_kind = 'power_outlet' and c.a_id = o.id and c.b_kind = 'power_port')
                         or (c.b_kind = 'power_outlet' and c.b_id = o.id and c.a_kind = 'power_port')
      left join power_ports pp on pp.id = case when c.a_kind = 'power_port' then c.a_id else c.b_id end
      where h.id > ${after} ${only === undefined ? sql`` : sql`and h.id = ${only}`}
      group by h.id, h.name order by h.id limit ${limit}`;

/** Racks after `after` by id: what the nodes mounted in them draw. */
export const rackPowerQuery = (after: number, limit: number, only?: number) =>
  sql`select r.id, r.name, s.name as site, coalesce(sum(pp.allocated_w), 0)::int as allocated_w, coalesce(sum(pp.maximum_w), 0)::int as maximum_w
      from racks r
      join sites s on s.id = r.site_id
      left join hardware h on h.rack_id = r.id
      left join power_ports pp on pp.hardware_id = h.id
      where r.id > ${after} ${only === undefined ? sql`` : sql`and r.id = ${only}`}
      group by r.id, r.name, s.name order by r.id limit ${limit}`;

const sum = (rows: { allocated_w: number | null; maximum_w: number | null }[]) => ({
  allocated_w: rows.reduce((n, r) => n + (r.allocated_w ?? 0), 0),
  maximum_w: rows.reduce((n, r) => n + (r.maximum_w ?? 0), 0),
});

async function nodePower(db: Db, hardwareId: number) {
  const [node] = await db.select({ id: hardware.id }).from(hardware).where(eq(hardware.id, hardwareId));
  if (!node) throw ApiError.notFound("Hardware node", hardwareId);
  const ports = await db.select().from(powerPorts).where(eq(powerPorts.hardware_id, hardwareId)).orderBy(powerPorts.name);
  const outlets = await db.select().from(powerOutlets).where(eq(powerOutlets.hardware_id, hardwareId)).orderBy(powerOutlets.name);
  const fed = await connections(
    db,
    "power_outlet",
    outlets.map((o) => o.id),
  );
  const feedIds = outlets.map((o) => fed(o.id).connected_to?.id).filter((x): x is number => x !== undefined);
  const draws = new Map(
    feedIds.length === 0
      ? []
      : (
          await db
            .select({ id: powerPorts.id, allocated_w: powerPorts.allocated_w, maximum_w: powerPorts.maximum_w })
            .from(powerPorts)
            .where(sql`${powerPorts.id} in ${feedIds}`)
        ).map((p) => [p.id, p]),
  );
  const outletRows = outlets.map((o) => {
    const feeds = fed(o.id).connected_to;
    const draw = feeds ? draws.get(feeds.id) : undefined;
    return { id: o.id, name: o.name, feeds, allocated_w: draw?.allocated_w ?? null, maximum_w: draw?.maximum_w ?? null };
  });
  return {
    hardware_id: hardwareId,
    draw: sum(ports),
    power_ports: ports.map((p) => ({ id: p.id, name: p.name, allocated_w: p.allocated_w, maximum_w: p.maximum_w })),
    outlets: outletRows,
    load: { ...sum(outletRows), outlets_used: outletRows.filter((o) => o.feeds).length, outlets_total: outletRows.length },
  };
}

export const hardwarePower = defineRead({ scope: "read:hardware" }, (ctx, { hardwareId }: { hardwareId: number }) =>
  nodePower(ctx.db, hardwareId),
);

export const rackPower = defineRead({ scope: "read:racks" }, async (ctx, { rackId }: { rackId: number }) => {
  const [rack] = await ctx.db.select({ id: racks.id }).from(racks).where(eq(racks.id, rackId));
  if (!rack) throw ApiError.notFound("Rack", rackId);
  const [total] = await queryRows<PowerLoad>(ctx.db, rackPowerQuery(0, 1, rackId));
  const nodes = await queryRows<PowerLoad>(
    ctx.db,
    sql`select h.id, h.name, coalesce(sum(pp.allocated_w), 0)::int as allocated_w, coalesce(sum(pp.maximum_w), 0)::int as maximum_w
        from hardware h left join power_ports pp on pp.hardware_id = h.id
        where h.rack_id = ${rackId} group by h.id, h.name order by h.name, h.id`,
  );
  return { rack_id: rackId, allocated_w: total?.allocated_w ?? 0, maximum_w: total?.maximum_w ?? 0, nodes };
});
