// environments, categories and tags.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const create = async (path: string, body: Record<string, unknown>) => {
  const res = await a.req("POST", path, a.editor, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
};

describe("environments and categories: happy", () => {
  it("environments: create, list, patch, delete; references become null", async () => {
    const env = await create("environments", { name: "production", color: "#FF0000", description: "live" });
    expect(env).toMatchObject({ name: "production", color: "#ff0000", description: "live" });
    await create("environments", { name: "lab" });
    const page = await (await a.req("GET", "environments", a.viewer)).json();
    expect(page.items.map((e: { name: string }) => e.name)).toEqual(["lab", "production"]);
    const patched = await a.req("PATCH", `environments/${env.id}`, a.editor, { color: null, id: 5, created_at: "x" });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id: env.id, color: null, description: "live" });

    const hw = (await a.t.sql`insert into hardware (name, environment_id) values ('in-prod', ${env.id}) returning id`)[0]!.id as number;
    expect((await a.req("DELETE", `environments/${env.id}`, a.admin)).status).toBe(204);
    expect((await (await a.req("GET", `hardware/${hw}`, a.viewer)).json()).environment_id).toBeNull();
    const audit = await a.t
      .sql`select action from audit_log where entity_type = 'environment' and entity_id = ${String(env.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual(["environment.create", "environment.update", "environment.delete"]);
  });

  it("categories: create with icon, list with q, patch, delete; services keep existing", async () => {
    const cat = await create("categories", { name: "Databases", color: "#336699", icon: "database" });
    expect(cat).toMatchObject({ name: "Databases", icon: "database", color: "#336699" });
    await create("categories", { name: "Web" });
    const page = await (await a.req("GET", "categories?q=data", a.viewer)).json();
    expect(page.items.map((c: { name: string }) => c.name)).toEqual(["Databases"]);
    expect((await (await a.req("PATCH", `categories/${cat.id}`, a.editor, { icon: "db" })).json()).icon).toBe("db");
    const svc = (await a.t.sql`insert into services (name, slug, category_id) values ('pg', 'pg-cat', ${cat.id}) returning id`)[0]!
      .id as number;
    expect((await a.req("DELETE", `categories/${cat.id}`, a.admin)).status).toBe(204);
    expect((await a.t.sql`select category_id from services where id = ${svc}`)[0]!.category_id).toBeNull();
  });
});

describe("environments and categories: errors", () => {
  it("duplicate names 409, bad colours and unknown fields 422, unknown ids 404", async () => {
    const env = await create("environments", { name: "staging" });
    const dup = await a.req("POST", "environments", a.editor, { name: "staging" });
    expect(dup.status).toBe(409);
    expect((await dup.json()).detail).toBe(`Environment ${env.id} already has name "staging".`);
    const other = await create("categories", { name: "Misc" });
    await create("categories", { name: "Monitoring" });
    expect((await a.req("PATCH", `categories/${other.id}`, a.editor, { name: "Monitoring" })).status).toBe(409);
    const colour = await a.req("POST", "categories", a.editor, { name: "Bad", color: "red", shape: "round" });
    expect(colour.status).toBe(422);
    expect(Object.keys((await colour.json()).fields).sort()).toEqual(["color", "shape"]);
    expect((await a.req("PATCH", "environments/987654", a.editor, { description: "x" })).status).toBe(404);
    const gone = await a.req("DELETE", "categories/987654", a.admin);
    expect(gone.status).toBe(404);
    expect((await gone.json()).detail).toBe("Category 987654 was not found.");
  });
});

describe("tags: happy", () => {
  it("lists the unique tag set with usage across every tagged resource, and patches a colour", async () => {
    expect((await a.req("POST", "hardware", a.editor, { name: "tagged-hw", tags: ["prod", "rack-a"] })).status).toBe(201);
    expect((await a.req("POST", "networks", a.editor, { name: "tagged-net", tags: ["prod"] })).status).toBe(201);
    await a.t.sql`insert into misc_items (name, tags) values ('ups', '{prod}')`;
    await a.t.sql`insert into tags (name) values ('unused')`;
    const res = await a.req("GET", "tags", a.viewer);
    expect(res.status).toBe(200);
    const list = await res.json();
    const byName = Object.fromEntries(list.map((t: { name: string; usage_count: number }) => [t.name, t.usage_count]));
    expect(byName).toMatchObject({ prod: 3, "rack-a": 1, unused: 0 });
    expect(list.map((t: { name: string }) => t.name)).toEqual([...list.map((t: { name: string }) => t.name)].sort());

    const prod = list.find((t: { name: string }) => t.name === "prod");
    const patched = await a.req("PATCH", `tags/${prod.id}`, a.editor, { color: "#00AA00", name: "ignored", usage_count: 0 });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toEqual({ id: prod.id, name: "prod", color: "#00aa00", usage_count: 3 });
    const audit = await a.t.sql`select action, diff from audit_log where entity_type = 'tag' order by id`;
    expect(audit.map((r) => r.action)).toEqual(["tag.update"]);
  });
});

describe("tags: errors", () => {
  it("unknown tag 404, bad colour 422, renaming is not possible", async () => {
    const missing = await a.req("PATCH", "tags/999999", a.editor, { color: "#000000" });
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toBe("Tag 999999 was not found.");
    const id = (await a.t.sql`insert into tags (name) values ('colourless') returning id`)[0]!.id as number;
    const bad = await a.req("PATCH", `tags/${id}`, a.editor, { color: "#12345" });
    expect(bad.status).toBe(422);
    expect((await bad.json()).fields.color).toBe("Must be a colour written #rrggbb.");
    expect((await a.req("PATCH", `tags/${id}`, a.editor, { label: "x" })).status).toBe(422);
  });
});

describe("labels: security", () => {
  it("anonymous 401; viewers cannot write; editors write but cannot delete environments and categories", async () => {
    for (const path of ["environments", "categories", "tags"]) expect((await a.req("GET", path)).status, path).toBe(401);
    expect((await a.req("POST", "environments", a.viewer, { name: "v" })).status).toBe(403);
    expect((await a.req("POST", "categories", a.viewer, { name: "v" })).status).toBe(403);
    const env = await create("environments", { name: "sec-env" });
    const cat = await create("categories", { name: "sec-cat" });
    expect((await a.req("PATCH", `environments/${env.id}`, a.viewer, { color: "#000000" })).status).toBe(403);
    expect((await a.req("DELETE", `environments/${env.id}`, a.editor)).status).toBe(403);
    expect((await a.req("DELETE", `categories/${cat.id}`, a.editor)).status).toBe(403);
    const tag = (await a.t.sql`insert into tags (name) values ('sec-tag') returning id`)[0]!.id as number;
    expect((await a.req("PATCH", `tags/${tag}`, a.viewer, { color: "#000000" })).status).toBe(403);
  });
});
