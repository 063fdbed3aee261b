import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

describe("misc: happy", () => {
  it("creates, reads, lists with filters, patches and deletes", async () => {
    const created = await a.req("POST", "misc", a.editor, {
      name: "UPS",
      kind: "power",
      description: "APC 1500",
      url: "https://ups.lan",
      tags: ["rack"],
    });
    expect(created.status).toBe(201);
    const item = await created.json();
    expect(item).toMatchObject({ name: "UPS", kind: "power", url: "https://ups.lan", tags: ["rack"], version: 1 });
    expect(created.headers.get("etag")).toBe('W/"1"');
    await a.req("POST", "misc", a.editor, { name: "Printer", kind: "office" });

    expect((await (await a.req("GET", `misc/${item.id}`, a.viewer)).json()).description).toBe("APC 1500");
    const names = async (q: string) =>
      (await (await a.req("GET", `misc?${q}`, a.viewer)).json()).items.map((x: { name: string }) => x.name);
    expect(await names("kind=office")).toEqual(["Printer"]);
    expect(await names("tag=rack")).toEqual(["UPS"]);
    expect(await names("q=apc")).toEqual(["UPS"]);
    expect(await names("sort=name&direction=desc")).toEqual(["UPS", "Printer"]);

    const patched = await a.req("PATCH", `misc/${item.id}`, a.editor, { description: "APC 3000", created_at: "ignored" });
    expect(await patched.json()).toMatchObject({ description: "APC 3000", kind: "power", version: 2 });
    expect((await a.req("DELETE", `misc/${item.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `misc/${item.id}`, a.viewer)).status).toBe(404);
    const audit = await a.t.sql`select action from audit_log where entity_type = 'misc' and entity_id = ${String(item.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual(["misc.create", "misc.update", "misc.delete"]);
  });

  it("deleting an item unlinks it from services", async () => {
    const item = await (await a.req("POST", "misc", a.editor, { name: "License key" })).json();
    const [svc] = await a.t.sql`insert into services (name, slug) values ('app', 'app') returning id`;
    await a.t.sql`insert into service_misc (service_id, misc_id) values (${svc!.id}, ${item.id})`;
    expect((await a.req("DELETE", `misc/${item.id}`, a.admin)).status).toBe(204);
    expect((await a.t.sql`select count(*)::int as n from service_misc where misc_id = ${item.id}`)[0]!.n).toBe(0);
    expect(
      (await a.t.sql`select count(*)::int as n from audit_log where action = 'misc.unlink' and entity_id = ${String(item.id)}`)[0]!.n,
    ).toBe(1);
  });
});

describe("misc: errors", () => {
  it("404 names the resource and id", async () => {
    const res = await a.req("GET", "misc/424242", a.viewer);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error_code: "RESOURCE_NOT_FOUND", detail: "Misc item 424242 was not found." });
  });

  it("422 for an empty name, a non-http URL and an unknown field; nothing stored", async () => {
    const res = await a.req("POST", "misc", a.editor, { name: " ", url: "javascript:alert(1)", colour: "red" });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).fields).sort()).toEqual(["colour", "name", "url"]);
    expect((await a.t.sql`select count(*)::int as n from misc_items where url like 'javascript%'`)[0]!.n).toBe(0);
  });

  it("If-Match with a stale version is 412", async () => {
    const item = await (await a.req("POST", "misc", a.editor, { name: "etag" })).json();
    expect((await a.req("PATCH", `misc/${item.id}`, a.editor, { kind: "a" }, { "if-match": 'W/"1"' })).status).toBe(200);
    expect((await a.req("DELETE", `misc/${item.id}`, a.admin, undefined, { "if-match": 'W/"1"' })).status).toBe(412);
  });
});

describe("misc: security", () => {
  it("anonymous 401, viewer cannot write, editor cannot delete", async () => {
    expect((await a.req("GET", "misc")).status).toBe(401);
    expect((await a.req("POST", "misc", a.viewer, { name: "nope" })).status).toBe(403);
    const item = await (await a.req("POST", "misc", a.editor, { name: "keep" })).json();
    expect((await a.req("PATCH", `misc/${item.id}`, a.viewer, { name: "x" })).status).toBe(403);
    expect((await a.req("DELETE", `misc/${item.id}`, a.editor)).status).toBe(403);
  });
});
