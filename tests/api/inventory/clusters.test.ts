import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const hw = async (name: string) => (await a.t.sql`insert into hardware (name) values (${name}) returning id`)[0]!.id as number;
const cluster = async (name: string) => {
  const res = await a.req("POST", "hardware-clusters", a.editor, { name });
  expect(res.status).toBe(201);
  return res.json();
};

describe("clusters: happy", () => {
  it("creates, reads, lists, patches and deletes a cluster", async () => {
    const env = (await a.t.sql`insert into environments (name) values ('prod') returning id`)[0]!.id as number;
    const created = await a.req("POST", "hardware-clusters", a.editor, { name: "pve", type: "proxmox", environment_id: env });
    expect(created.status).toBe(201);
    const c = await created.json();
    expect(c).toMatchObject({ name: "pve", type: "proxmox", environment_id: env, environment_name: "prod", version: 1 });
    await cluster("k8s");
    expect((await (await a.req("GET", `hardware-clusters/${c.id}`, a.viewer)).json()).name).toBe("pve");
    const page = await (await a.req("GET", "hardware-clusters?type=proxmox", a.viewer)).json();
    expect(page.items.map((x: { name: string }) => x.name)).toEqual(["pve"]);
    const patched = await a.req("PATCH", `hardware-clusters/${c.id}`, a.editor, {
      description: "three nodes",
      environment_name: "ignored",
    });
    expect(await patched.json()).toMatchObject({ description: "three nodes", version: 2 });
    expect((await a.req("DELETE", `hardware-clusters/${c.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `hardware-clusters/${c.id}`, a.viewer)).status).toBe(404);
  });

  it("adds, lists, re-roles and removes members; deleting the cluster keeps the hardware", async () => {
    const c = await cluster("ceph");
    const n1 = await hw("ceph-1");
    const n2 = await hw("ceph-2");
    const added = await a.req("POST", `hardware-clusters/${c.id}/members`, a.editor, { hardware_id: n2, role: "osd" });
    expect(added.status).toBe(201);
    const m2 = await added.json();
    expect(m2).toMatchObject({ cluster_id: c.id, hardware_id: n2, hardware_name: "ceph-2", role: "osd" });
    const m1 = await (await a.req("POST", `hardware-clusters/${c.id}/members`, a.editor, { hardware_id: n1 })).json();
    const list = await (await a.req("GET", `hardware-clusters/${c.id}/members`, a.viewer)).json();
    expect(list.map((m: { hardware_name: string }) => m.hardware_name)).toEqual(["ceph-1", "ceph-2"]);
    // The hardware's own view (hardware group) sees it.
    expect((await (await a.req("GET", `hardware/${n1}/clusters`, a.viewer)).json())[0]).toMatchObject({ id: c.id, member_id: m1.id });

    const patched = await a.req("PATCH", `hardware-clusters/${c.id}/members/${m1.id}`, a.editor, {
      role: "mon",
      hardware_name: "ignored",
      id: 1,
    });
    expect(patched.status).toBe(200);
    expect((await patched.json()).role).toBe("mon");
    expect((await a.req("DELETE", `hardware-clusters/${c.id}/members/${m2.id}`, a.editor)).status).toBe(204);
    const audit = await a.t.sql`select action from audit_log where entity_type = 'cluster' and entity_id = ${String(c.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual([
      "cluster.create",
      "cluster_member.create",
      "cluster_member.create",
      "cluster_member.update",
      "cluster_member.delete",
    ]);

    expect((await a.req("DELETE", `hardware-clusters/${c.id}`, a.admin)).status).toBe(204);
    expect((await a.t.sql`select count(*)::int as n from cluster_members where cluster_id = ${c.id}`)[0]!.n).toBe(0);
    expect((await a.req("GET", `hardware/${n1}`, a.viewer)).status).toBe(200);
  });
});

describe("clusters: errors", () => {
  it("a name twice is 409; unknown environment 422", async () => {
    const c = await cluster("unique-name");
    const dup = await a.req("POST", "hardware-clusters", a.editor, { name: "unique-name" });
    expect(dup.status).toBe(409);
    expect((await dup.json()).detail).toBe(`Hardware cluster ${c.id} already has name "unique-name".`);
    const other = await cluster("other-name");
    expect((await a.req("PATCH", `hardware-clusters/${other.id}`, a.editor, { name: "unique-name" })).status).toBe(409);
    expect((await a.req("PATCH", `hardware-clusters/${c.id}`, a.editor, { name: "unique-name" })).status).toBe(200);
    const env = await a.req("POST", "hardware-clusters", a.editor, { name: "e", environment_id: 4242 });
    expect((await env.json()).fields.environment_id).toBe("Environment 4242 was not found.");
  });

  it("members: duplicate 409, unknown hardware 422, unknown cluster 404, member of another cluster 404", async () => {
    const c = await cluster("m-errors");
    const d = await cluster("m-errors-2");
    const n = await hw("m-node");
    const m = await (await a.req("POST", `hardware-clusters/${c.id}/members`, a.editor, { hardware_id: n })).json();
    const dup = await a.req("POST", `hardware-clusters/${c.id}/members`, a.editor, { hardware_id: n });
    expect(dup.status).toBe(409);
    expect((await dup.json()).detail).toBe(`Hardware node ${n} is already in cluster ${c.id} (member ${m.id}).`);
    const ghost = await a.req("POST", `hardware-clusters/${c.id}/members`, a.editor, { hardware_id: 999999 });
    expect(ghost.status).toBe(422);
    expect((await ghost.json()).fields.hardware_id).toBe("Hardware node 999999 was not found.");
    expect((await a.req("POST", "hardware-clusters/999999/members", a.editor, { hardware_id: n })).status).toBe(404);
    const wrong = await a.req("PATCH", `hardware-clusters/${d.id}/members/${m.id}`, a.editor, { role: "x" });
    expect(wrong.status).toBe(404);
    expect((await wrong.json()).detail).toBe(`Cluster member ${m.id} was not found in cluster ${d.id}.`);
    expect((await a.req("DELETE", `hardware-clusters/${d.id}/members/${m.id}`, a.editor)).status).toBe(404);
    expect((await a.req("PATCH", `hardware-clusters/${c.id}/members/${m.id}`, a.editor, { hardware_id: 5, colour: "red" })).status).toBe(
      422,
    );
  });
});

describe("clusters: security", () => {
  it("anonymous 401, viewer cannot write clusters or members, editor cannot delete clusters", async () => {
    const c = await cluster("sec");
    const n = await hw("sec-node");
    expect((await a.req("GET", "hardware-clusters")).status).toBe(401);
    expect((await a.req("POST", "hardware-clusters", a.viewer, { name: "v" })).status).toBe(403);
    expect((await a.req("POST", `hardware-clusters/${c.id}/members`, a.viewer, { hardware_id: n })).status).toBe(403);
    const m = await (await a.req("POST", `hardware-clusters/${c.id}/members`, a.editor, { hardware_id: n })).json();
    expect((await a.req("PATCH", `hardware-clusters/${c.id}/members/${m.id}`, a.viewer, { role: "x" })).status).toBe(403);
    expect((await a.req("DELETE", `hardware-clusters/${c.id}/members/${m.id}`, a.viewer)).status).toBe(403);
    expect((await a.req("DELETE", `hardware-clusters/${c.id}`, a.editor)).status).toBe(403);
  });
});
