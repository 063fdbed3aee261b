// Custom fields (docs/custom-fields.md): the definitions' routes, values on every inventory kind checked
// on write (422 naming custom_fields.<name>), defaults, PATCH merging, audit, list filters and sorts,
// the CSV export's cf_ columns, the export document, and the confirmation a delete with values needs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const define = async (body: Record<string, unknown>) => {
  const res = await a.req("POST", "custom-fields", a.admin, body);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return res.json();
};
const fieldsOf = async (res: Response) => {
  expect(res.status).toBe(422);
  return (await res.json()).fields as Record<string, string>;
};
const names = (page: { items: { name: string }[] }) => page.items.map((i) => i.name);

describe("custom field definitions", () => {
  it("are created by administrators only, listed to every reader, and checked as a whole", async () => {
    expect((await a.req("POST", "custom-fields", a.editor, { name: "x", label: "X", kinds: ["hardware"], type: "text" })).status).toBe(403);
    const f = await define({
      name: "asset_tag",
      label: "Asset tag",
      kinds: ["hardware", "storage"],
      type: "text",
      regex: "^AT-[0-9]+$",
      weight: 5,
    });
    expect(f).toMatchObject({
      name: "asset_tag",
      kinds: ["hardware", "storage"],
      type: "text",
      required: false,
      default: null,
      version: 1,
    });
    const list = await (await a.req("GET", "custom-fields?kind=storage", a.viewer)).json();
    expect(list).toMatchObject({ total: 1, sort: "weight" });
    expect((await a.req("GET", "custom-fields?kind=site", a.viewer)).status).toBe(200);

    const refused: [Record<string, unknown>, string][] = [
      [{ name: "Bad-Name", type: "text" }, "name"],
      [{ name: "k", type: "text", kinds: ["nope"] }, "kinds.0"],
      [{ name: "s", type: "selection" }, "choices"],
      [{ name: "r", type: "reference" }, "reference_kind"],
      [{ name: "re", type: "text", regex: "(" }, "regex"],
      [{ name: "n", type: "integer", min_value: 5, max_value: 1 }, "max_value"],
      [{ name: "d", type: "integer", default: "seven" }, "default"],
    ];
    for (const [body, field] of refused)
      expect(await fieldsOf(await a.req("POST", "custom-fields", a.admin, { label: "X", kinds: ["hardware"], ...body }))).toHaveProperty([
        field,
      ]);
    expect(
      (await a.req("POST", "custom-fields", a.admin, { name: "asset_tag", label: "again", kinds: ["site"], type: "text" })).status,
    ).toBe(409);

    // ETag / If-Match; name and type never change (read-only in a PATCH, as ids are: ignored).
    const got = await a.req("GET", `custom-fields/${f.id}`, a.viewer);
    expect(got.headers.get("etag")).toBe('W/"1"');
    expect((await a.req("PATCH", `custom-fields/${f.id}`, a.admin, { label: "Tag" }, { "if-match": 'W/"7"' })).status).toBe(412);
    const patched = await (
      await a.req(
        "PATCH",
        `custom-fields/${f.id}`,
        a.admin,
        { label: "Asset tag (label)", type: "integer", name: "other" },
        { "if-match": 'W/"1"' },
      )
    ).json();
    expect(patched).toMatchObject({ name: "asset_tag", type: "text", label: "Asset tag (label)", version: 2 });
  });
});

describe("custom field values", () => {
  let rackRef: number;
  beforeAll(async () => {
    await define({ name: "cost", label: "Cost", kinds: ["hardware"], type: "decimal", min_value: 0, max_value: 100000 });
    await define({ name: "slots", label: "Slots", kinds: ["hardware"], type: "integer", min_value: 1, max_value: 64, default: 4 });
    await define({ name: "warranty", label: "Warranty end", kinds: ["hardware"], type: "date" });
    await define({ name: "managed", label: "Managed", kinds: ["hardware"], type: "boolean" });
    await define({ name: "docs_url", label: "Docs", kinds: ["hardware"], type: "url" });
    await define({ name: "tier", label: "Tier", kinds: ["hardware", "service"], type: "selection", choices: ["gold", "silver", "bronze"] });
    await define({ name: "roles", label: "Roles", kinds: ["hardware"], type: "multi_selection", choices: ["db", "web", "cache"] });
    await define({ name: "owner_code", label: "Owner", kinds: ["hardware"], type: "text", min_length: 2, max_length: 5 });
    await define({ name: "site_ref", label: "Home site", kinds: ["hardware"], type: "reference", reference_kind: "site" });
    const site = await (await a.req("POST", "sites", a.admin, { name: "dc-1" })).json();
    rackRef = site.id;
  });

  it("applies defaults on create, reads them back, merges a PATCH per key and clears with null", async () => {
    const given = {
      cost: 12.5,
      tier: "gold",
      roles: ["db", "web"],
      warranty: "2027-01-31",
      managed: true,
      site_ref: rackRef,
      asset_tag: "AT-1",
    };
    const res = await a.req("POST", "hardware", a.editor, { name: "cf-a", custom_fields: given });
    expect(res.status).toBe(201);
    const hw = await res.json();
    // slots was not given: its default.
    expect(hw.custom_fields).toEqual({ ...given, slots: 4 });
    const patched = await (await a.req("PATCH", `hardware/${hw.id}`, a.editor, { custom_fields: { cost: 20, tier: null } })).json();
    const { tier: _cleared, ...kept } = given;
    expect(patched.custom_fields).toEqual({ ...kept, cost: 20, slots: 4 });
    // A write that does not give custom fields keeps them.
    const other = await (await a.req("PATCH", `hardware/${hw.id}`, a.editor, { notes: "n" })).json();
    expect(other.custom_fields.cost).toBe(20);
    const [entry] = await a.t
      .sql`select diff from audit_log where action = 'hardware.update' and entity_id = ${String(hw.id)} order by id limit 1`;
    expect(entry!.diff.before.custom_fields.cost).toBe(12.5);
    expect(entry!.diff.after.custom_fields.cost).toBe(20);
    expect(entry!.diff.after.custom_fields.tier).toBeUndefined();
    // Services read theirs too (an empty object when none is set).
    const svc = await (await a.req("POST", "services", a.editor, { name: "cf-svc" })).json();
    expect(svc.custom_fields).toEqual({});
  });

  it("refuses every bad value with a 422 naming custom_fields.<name>, writing nothing", async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ cost: "12" }, "cost"],
      [{ cost: -1 }, "cost"],
      [{ slots: 2.5 }, "slots"],
      [{ slots: 65 }, "slots"],
      [{ warranty: "2027-02-30" }, "warranty"],
      [{ managed: "yes" }, "managed"],
      [{ docs_url: "ftp://x" }, "docs_url"],
      [{ tier: "platinum" }, "tier"],
      [{ roles: ["db", "db"] }, "roles"],
      [{ roles: "db" }, "roles"],
      [{ owner_code: "x" }, "owner_code"],
      [{ owner_code: "toolong" }, "owner_code"],
      [{ asset_tag: "XX-1" }, "asset_tag"],
      [{ site_ref: 999999 }, "site_ref"],
      [{ nope: 1 }, "nope"],
    ];
    for (const [values, name] of bad) {
      const fields = await fieldsOf(await a.req("POST", "hardware", a.editor, { name: "cf-bad", custom_fields: values }));
      expect(Object.keys(fields), JSON.stringify(values)).toEqual([`custom_fields.${name}`]);
    }
    // tier applies to services, roles does not.
    expect(
      Object.keys(await fieldsOf(await a.req("POST", "services", a.editor, { name: "s2", custom_fields: { roles: ["db"] } }))),
    ).toEqual(["custom_fields.roles"]);
    const [{ n }] = (await a.t.sql`select count(*)::int as n from hardware where name = 'cf-bad'`) as unknown as [{ n: number }];
    expect(n).toBe(0);
  });

  it("a required field added to a kind with objects is asked for on create and on writes that give custom fields", async () => {
    const old = await (await a.req("POST", "hardware", a.editor, { name: "cf-old" })).json();
    const req = await define({ name: "rack_label", label: "Rack label", kinds: ["hardware"], type: "text", required: true });
    expect(Object.keys(await fieldsOf(await a.req("POST", "hardware", a.editor, { name: "cf-new" })))).toEqual([
      "custom_fields.rack_label",
    ]);
    expect((await a.req("PATCH", `hardware/${old.id}`, a.editor, { notes: "still fine" })).status).toBe(200);
    expect(Object.keys(await fieldsOf(await a.req("PATCH", `hardware/${old.id}`, a.editor, { custom_fields: { cost: 1 } })))).toEqual([
      "custom_fields.rack_label",
    ]);
    const ok = await a.req("PATCH", `hardware/${old.id}`, a.editor, { custom_fields: { cost: 1, rack_label: "R1" } });
    expect(ok.status).toBe(200);
    // Made optional again so the other tests' creates go through.
    expect((await a.req("PATCH", `custom-fields/${req.id}`, a.admin, { required: false })).status).toBe(200);
  });

  it("lists filter by cf_ (exact, contains, ranges) and sort by cf_; an unknown cf_ is a 422", async () => {
    for (const [name, cost, tier, roles, warranty] of [
      ["cf-l1", 5, "silver", ["cache"], "2026-01-01"],
      ["cf-l2", 50, "silver", ["db", "cache"], "2028-06-30"],
      ["cf-l3", 500, "bronze", [], "2030-12-31"],
    ] as const)
      expect((await a.req("POST", "hardware", a.editor, { name, custom_fields: { cost, tier, roles, warranty } })).status).toBe(201);
    const get = async (q: string) => (await a.req("GET", `hardware?q=cf-l&${q}`, a.viewer)).json();
    expect(names(await get("cf_tier=silver&sort=name"))).toEqual(["cf-l1", "cf-l2"]);
    expect(names(await get("cf_roles=cache&sort=name"))).toEqual(["cf-l1", "cf-l2"]);
    expect(names(await get("cf_cost=50"))).toEqual(["cf-l2"]);
    expect(names(await get("cf_cost__gte=10&cf_cost__lte=100"))).toEqual(["cf-l2"]);
    expect(names(await get("cf_warranty__gte=2028-01-01&sort=name"))).toEqual(["cf-l2", "cf-l3"]);
    const sorted = await get("sort=cf_cost&direction=desc");
    expect(sorted).toMatchObject({ sort: "cf_cost", direction: "desc" });
    expect(names(sorted)).toEqual(["cf-l3", "cf-l2", "cf-l1"]);
    expect(Object.keys(await fieldsOf(await a.req("GET", "hardware?cf_nope=1", a.viewer)))).toEqual(["cf_nope"]);
    expect(Object.keys(await fieldsOf(await a.req("GET", "hardware?cf_cost=abc", a.viewer)))).toEqual(["cf_cost"]);
    expect(Object.keys(await fieldsOf(await a.req("GET", "hardware?cf_tier__gte=a", a.viewer)))).toEqual(["cf_tier__gte"]);
    expect(Object.keys(await fieldsOf(await a.req("GET", "hardware?sort=cf_nope", a.viewer)))).toEqual(["sort"]);
    // roles does not apply to services.
    expect((await a.req("GET", "services?cf_roles=db", a.viewer)).status).toBe(422);
    expect((await a.req("GET", "services?cf_tier=gold", a.viewer)).status).toBe(200);
  });

  it("the CSV export writes cf_<name> columns, asked for or by default", async () => {
    const asked = await a.req("GET", "hardware/export.csv?q=cf-l&sort=name&columns=name,cf_cost,cf_roles", a.viewer);
    expect(asked.status).toBe(200);
    const text = (await asked.text()).replace(/^\uFEFF/, "");
    expect(text.trim().split(/\r?\n/)).toEqual(["name,cf_cost,cf_roles", "cf-l1,5,cache", `cf-l2,50,"db, cache"`, "cf-l3,500,"]);
    const all = (await (await a.req("GET", "hardware/export.csv?q=cf-l1", a.viewer)).text()).split(/\r?\n/)[0]!;
    expect(all).toContain(",cf_cost,");
    expect(all).not.toContain("custom_fields");
    expect((await a.req("GET", "hardware/export.csv?columns=name,cf_nope", a.viewer)).status).toBe(422);
  });

  it("the inventory export document carries the definitions and the values", async () => {
    const res = await a.req("GET", "admin/export", a.admin);
    expect(res.status).toBe(200);
    const doc = await res.json();
    const row = (doc.hardware as { name: string; custom_fields: Record<string, unknown> }[]).find((h) => h.name === "cf-l2");
    expect(row?.custom_fields).toMatchObject({ cost: 50, tier: "silver" });
    const tier = (doc.custom_fields as { name: string; choices: string[]; kinds: string[] }[]).find((d) => d.name === "tier");
    expect(tier).toMatchObject({ choices: ["gold", "silver", "bronze"], kinds: ["hardware", "service"] });
  });

  it("deleting a field that has values takes the confirmation headers and removes them", async () => {
    const f = await define({ name: "temp", label: "Temp", kinds: ["hardware", "site"], type: "text" });
    const unused = await define({ name: "unused", label: "Unused", kinds: ["site"], type: "text" });
    expect(await (await a.req("DELETE", `custom-fields/${unused.id}`, a.admin)).json()).toEqual({ values_removed: 0 });
    const hw = await (await a.req("POST", "hardware", a.editor, { name: "cf-temp", custom_fields: { temp: "x" } })).json();
    const refused = await a.req("DELETE", `custom-fields/${f.id}`, a.admin);
    expect(refused.status).toBe(428);
    expect((await refused.json()).required).toEqual(["x-svc-confirmation", "idempotency-key"]);
    expect((await a.req("DELETE", `custom-fields/${f.id}`, a.editor)).status).toBe(403);
    const headers = { "x-svc-confirmation": "delete-custom-field", "idempotency-key": "cf-delete-temp-0001" };
    const done = await a.req("DELETE", `custom-fields/${f.id}`, a.admin, undefined, headers);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ values_removed: 1 });
    const after = await (await a.req("GET", `hardware/${hw.id}`, a.viewer)).json();
    expect(after.custom_fields.temp).toBeUndefined();
    expect(after.version).toBe(hw.version + 1);
    expect((await a.req("GET", `custom-fields/${f.id}`, a.viewer)).status).toBe(404);
    expect((await a.req("GET", "hardware?cf_temp=x", a.viewer)).status).toBe(422);
  });
});
