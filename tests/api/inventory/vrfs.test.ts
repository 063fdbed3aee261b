import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const count = async () => Number((await a.t.sql`select count(*)::int as n from vrfs`)[0]!.n);

describe("vrfs", () => {
  it("creates, lists, patches with If-Match and deletes", async () => {
    const res = await a.req("POST", "vrfs", a.editor, { name: "customer-a", rd: "65000:10", tags: ["tenant"] });
    expect(res.status).toBe(201);
    const vrf = await res.json();
    expect(vrf).toMatchObject({ name: "customer-a", rd: "65000:10", enforce_unique: true, prefix_count: 0, version: 1 });
    const list = await (await a.req("GET", "vrfs?q=customer", a.viewer)).json();
    expect(list.items.map((v: { name: string }) => v.name)).toEqual(["customer-a"]);
    expect((await a.req("PATCH", `vrfs/${vrf.id}`, a.editor, { rd: "" }, { "if-match": 'W/"3"' })).status).toBe(412);
    const cleared = await a.req("PATCH", `vrfs/${vrf.id}`, a.editor, { rd: "" }, { "if-match": 'W/"1"' });
    expect(await cleared.json()).toMatchObject({ rd: null, version: 2 });
    expect((await a.req("DELETE", `vrfs/${vrf.id}`, a.admin)).status).toBe(204);
  });

  it("name and rd are unique; a bad rd is 422; a VRF with prefixes cannot go; nothing changes", async () => {
    const vrf = await (await a.req("POST", "vrfs", a.editor, { name: "b", rd: "10.0.0.1:5" })).json();
    const before = await count();
    const name = await a.req("POST", "vrfs", a.editor, { name: "b" });
    expect(name.status).toBe(409);
    expect((await name.json()).fields.name).toBe(`VRF ${vrf.id} already has name "b".`);
    expect((await a.req("POST", "vrfs", a.editor, { name: "c", rd: "10.0.0.1:5" })).status).toBe(409);
    const bad = await a.req("POST", "vrfs", a.editor, { name: "d", rd: "nope" });
    expect(bad.status).toBe(422);
    expect((await bad.json()).fields.rd).toContain("ASN:number");
    expect(await count()).toBe(before);

    const p = await (await a.req("POST", "prefixes", a.editor, { prefix: "10.9.0.0/16", vrf_id: vrf.id })).json();
    expect((await (await a.req("GET", `vrfs/${vrf.id}`, a.viewer)).json()).prefix_count).toBe(1);
    const del = await a.req("DELETE", `vrfs/${vrf.id}`, a.admin);
    expect(del.status).toBe(409);
    expect((await del.json()).detail).toContain(`prefix ${p.id} (10.9.0.0/16)`);
    expect(await count()).toBe(before);
    expect((await a.req("DELETE", `vrfs/${vrf.id}`, a.editor)).status).toBe(403);
  });
});
