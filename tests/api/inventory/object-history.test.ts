// GET /history (docs/adr/0483): an inventory object's change history for whoever may read the object,
// from the audit log without the administrators' fields, and every refusal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
let hw = 0;
beforeAll(async () => {
  a = await createActors();
  const res = await a.req("POST", "hardware", a.editor, { name: "hist-node", vendor: "Dell" });
  expect(res.status).toBe(201);
  hw = ((await res.json()) as { id: number }).id;
  expect((await a.req("PATCH", `hardware/${hw}`, a.editor, { vendor: "HPE" })).status).toBe(200);
});
afterAll(async () => a.t.close());

const mint = async (scopes: string[]) => {
  const res = await a.req("POST", "auth/api-token", a.admin, { label: `hist ${scopes.join(" ")}`, scopes });
  expect(res.status).toBe(201);
  return (await res.json()).token as string;
};

describe("an object's history", () => {
  it("a viewer reads the object's changes, newest first, with who and the diff, and nothing only admins read", async () => {
    const res = await a.req("GET", `history?object_type=hardware&object_id=${hw}`, a.viewer);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { items: Record<string, unknown>[]; total: number; sort: string; direction: string };
    expect(page.total).toBe(2);
    expect(page.sort).toBe("timestamp");
    expect(page.direction).toBe("desc");
    const [update, create] = page.items;
    expect(update?.action).toMatch(/update/);
    expect(create?.action).toMatch(/create/);
    expect(update?.diff).toMatchObject({ before: { vendor: "Dell" }, after: { vendor: "HPE" } });
    expect(typeof update?.actor_id).toBe("number");
    expect(typeof update?.actor_name).toBe("string");
    expect(Object.keys(update ?? {}).sort()).toEqual(["action", "actor_id", "actor_name", "diff", "id", "timestamp"]);
    // The same entries as the admin log holds for the object.
    const admin = await a.req("GET", `logs?entity_type=hardware&entity_id=${hw}`, a.admin);
    expect(((await admin.json()) as { items: { id: number }[] }).items.map((e) => e.id)).toEqual(page.items.map((e) => e.id));
  });

  it("pages, and answers the oldest first when asked", async () => {
    const res = await a.req("GET", `history?object_type=hardware&object_id=${hw}&limit=1&direction=asc`, a.viewer);
    const page = (await res.json()) as { items: { action: string }[]; total: number; limit: number };
    expect(page.total).toBe(2);
    expect(page.limit).toBe(1);
    expect(page.items.map((e) => e.action)).toEqual([expect.stringMatching(/create/)]);
  });

  it("needs the object kind's read scope: 401 anonymous, 403 for a token without it", async () => {
    expect((await a.req("GET", `history?object_type=hardware&object_id=${hw}`)).status).toBe(401);
    const sitesOnly = await mint(["read:sites"]);
    const denied = await a.req("GET", `history?object_type=hardware&object_id=${hw}`, sitesOnly);
    expect(denied.status).toBe(403);
    expect((await denied.json()).detail).toContain("read:hardware");
    const hardwareReader = await mint(["read:hardware"]);
    expect((await a.req("GET", `history?object_type=hardware&object_id=${hw}`, hardwareReader)).status).toBe(200);
  });

  it("names the object: a missing one is a 404, a missing or wrong parameter a 422 naming it", async () => {
    const missing = await a.req("GET", "history?object_type=hardware&object_id=999999", a.viewer);
    expect(missing.status).toBe(404);
    const noId = await a.req("GET", "history?object_type=hardware", a.viewer);
    expect(noId.status).toBe(422);
    expect((await noId.json()).fields).toHaveProperty("object_id");
    const badType = await a.req("GET", `history?object_type=rocket&object_id=${hw}`, a.viewer);
    expect(badType.status).toBe(422);
    expect((await badType.json()).fields).toHaveProperty("object_type");
  });
});
