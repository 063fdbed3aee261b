// POST {list}/import.csv against real PostgreSQL (docs/csv-import.md, ADR 0497): the dry run's per-row
// report (created, updated, unchanged, error with the field and message), the apply in one transaction
// (all or nothing, an audit entry per written row), references by name and by id, key matching by a
// unique name, tags and custom field columns, unknown columns, limits and scopes.
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

/** Posts CSV text to {list}/import.csv. */
const importCsv = (list: string, csv: string, { dryRun = false, token = a.admin, type = "text/csv" } = {}) =>
  a.t.app.request(`/api/v1/${list}/import.csv${dryRun ? "?dry_run=true" : ""}`, {
    method: "POST",
    body: csv,
    headers: { authorization: `Bearer ${token}`, "content-type": type, "x-test-peer": "10.77.0.1" },
  });

interface Report {
  dry_run: boolean;
  applied: boolean;
  totals: Record<string, number>;
  rows: { row: number; line: number; action: string; id: number | null; errors: { column: string; field: string; message: string }[] }[];
}

const hardwareCount = async (prefix: string) =>
  Number((await a.t.sql`select count(*)::int as n from hardware where name like ${`${prefix}%`}`)[0]!.n);

describe("CSV import of hardware", () => {
  let site: number;
  let env: number;
  let existing: number;
  let same: number;
  beforeAll(async () => {
    site = await create("sites", { name: "csv-site" });
    env = await create("environments", { name: "csv-env" });
    existing = await create("hardware", { name: "csv-old", role: "server", site_id: site });
    same = await create("hardware", { name: "csv-same", role: "db", tags: ["a", "b"] });
  });

  const file = (badSite = "csv-site") =>
    [
      "id,name,role,site,environment_id,memory_gb,tags,created_at",
      `,csv-new-1,web,${badSite},,16,"x, y",`,
      `,csv-new-2,web,,${0},,,`.replace(",0,", ",,"),
      `${0},csv-old,storage,csv-site,,,,2020-01-01`.replace(/^0/, "EXISTING"),
      `SAME,csv-same,db,,,,"a, b",`,
    ]
      .join("\n")
      .replace("EXISTING", String(existing))
      .replace("SAME", String(same))
      .replace(",csv-new-2,web,,,", `,csv-new-2,web,,${env},`);

  it("dry run: answers created, updated and unchanged per row, with totals, and writes nothing", async () => {
    const auditBefore = Number((await a.t.sql`select count(*)::int as n from audit_log`)[0]!.n);
    const res = await importCsv("hardware", file(), { dryRun: true });
    expect(res.status).toBe(200);
    const report = (await res.json()) as Report;
    expect(report.dry_run).toBe(true);
    expect(report.applied).toBe(false);
    expect(report.rows.map((r) => r.action)).toEqual(["created", "created", "updated", "unchanged"]);
    expect(report.rows.map((r) => r.line)).toEqual([2, 3, 4, 5]);
    expect(report.rows.map((r) => r.id)).toEqual([null, null, existing, same]);
    expect(report.totals).toEqual({ rows: 4, created: 2, updated: 1, unchanged: 1, error: 0 });
    expect(await hardwareCount("csv-new")).toBe(0);
    expect((await a.t.sql`select role from hardware where id = ${existing}`)[0]!.role).toBe("server");
    expect(Number((await a.t.sql`select count(*)::int as n from audit_log`)[0]!.n)).toBe(auditBefore);
  });

  it("dry run: an error row names the column, the field and the API's message", async () => {
    const csv = [
      "name,memory_gb,status,site,rack_id",
      "ok-row,1,,,",
      ",2,,,",
      "bad-mem,lots,,,",
      "bad-status,1,sideways,,",
      "bad-site,1,,nowhere,",
      "bad-rack,1,,,999999",
    ].join("\n");
    const res = await importCsv("hardware", csv, { dryRun: true });
    expect(res.status).toBe(200);
    const report = (await res.json()) as Report;
    expect(report.rows.map((r) => r.action)).toEqual(["created", "error", "error", "error", "error", "error"]);
    expect(report.totals).toMatchObject({ rows: 6, created: 1, error: 5 });
    const [, noName, mem, status, siteErr, rack] = report.rows;
    expect(noName!.errors[0]).toMatchObject({ column: "name", field: "name" });
    expect(mem!.errors[0]).toMatchObject({ column: "memory_gb", field: "memory_gb" });
    // The same message the API's 422 gives for the field.
    const api = await a.req("POST", "hardware", a.admin, { name: "x", status: "sideways" });
    expect(api.status).toBe(422);
    expect(status!.errors[0]).toEqual({ column: "status", field: "status", message: (await api.json()).fields.status });
    expect(siteErr!.errors[0]).toEqual({ column: "site", field: "site_id", message: 'No site is named "nowhere".' });
    expect(rack!.errors[0]).toMatchObject({ column: "rack_id", field: "rack_id", message: "Rack 999999 was not found." });
    expect(await hardwareCount("ok-row")).toBe(0);
  });

  it("apply with an error row changes nothing and answers 422 with the per-row report", async () => {
    const res = await importCsv("hardware", file("no-such-site"));
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error_code).toBe("VALIDATION_ERROR");
    expect(body.report.applied).toBe(false);
    expect(body.report.rows[0].errors[0]).toMatchObject({ column: "site", field: "site_id" });
    expect(body.report.rows.slice(1).map((r: { action: string }) => r.action)).toEqual(["created", "updated", "unchanged"]);
    expect(body.fields["rows.1.site"]).toBe('No site is named "no-such-site".');
    expect(await hardwareCount("csv-new")).toBe(0);
    expect((await a.t.sql`select role from hardware where id = ${existing}`)[0]!.role).toBe("server");
  });

  it("apply writes every row in one go: references by name and id, tags, an audit entry each", async () => {
    const res = await importCsv("hardware", file());
    expect(res.status).toBe(201);
    const report = (await res.json()) as Report;
    expect(report.applied).toBe(true);
    expect(report.totals).toEqual({ rows: 4, created: 2, updated: 1, unchanged: 1, error: 0 });
    const rows = await a.t
      .sql`select id, name, role, site_id, environment_id, memory_gb, tags, version from hardware where name like 'csv-%' order by name`;
    const by = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(by["csv-new-1"]).toMatchObject({ role: "web", site_id: site, memory_gb: 16, tags: ["x", "y"], version: 1 });
    expect(by["csv-new-2"]).toMatchObject({ environment_id: env, site_id: null });
    expect(by["csv-old"]).toMatchObject({ role: "storage", site_id: site, version: 2 });
    expect(by["csv-same"]).toMatchObject({ version: 1 });
    expect(report.rows[0]!.id).toBe(by["csv-new-1"]!.id);
    const audit = await a.t.sql`select action, entity_id, diff from audit_log where entity_type = 'hardware' and entity_id = any(${[
      String(by["csv-new-1"]!.id),
      String(by["csv-new-2"]!.id),
      String(existing),
      String(same),
    ]}) and action like 'hardware.%' order by id`;
    expect(audit.map((e) => e.action)).toEqual([
      "hardware.create",
      "hardware.create",
      "hardware.create",
      "hardware.create",
      "hardware.update",
    ]);
    expect(audit[4]!.diff).toEqual({ before: { role: "server" }, after: { role: "storage" } });
    // The audit chain still verifies after the bulk append.
    const verify = await a.req("GET", "admin/audit-log/verify-chain", a.admin);
    expect(verify.status).toBe(200);
    expect((await verify.json()).valid).toBe(true);
    // The same file again changes nothing: every row is unchanged or creates anew (rows without id).
    const again = (await (await importCsv("hardware", file(), { dryRun: true })).json()) as Report;
    expect(again.rows.slice(2).map((r) => r.action)).toEqual(["unchanged", "unchanged"]);
  });

  it("an empty cell clears a field that can be empty", async () => {
    const res = await importCsv("hardware", `id,site\n${existing},\n`);
    expect(res.status).toBe(201);
    expect((await a.t.sql`select site_id from hardware where id = ${existing}`)[0]!.site_id).toBeNull();
  });

  it("refuses an unknown column with a 422 naming it, before any row", async () => {
    const res = await importCsv("hardware", "name,colour,cf_owner\nx,blue,me\n", { dryRun: true });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(Object.keys(body.fields)).toEqual(["columns.colour"]);
    expect(body.fields["columns.colour"]).toContain('Unknown column "colour"');
  });

  it("reads cf_ columns as their custom fields' types, and reports a value the field refuses on its column", async () => {
    const define = async (body: Record<string, unknown>) =>
      expect((await a.req("POST", "custom-fields", a.admin, { kinds: ["hardware"], ...body })).status).toBe(201);
    await define({ name: "asset_no", label: "Asset number", type: "integer", min_value: 1 });
    await define({ name: "in_warranty", label: "In warranty", type: "boolean" });
    await define({ name: "duties", label: "Duties", type: "multi_selection", choices: ["web", "db", "backup"] });
    await define({ name: "owner", label: "Owner", type: "text" });
    const csv = 'name,cf_asset_no,cf_in_warranty,cf_duties,cf_owner\ncf-row-1,42,true,"web, db",ops\ncf-row-2,abc,false,,\n';
    const dry = (await (await importCsv("hardware", csv, { dryRun: true })).json()) as Report;
    expect(dry.rows.map((r) => r.action)).toEqual(["created", "error"]);
    expect(dry.rows[1]!.errors).toEqual([expect.objectContaining({ column: "cf_asset_no", field: "custom_fields.asset_no" })]);

    const fixed = csv.replace("cf-row-2,abc", "cf-row-2,7");
    const res = await importCsv("hardware", fixed);
    expect(res.status).toBe(201);
    const rows = await a.t.sql`select name, custom_fields from hardware where name like 'cf-row-%' order by name`;
    expect(rows.map((r) => r.custom_fields)).toEqual([
      { asset_no: 42, in_warranty: true, duties: ["web", "db"], owner: "ops" },
      { asset_no: 7, in_warranty: false },
    ]);
  });

  it("refuses malformed CSV, an empty file and a wrong content type", async () => {
    expect((await importCsv("hardware", 'name\n"unterminated\n')).status).toBe(422);
    expect((await importCsv("hardware", "")).status).toBe(422);
    expect((await importCsv("hardware", "name\n")).status).toBe(422);
    const wrong = await importCsv("hardware", '{"name":"x"}', { type: "application/json" });
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).detail[0].msg).toContain("text/csv");
  });

  it("refuses more rows than the limit with 413", async () => {
    const csv = `name\n${"r\n".repeat(50_001)}`;
    const res = await importCsv("misc", csv, { dryRun: true });
    expect(res.status).toBe(413);
    expect((await res.json()).detail).toContain("at most 50,000");
  });

  it("takes a file over the API's usual 1 MiB body limit, and refuses one over 32 MiB with 413", async () => {
    const big = `name,description\n${`big-row,${"x".repeat(1000)}\n`.repeat(1500)}`;
    expect(big.length).toBeGreaterThan(1_048_576);
    const res = await importCsv("misc", big, { dryRun: true });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Report).totals.created).toBe(1500);
    const huge = await importCsv("misc", `name\n${"y".repeat(33 * 1024 * 1024)}\n`, { dryRun: true });
    expect(huge.status).toBe(413);
    expect((await huge.json()).error_code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("needs the kind's write scope", async () => {
    expect((await importCsv("hardware", "name\nviewer-row\n", { token: a.viewer })).status).toBe(403);
    // Editors write hardware but not sites.
    expect((await importCsv("sites", "name\neditor-site\n", { token: a.editor, dryRun: true })).status).toBe(403);
    expect((await importCsv("hardware", "name\neditor-row\n", { token: a.editor })).status).toBe(201);
  });
});

describe("CSV import by unique name and of other kinds", () => {
  it("sites: a row whose name exists updates it; a name twice in the file is an error", async () => {
    const site = await create("sites", { name: "key-site", address: "old street" });
    const res = await importCsv("sites", "name,address\nkey-site,new street\nkey-new,somewhere\n");
    expect(res.status).toBe(201);
    const report = (await res.json()) as Report;
    expect(report.rows.map((r) => [r.action, r.id === site])).toEqual([
      ["updated", true],
      ["created", false],
    ]);
    expect((await a.t.sql`select address from sites where id = ${site}`)[0]!.address).toBe("new street");
    const twice = (await (await importCsv("sites", "name\ndup-site\ndup-site\n", { dryRun: true })).json()) as Report;
    expect(twice.rows.map((r) => r.action)).toEqual(["created", "error"]);
    expect(twice.rows[1]!.errors[0]).toMatchObject({ column: "name", message: 'name "dup-site" is also on row 1.' });
  });

  it("compute units reference hardware by name; an ambiguous name is an error asking for the id", async () => {
    const hw = await create("hardware", { name: "cu-host" });
    await create("hardware", { name: "twin-host" });
    await create("hardware", { name: "twin-host" });
    const res = await importCsv("compute-units", "name,kind,hardware\ncu-a,vm,cu-host\ncu-b,vm,twin-host\n", { dryRun: true });
    const report = (await res.json()) as Report;
    expect(report.rows[0]!.action).toBe("created");
    expect(report.rows[1]!.errors[0]!.message).toMatch(
      /^2 hardware nodes are named "twin-host" \(ids \d+, \d+\): give hardware_id instead\.$/,
    );
    const ok = await importCsv("compute-units", "name,kind,hardware\ncu-a,vm,cu-host\n");
    expect(ok.status).toBe(201);
    expect((await a.t.sql`select hardware_id from compute_units where name = 'cu-a'`)[0]!.hardware_id).toBe(hw);
  });

  it("a kind's own rules refuse a row as its create would (a rack unit already taken)", async () => {
    const site = await create("sites", { name: "rack-csv-site" });
    const rack = await create("racks", { name: "R1", site_id: site, u_height: 10 });
    const csv = `name,rack_id,rack_unit,u_height\nn1,${rack},1,2\nn2,${rack},2,1\nn3,${rack},3,1\n`;
    const report = (await (await importCsv("hardware", csv, { dryRun: true })).json()) as Report;
    expect(report.rows.map((r) => r.action)).toEqual(["created", "error", "created"]);
    expect(report.rows[1]!.errors[0]!.field).toBe("rack_unit");
  });

  it("a value the database refuses is named on its row: the chunk is retried row by row, each row checked again", async () => {
    // Two VLANs 3001 without a site: the second breaks the unique (vlan_id, site) index.
    const res = await importCsv("vlans", "name,vlan_id\nv-a,3001\nv-b,3002\nv-c,3001\n", { dryRun: true });
    const report = (await res.json()) as Report;
    expect(report.rows.map((r) => r.action)).toEqual(["created", "created", "error"]);
    // The kind's own check says it, as POST /vlans would: it now sees the rows written before it.
    expect(report.rows[2]!.errors[0]).toMatchObject({ column: "vlan_id", field: "vlan_id" });
    expect(report.rows[2]!.errors[0]!.message).toMatch(/^VLAN record \d+ \(no site\) already has vlan_id 3001\.$/);
    expect(Number((await a.t.sql`select count(*)::int as n from vlans where vlan_id in (3001, 3002)`)[0]!.n)).toBe(0);
  });

  it("services without a slug get one each from their names, as their create would", async () => {
    const res = await importCsv("services", 'name,ports\nsame-name,"[{""port"":443,""protocol"":""tcp""}]"\nsame-name,\n');
    expect(res.status).toBe(201);
    const rows = await a.t.sql`select slug, ports from services where name = 'same-name' order by id`;
    expect(rows.map((r) => r.slug)).toEqual(["same-name", "same-name-2"]);
    expect(rows[0]!.ports).toMatchObject([{ port: 443, protocol: "tcp" }]);
  });

  it("IP addresses: a row whose address is recorded updates it, its network given by name", async () => {
    const net = await create("networks", { name: "csv-net", cidr: "10.123.0.0/24" });
    const ip = await create("ipam", { address: "10.123.0.5" });
    const res = await importCsv("ipam", "address,network,hostname\n10.123.0.5,csv-net,host-a\n10.123.0.6,csv-net,host-b\n");
    expect(res.status).toBe(201);
    const report = (await res.json()) as Report;
    expect(report.rows.map((r) => [r.action, r.id === ip])).toEqual([
      ["updated", true],
      ["created", false],
    ]);
    const rows = await a.t.sql`select address, network_id, hostname from ip_addresses where address like '10.123.0.%' order by address`;
    expect(rows).toEqual([
      { address: "10.123.0.5", network_id: net, hostname: "host-a" },
      { address: "10.123.0.6", network_id: net, hostname: "host-b" },
    ]);
  });
});
