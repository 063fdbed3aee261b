import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

describe("storage: happy", () => {
  it("creates, reads, lists with filters, patches and deletes", async () => {
    const hw = (await (await a.req("POST", "hardware", a.editor, { name: "nas-01" })).json()).id;
    const created = await a.req("POST", "storage", a.editor, {
      name: "tank",
      kind: "pool",
      capacity_gb: 8000,
      used_gb: 2000,
      hardware_id: hw,
      path: "/tank",
      tags: ["zfs"],
    });
    expect(created.status).toBe(201);
    const st = await created.json();
    expect(st).toMatchObject({ name: "tank", kind: "pool", used_pct: 25, hardware_name: "nas-01", tags: ["zfs"], version: 1 });
    await a.req("POST", "storage", a.editor, { name: "media", kind: "share", hardware_id: hw, path: "//nas/media" });
    await a.req("POST", "storage", a.editor, { name: "sda", kind: "disk", tags: ["zfs"] });

    expect((await (await a.req("GET", `storage/${st.id}`, a.viewer)).json()).path).toBe("/tank");
    const names = async (q: string) =>
      (await (await a.req("GET", `storage?${q}`, a.viewer)).json()).items.map((x: { name: string }) => x.name);
    expect(await names("kind=share")).toEqual(["media"]);
    expect(await names(`hardware_id=${hw}`)).toEqual(["media", "tank"]);
    expect(await names("tag=zfs&sort=capacity_gb")).toEqual(["tank", "sda"]);
    expect(await names("q=%2Fnas")).toEqual(["media"]);

    const patched = await a.req("PATCH", `storage/${st.id}`, a.editor, { used_gb: 4000, used_pct: 99 });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ used_gb: 4000, capacity_gb: 8000, used_pct: 50, version: 2 });

    expect((await a.req("DELETE", `storage/${st.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `storage/${st.id}`, a.viewer)).status).toBe(404);
    const audit = await a.t.sql`select action from audit_log where entity_type = 'storage' order by id`;
    expect(audit.map((r) => r.action)).toEqual(["storage.create", "storage.create", "storage.create", "storage.update", "storage.delete"]);
  });

  it("deleting storage unlinks it from services, recorded in the audit log", async () => {
    const st = await (await a.req("POST", "storage", a.editor, { name: "nfs-data", kind: "share" })).json();
    const [svc] = await a.t.sql`insert into services (name, slug) values ('plex', 'plex') returning id`;
    await a.t.sql`insert into service_storage (service_id, storage_id, mount_path) values (${svc!.id}, ${st.id}, '/data')`;
    expect((await a.req("DELETE", `storage/${st.id}`, a.admin)).status).toBe(204);
    expect((await a.t.sql`select count(*)::int as n from service_storage where storage_id = ${st.id}`)[0]!.n).toBe(0);
    expect((await a.t.sql`select count(*)::int as n from services where id = ${svc!.id}`)[0]!.n).toBe(1);
    const [unlink] = await a.t.sql`select diff from audit_log where action = 'storage.unlink' and entity_id = ${String(st.id)}`;
    expect(unlink!.diff.before.service_storage).toEqual([{ service_id: svc!.id, storage_id: st.id, mount_path: "/data" }]);
  });
});

describe("storage: errors", () => {
  it("404 names the resource and id", async () => {
    const res = await a.req("GET", "storage/424242", a.viewer);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error_code: "RESOURCE_NOT_FOUND", detail: "Storage item 424242 was not found." });
  });

  it("used_gb above capacity_gb is a 422 naming used_gb, on create and against the stored values on patch", async () => {
    const create = await a.req("POST", "storage", a.editor, { name: "over", kind: "disk", capacity_gb: 100, used_gb: 101 });
    expect(create.status).toBe(422);
    expect(Object.keys((await create.json()).fields)).toEqual(["used_gb"]);
    const st = await (await a.req("POST", "storage", a.editor, { name: "ok-disk", kind: "disk", capacity_gb: 100, used_gb: 50 })).json();
    const used = await a.req("PATCH", `storage/${st.id}`, a.editor, { used_gb: 150 });
    expect(used.status).toBe(422);
    expect((await used.json()).fields.used_gb).toBe("used_gb (150) exceeds capacity_gb (100).");
    expect((await a.req("PATCH", `storage/${st.id}`, a.editor, { capacity_gb: 10 })).status).toBe(422);
    // Clearing the capacity lifts the rule.
    expect((await a.req("PATCH", `storage/${st.id}`, a.editor, { capacity_gb: null, used_gb: 150 })).status).toBe(200);
    expect((await a.t.sql`select count(*)::int as n from storage where name = 'over'`)[0]!.n).toBe(0);
  });

  it("422 for a bad kind, a negative size, an unknown field or an unknown hardware node", async () => {
    const kind = await a.req("POST", "storage", a.editor, { name: "x", kind: "tape" });
    expect(Object.keys((await kind.json()).fields)).toEqual(["kind"]);
    const fields = await a.req("POST", "storage", a.editor, { name: "x", kind: "disk", capacity_gb: -1, raid: 5 });
    expect(Object.keys((await fields.json()).fields).sort()).toEqual(["capacity_gb", "raid"]);
    const hw = await a.req("POST", "storage", a.editor, { name: "x", kind: "disk", hardware_id: 99999 });
    expect(hw.status).toBe(422);
    expect((await hw.json()).fields.hardware_id).toBe("Hardware node 99999 was not found.");
  });
});

describe("storage: security", () => {
  it("anonymous 401, viewer cannot write, editor cannot delete", async () => {
    expect((await a.req("GET", "storage")).status).toBe(401);
    expect((await a.req("POST", "storage", a.viewer, { name: "nope", kind: "disk" })).status).toBe(403);
    const st = await (await a.req("POST", "storage", a.editor, { name: "keep", kind: "disk" })).json();
    expect((await a.req("PATCH", `storage/${st.id}`, a.viewer, { name: "x" })).status).toBe(403);
    expect((await a.req("DELETE", `storage/${st.id}`, a.editor)).status).toBe(403);
  });
});
