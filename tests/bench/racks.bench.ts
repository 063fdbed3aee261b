// Issue 33 item 1: a rack elevation of 42 U with 40 devices (target < 50 ms), GET
// /api/v1/racks/{id}/elevation through the real server, beside the bare SQL it rests on (the rack row,
// its placed nodes, its reservations and the unplaced nodes); and a device moved in the rack (PATCH with
// If-Match, the console's drag), whose write locks the rack and checks the overlap. `npm run bench racks`.
import { api, type BenchContext, type BenchRow, hit, measure, round } from "./harness.ts";

const DEVICES = 40;
const CALLS = 200;

async function seedRack(ctx: BenchContext): Promise<{ rackId: number; moverId: number }> {
  const site = (await api(ctx, "POST", "/api/v1/sites", { name: `rack bench site ${Date.now()}` })) as { id: number };
  const rack = (await api(ctx, "POST", "/api/v1/racks", { site_id: site.id, name: "bench-42", u_height: 42 })) as { id: number };
  // Two 2 U devices full depth (units 1-4), 37 of 1 U on the front (units 5-41), one on the rear of
  // unit 5 (the one that moves); unit 42 reserved: 41 U used, nothing free.
  let moverId = 0;
  for (let i = 0; i < DEVICES; i++) {
    const tall = i < 2;
    const last = i === DEVICES - 1;
    const node = (await api(ctx, "POST", "/api/v1/hardware", {
      name: `rack-bench-${i}`,
      rack_id: rack.id,
      rack_unit: tall ? 1 + 2 * i : last ? 5 : i + 3,
      u_height: tall ? 2 : 1,
      rack_face: tall ? "both" : last ? "rear" : "front",
    })) as { id: number };
    if (last) moverId = node.id;
  }
  await api(ctx, "POST", `/api/v1/racks/${rack.id}/reservations`, { first_unit: 42, reason: "bench" });
  return { rackId: rack.id, moverId };
}

async function bareSql(ctx: BenchContext, rackId: number): Promise<number> {
  const once = async () => {
    await ctx.sql`select * from racks where id = ${rackId}`;
    await Promise.all([
      ctx.sql`select id, name, rack_id, rack_unit, u_height, rack_face from hardware where rack_id = ${rackId} and rack_unit is not null order by rack_unit, id`,
      ctx.sql`select id, rack_id, first_unit, u_count, reason from rack_reservations where rack_id = ${rackId} order by first_unit, id`,
      ctx.sql`select id, name from hardware where rack_id = ${rackId} and (rack_unit is null or u_height = 0) order by name, id`,
    ]);
  };
  return (await measure(CALLS, once)).p50;
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const { rackId, moverId } = await seedRack(ctx);
  const elevation = await api(ctx, "GET", `/api/v1/racks/${rackId}/elevation`);
  const used = (elevation as { utilisation: { used_u: number } }).utilisation.used_u;
  const e = await measure(CALLS, () => hit(ctx, "GET", `/api/v1/racks/${rackId}/elevation`));
  const sqlMs = await bareSql(ctx, rackId);
  // The same rack's record (one row and its utilisation): the floor of an authenticated GET here.
  const g = await measure(CALLS, () => hit(ctx, "GET", `/api/v1/racks/${rackId}`));
  // The rear device moves between the rear of units 5 and 6, free but for itself.
  const m = await measure(100, (i) => hit(ctx, "PATCH", `/api/v1/hardware/${moverId}`, { rack_unit: 5 + (i % 2) }), 10);
  return [
    {
      name: `rack elevation, 42 U with ${DEVICES} devices`,
      p50_ms: e.p50,
      p99_ms: e.p99,
      rps: e.rps,
      baseline_sql_ms: round(sqlMs),
      note: `GET /racks/{id}/elevation, ${CALLS} calls, ${used} U used, 1 reserved; target < 50 ms`,
    },
    {
      name: "the rack's record with its utilisation",
      p50_ms: g.p50,
      p99_ms: g.p99,
      rps: g.rps,
      note: `GET /racks/{id}, ${CALLS} calls: the same request without the units`,
    },
    {
      name: "device moved in the rack (PATCH, rack locked, overlap checked)",
      p50_ms: m.p50,
      p99_ms: m.p99,
      rps: m.rps,
      note: "100 PATCHes of one device between two units of the rear",
    },
  ];
}
