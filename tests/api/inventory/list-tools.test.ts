// The console's list tools against real PostgreSQL: POST {base}/bulk-update (one PATCH body set on every
// selected record, all or nothing, an audit entry each, the resource's own rules and scopes) and
// GET {base}/export.csv (every record the list's filters select, the columns asked, quoted by csv-stringify).
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const create = async (path: string, body: Record<string, unknown>) => {
  const res = await a.req("POST", path, a.admin, body);
  expect(res.status, path).toBe(201);
  return (await res.json()).id as number;
};

describe("bulk update", () => {
  it("sets one field on every selected record, an audit entry each", async () => {
    const site = await create("sites", { name: "bulk-site" });
    const ids = [await create("hardware", { name: "bu-1" }), await create("hardware", { name: "bu-2" })];
    const res = await a.req("POST", "hardware/bulk-update", a.editor, { ids, set: { site_id: site } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ updated: ids });
    const rows = await a.t.sql<
      { site_id: number; version: number }[]
    >`select site_id, version from hardware where id = any(${ids}) order by id`;
    expect(rows).toEqual([
      { site_id: site, version: 2 },
      { site_id: site, version: 2 },
    ]);
    const [count] = await a.t.sql<
      { n: number }[]
    >`select count(*)::int as n from audit_log where action = 'hardware.update' and entity_id = any(${ids.map(String)})`;
    expect(count!.n).toBe(2);
    // null clears it, as a PATCH would.
    expect((await a.req("POST", "hardware/bulk-update", a.editor, { ids, set: { site_id: null } })).status).toBe(200);
    expect((await a.t.sql`select site_id from hardware where id = any(${ids})`).map((r) => r.site_id)).toEqual([null, null]);
  });

  it("refuses the whole selection when one record cannot take the value, naming it", async () => {
    const net = await create("networks", { name: "bu-net", cidr: "10.88.0.0/24" });
    const ip1 = await create("ipam", { address: "10.88.0.1", network_id: net });
    const ip2 = await create("ipam", { address: "10.99.0.1" });
    const other = await create("networks", { name: "bu-net-2", cidr: "10.99.0.0/24" });
    // 10.88.0.1 is not inside 10.99.0.0/24: that record is refused, and neither moves.
    const res = await a.req("POST", "ipam/bulk-update", a.editor, { ids: [ip1, ip2], set: { network_id: other } });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.refused.map((r: { id: number }) => r.id)).toEqual([ip1]);
    expect(body.fields.ids).toContain("Nothing was changed");
    const rows = await a.t.sql<
      { network_id: number | null }[]
    >`select network_id from ip_addresses where id = any(${[ip1, ip2]}) order by id`;
    expect(rows.map((r) => r.network_id)).toEqual([net, null]);
  });

  it("validates the set by the resource's PATCH rules, and needs the write scope", async () => {
    const ids = [await create("hardware", { name: "bu-3" })];
    const bad = await a.req("POST", "hardware/bulk-update", a.editor, { ids, set: { status: "sideways" } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail[0].loc).toEqual(["body", "set", "status"]);
    expect((await a.req("POST", "hardware/bulk-update", a.editor, { ids, set: { bogus: 1 } })).status).toBe(422);
    expect((await a.req("POST", "hardware/bulk-update", a.editor, { ids, set: {} })).status).toBe(422);
    expect((await a.req("POST", "hardware/bulk-update", a.viewer, { ids, set: { role: "x" } })).status).toBe(403);
  });
});

describe("CSV export", () => {
  it("exports every record the filters select, with the columns asked, quoted", async () => {
    const site = await create("sites", { name: "csv-site" });
    for (let i = 0; i < 3; i++) await create("hardware", { name: `csv-${i}`, role: i === 1 ? 'rack "A", row 2' : "server", site_id: site });
    await create("hardware", { name: "csv-elsewhere", role: "server" });
    const res = await a.req("GET", `hardware/export.csv?site_id=${site}&sort=name&direction=desc&columns=name,role,tags`, a.viewer);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="hardware-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parse(await res.text(), { bom: true }) as string[][];
    expect(rows).toEqual([
      ["name", "role", "tags"],
      ["csv-2", "server", ""],
      ["csv-1", 'rack "A", row 2', ""],
      ["csv-0", "server", ""],
    ]);
  });

  it("goes past one list page and defaults to every field", async () => {
    await a.t.sql`insert into misc_items (name, kind) select 'csvmany-' || lpad(g::text, 4, '0'), 'x' from generate_series(1, 1203) g`;
    const res = await a.req("GET", "misc/export.csv?q=csvmany-", a.viewer);
    expect(res.status).toBe(200);
    const rows = parse(await res.text(), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.length).toBe(1203);
    expect(rows[0]!.name).toBe("csvmany-0001");
    expect(rows[1202]!.name).toBe("csvmany-1203");
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(["id", "name", "kind", "tags", "created_at"]));
  });

  it("refuses an unknown column and needs the read scope", async () => {
    const res = await a.req("GET", "hardware/export.csv?columns=name,password", a.viewer);
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0].loc[1]).toBe("columns");
    expect((await a.req("GET", "hardware/export.csv")).status).toBe(401);
  });
});
