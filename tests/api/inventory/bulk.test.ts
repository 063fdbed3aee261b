// POST {base}/bulk-delete and {base}/bulk-tags against real PostgreSQL: all or nothing, an audit entry per
// record, the delete behind the confirmation headers (428 without), 422 naming every id that cannot be
// changed with nothing changed, and the scopes of the resource (viewer 403; an editor tags but does not delete).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

let keys = 0;
const confirm = (action: string, key = `bulk-test-key-${++keys}-${Date.now()}`) => ({
  "x-svc-confirmation": action,
  "idempotency-key": key,
});

async function storageItems(prefix: string, n: number, tags: string[] = []): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await a.req("POST", "storage", a.editor, { name: `${prefix}-${i}`, kind: "disk", tags });
    expect(res.status).toBe(201);
    ids.push((await res.json()).id);
  }
  return ids;
}

const rows = (ids: number[]) =>
  a.t.sql<{ id: number; tags: string[]; version: number }[]>`select id, tags, version from storage where id = any(${ids}) order by id`;
const audits = (action: string, ids: number[]) =>
  a.t.sql<{ n: number }[]>`select count(*)::int as n from audit_log where action = ${action} and entity_id = any(${ids.map(String)})`.then(
    (r) => r[0]!.n,
  );

describe("bulk tags", () => {
  it("adds and removes tags on every selected record, one audit entry per record changed", async () => {
    const ids = await storageItems("tag-ok", 3, ["old"]);
    const res = await a.req("POST", "storage/bulk-tags", a.editor, { ids, add: ["backup"], remove: ["old"] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ changed: ids, unchanged: [] });
    expect((await rows(ids)).map((r) => [r.tags, r.version])).toEqual(ids.map(() => [["backup"], 2]));
    expect(await audits("storage.update", ids)).toBe(3);

    // Asked again: nothing to change, no new version or audit entry.
    const again = await a.req("POST", "storage/bulk-tags", a.editor, { ids, add: ["backup"] });
    expect(await again.json()).toEqual({ changed: [], unchanged: ids });
    expect((await rows(ids)).map((r) => r.version)).toEqual([2, 2, 2]);
    expect(await audits("storage.update", ids)).toBe(3);
  });

  it("an unknown id is a 422 naming it, and no record is retagged", async () => {
    const ids = await storageItems("tag-missing", 2);
    const res = await a.req("POST", "storage/bulk-tags", a.editor, { ids: [ids[0], 987654, ids[1]], add: ["x"] });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error_code).toBe("VALIDATION_ERROR");
    expect(body.refused).toEqual([{ id: 987654, reason: "not_found", detail: "Storage item 987654 was not found." }]);
    expect(body.fields.ids).toContain("987654");
    expect((await rows(ids)).map((r) => [r.tags, r.version])).toEqual([
      [[], 1],
      [[], 1],
    ]);
    expect(await audits("storage.update", ids)).toBe(0);
  });

  it("422 for an empty selection, no tag given, a tag both added and removed, or an unknown field", async () => {
    const [id] = await storageItems("tag-bad", 1);
    const cases: [unknown, string][] = [
      [{ ids: [], add: ["x"] }, "ids"],
      [{ ids: [id] }, "add"],
      [{ ids: [id], add: ["x"], remove: ["x"] }, "remove"],
      [{ ids: [id], add: ["x"], colour: "red" }, "colour"],
      [{ ids: [0], add: ["x"] }, "ids.0"],
    ];
    for (const [body, field] of cases) {
      const res = await a.req("POST", "storage/bulk-tags", a.editor, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((await res.json()).fields)).toContain(field);
    }
  });

  it("a viewer is refused 403; a resource without tags has no bulk-tags", async () => {
    const [id] = await storageItems("tag-viewer", 1);
    const res = await a.req("POST", "storage/bulk-tags", a.viewer, { ids: [id], add: ["x"] });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toBe("This operation needs the write:storage scope.");
    expect((await rows([id!]))[0]!.tags).toEqual([]);
    expect((await a.req("POST", "vlans/bulk-tags", a.admin, { ids: [1], add: ["x"] })).status).toBe(404);
  });
});

describe("bulk delete", () => {
  it("deletes every selected record behind the confirmation, one audit entry each; the same key replays the answer", async () => {
    const ids = await storageItems("del-ok", 3);
    const headers = confirm("bulk-delete-storage");
    const res = await a.req("POST", "storage/bulk-delete", a.admin, { ids }, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: ids, count: 3 });
    expect(await rows(ids)).toEqual([]);
    expect(await audits("storage.delete", ids)).toBe(3);

    const replay = await a.req("POST", "storage/bulk-delete", a.admin, { ids }, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await audits("storage.delete", ids)).toBe(3);
  });

  it("without the confirmation headers: 428 naming the action, nothing deleted", async () => {
    const ids = await storageItems("del-428", 2);
    const res = await a.req("POST", "storage/bulk-delete", a.admin, { ids });
    expect(res.status).toBe(428);
    const body = await res.json();
    expect(body).toMatchObject({
      error_code: "CONFIRMATION_REQUIRED",
      action: "bulk-delete-storage",
      required: ["x-svc-confirmation", "idempotency-key"],
    });
    const wrong = await a.req("POST", "storage/bulk-delete", a.admin, { ids }, confirm("bulk-delete-hardware"));
    expect(wrong.status).toBe(428);
    expect((await rows(ids)).length).toBe(2);
  });

  it("an unknown id is a 422 naming it and nothing is deleted", async () => {
    const ids = await storageItems("del-missing", 2);
    const res = await a.req("POST", "storage/bulk-delete", a.admin, { ids: [...ids, 876543] }, confirm("bulk-delete-storage"));
    expect(res.status).toBe(422);
    expect((await res.json()).refused).toEqual([{ id: 876543, reason: "not_found", detail: "Storage item 876543 was not found." }]);
    expect((await rows(ids)).length).toBe(2);
    expect(await audits("storage.delete", ids)).toBe(0);
  });

  it("records with dependents are named (each of them) and nothing is deleted", async () => {
    const hw = [];
    for (const name of ["bulk-host-a", "bulk-host-b", "bulk-host-free"])
      hw.push((await (await a.req("POST", "hardware", a.editor, { name })).json()).id as number);
    expect((await a.req("POST", "compute-units", a.editor, { name: "bulk-vm-a", kind: "vm", hardware_id: hw[0] })).status).toBe(201);
    expect((await a.req("POST", "services", a.editor, { name: "bulk-svc-b", hardware_id: hw[1] })).status).toBe(201);
    const res = await a.req("POST", "hardware/bulk-delete", a.admin, { ids: hw }, confirm("bulk-delete-hardware"));
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.refused.map((r: { id: number; reason: string }) => [r.id, r.reason])).toEqual([
      [hw[0], "conflict"],
      [hw[1], "conflict"],
    ]);
    expect(body.refused[0].detail).toContain("bulk-vm-a");
    expect(body.detail.map((i: { loc: unknown[] }) => i.loc)).toEqual([
      ["body", "ids", 0],
      ["body", "ids", 1],
    ]);
    const left = await a.t.sql`select count(*)::int as n from hardware where id = any(${hw})`;
    expect(left[0]!.n).toBe(3);
    expect(await audits("hardware.delete", hw)).toBe(0);
  });

  it("scopes: a viewer and an editor (no delete:storage) are refused 403 before any confirmation check", async () => {
    const ids = await storageItems("del-scope", 1);
    for (const token of [a.viewer, a.editor]) {
      const bare = await a.req("POST", "storage/bulk-delete", token, { ids });
      expect(bare.status).toBe(403);
      const confirmed = await a.req("POST", "storage/bulk-delete", token, { ids }, confirm("bulk-delete-storage"));
      expect(confirmed.status).toBe(403);
      expect((await confirmed.json()).detail).toBe("This operation needs the delete:storage scope.");
    }
    expect((await rows(ids)).length).toBe(1);
  });

  it("takes up to 100 records at once (a list page) in one request; 101 is a 422", async () => {
    const values = Array.from({ length: 101 }, (_, i) => `('bulk-many-${i}', 'disk')`).join(", ");
    const ids = (await a.t.sql.unsafe<{ id: number }[]>(`insert into storage (name, kind) values ${values} returning id`)).map((r) => r.id);
    const over = await a.req("POST", "storage/bulk-delete", a.admin, { ids }, confirm("bulk-delete-storage"));
    expect(over.status).toBe(422);
    expect((await over.json()).fields.ids).toBe("At most 100 records at once.");
    const res = await a.req("POST", "storage/bulk-delete", a.admin, { ids: ids.slice(0, 100) }, confirm("bulk-delete-storage"));
    expect(res.status).toBe(200);
    expect((await rows(ids)).map((r) => r.id)).toEqual([ids[100]]);
    expect(await audits("storage.delete", ids)).toBe(100);
  });

  it("the other inventory resources offer it too (VLANs, sites, environments, IPAM records)", async () => {
    const vlan = (await (await a.req("POST", "vlans", a.admin, { name: "bulk-vlan", vlan_id: 3001 })).json()).id;
    const site = (await (await a.req("POST", "sites", a.admin, { name: "bulk-site" })).json()).id;
    const env = (await (await a.req("POST", "environments", a.admin, { name: "bulk-env" })).json()).id;
    const ip = (await (await a.req("POST", "ipam", a.admin, { address: "10.99.0.1" })).json()).id;
    for (const [path, id] of [
      ["vlans", vlan],
      ["sites", site],
      ["environments", env],
      ["ipam", ip],
    ] as const) {
      const res = await a.req("POST", `${path}/bulk-delete`, a.admin, { ids: [id] }, confirm(`bulk-delete-${path}`));
      expect(res.status, path).toBe(200);
      expect((await a.req("GET", `${path}/${id}`, a.admin)).status).toBe(404);
    }
  });
});
