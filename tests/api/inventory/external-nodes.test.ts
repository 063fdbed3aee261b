import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

async function network(name: string): Promise<number> {
  const [row] = await a.t.sql`insert into networks (name, cidr) values (${name}, '192.168.1.0/24') returning id`;
  return row!.id;
}

describe("external-nodes: happy", () => {
  it("creates, reads, lists with filters, patches and deletes", async () => {
    const created = await a.req("POST", "external-nodes", a.editor, {
      name: "s3-backup",
      provider: "AWS",
      kind: "object-storage",
      region: "eu-west-1",
      url: "https://s3.amazonaws.com",
      tags: ["backup"],
    });
    expect(created.status).toBe(201);
    const node = await created.json();
    expect(node).toMatchObject({ name: "s3-backup", provider: "AWS", region: "eu-west-1", tags: ["backup"], version: 1 });
    await a.req("POST", "external-nodes", a.editor, { name: "cloudflare", provider: "Cloudflare", kind: "cdn" });

    const names = async (q: string) =>
      (await (await a.req("GET", `external-nodes?${q}`, a.viewer)).json()).items.map((x: { name: string }) => x.name);
    expect(await names("provider=AWS")).toEqual(["s3-backup"]);
    expect(await names("kind=cdn")).toEqual(["cloudflare"]);
    expect(await names("region=eu-west-1")).toEqual(["s3-backup"]);
    expect(await names("tag=backup")).toEqual(["s3-backup"]);
    expect(await names("q=cloud")).toEqual(["cloudflare"]);

    const patched = await a.req("PATCH", `external-nodes/${node.id}`, a.editor, { region: "eu-central-1" });
    expect(await patched.json()).toMatchObject({ region: "eu-central-1", provider: "AWS", version: 2 });
    expect((await a.req("DELETE", `external-nodes/${node.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `external-nodes/${node.id}`, a.viewer)).status).toBe(404);
    const audit = await a.t
      .sql`select action from audit_log where entity_type = 'external_node' and entity_id = ${String(node.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual(["external_node.create", "external_node.update", "external_node.delete"]);
  });

  it("links networks, lists them and the dependent services, and unlinks", async () => {
    const node = await (await a.req("POST", "external-nodes", a.editor, { name: "vpn-peer" })).json();
    const net = await network("wan");
    const linked = await a.req("POST", `external-nodes/${node.id}/networks`, a.editor, { network_id: net, link_type: "wireguard" });
    expect(linked.status).toBe(201);
    const link = await linked.json();
    expect(link).toMatchObject({
      external_node_id: node.id,
      network_id: net,
      network_name: "wan",
      cidr: "192.168.1.0/24",
      link_type: "wireguard",
    });
    expect(await (await a.req("GET", `external-nodes/${node.id}/networks`, a.viewer)).json()).toEqual([link]);

    const [svc] = await a.t.sql`insert into services (name, slug, status) values ('backup-job', 'backup-job', 'running') returning id`;
    const [rel] = await a.t
      .sql`insert into service_external_dependencies (service_id, external_node_id, description) values (${svc!.id}, ${node.id}, 'uploads nightly') returning id`;
    expect(await (await a.req("GET", `external-nodes/${node.id}/services`, a.viewer)).json()).toEqual([
      { id: svc!.id, name: "backup-job", slug: "backup-job", status: "running", relation_id: rel!.id, description: "uploads nightly" },
    ]);

    expect((await a.req("DELETE", `external-node-networks/${link.id}`, a.editor)).status).toBe(204);
    expect(await (await a.req("GET", `external-nodes/${node.id}/networks`, a.viewer)).json()).toEqual([]);
    const audit = await a.t
      .sql`select action from audit_log where entity_type = 'external_node_network' and entity_id = ${String(link.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual(["external_node.network.create", "external_node.network.delete"]);
  });

  it("deleting a node removes its network links and unlinks dependent services", async () => {
    const node = await (await a.req("POST", "external-nodes", a.editor, { name: "saas" })).json();
    const net = await network("dmz");
    await a.req("POST", `external-nodes/${node.id}/networks`, a.editor, { network_id: net });
    const [svc] = await a.t.sql`insert into services (name, slug) values ('crm', 'crm') returning id`;
    await a.t.sql`insert into service_external_dependencies (service_id, external_node_id) values (${svc!.id}, ${node.id})`;
    expect((await a.req("DELETE", `external-nodes/${node.id}`, a.admin)).status).toBe(204);
    expect((await a.t.sql`select count(*)::int as n from external_node_networks where external_node_id = ${node.id}`)[0]!.n).toBe(0);
    expect((await a.t.sql`select count(*)::int as n from service_external_dependencies where external_node_id = ${node.id}`)[0]!.n).toBe(0);
    expect((await a.t.sql`select count(*)::int as n from services where id = ${svc!.id}`)[0]!.n).toBe(1);
    const [unlink] = await a.t.sql`select diff from audit_log where action = 'external_node.unlink' and entity_id = ${String(node.id)}`;
    expect(Object.keys(unlink!.diff.before).sort()).toEqual(["external_node_networks", "service_external_dependencies"]);
  });
});

describe("external-nodes: errors", () => {
  it("404 names the resource and id, for the node and its sub-resources", async () => {
    const res = await a.req("GET", "external-nodes/424242", a.viewer);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error_code: "RESOURCE_NOT_FOUND", detail: "External node 424242 was not found." });
    expect((await a.req("GET", "external-nodes/424242/networks", a.viewer)).status).toBe(404);
    expect((await a.req("GET", "external-nodes/424242/services", a.viewer)).status).toBe(404);
    expect((await a.req("POST", "external-nodes/424242/networks", a.editor, { network_id: await network("x") })).status).toBe(404);
    const rel = await a.req("DELETE", "external-node-networks/424242", a.editor);
    expect(rel.status).toBe(404);
    expect((await rel.json()).detail).toBe("External node network link 424242 was not found.");
  });

  it("an unknown network is 422 naming network_id; a second link is 409", async () => {
    const node = await (await a.req("POST", "external-nodes", a.editor, { name: "isp" })).json();
    const unknown = await a.req("POST", `external-nodes/${node.id}/networks`, a.editor, { network_id: 99999 });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).fields.network_id).toBe("Network 99999 was not found.");
    const missing = await a.req("POST", `external-nodes/${node.id}/networks`, a.editor, { link_type: "fiber" });
    expect(Object.keys((await missing.json()).fields)).toEqual(["network_id"]);
    const net = await network("uplink");
    expect((await a.req("POST", `external-nodes/${node.id}/networks`, a.editor, { network_id: net })).status).toBe(201);
    const dup = await a.req("POST", `external-nodes/${node.id}/networks`, a.editor, { network_id: net, link_type: "other" });
    expect(dup.status).toBe(409);
    expect((await dup.json()).detail).toContain(`already linked to network ${net}`);
    expect((await a.t.sql`select count(*)::int as n from external_node_networks where external_node_id = ${node.id}`)[0]!.n).toBe(1);
  });

  it("422 for a bad body: empty name, javascript: URL, unknown field", async () => {
    const res = await a.req("POST", "external-nodes", a.editor, { name: "", url: "javascript:alert(1)", owner: "me" });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).fields).sort()).toEqual(["name", "owner", "url"]);
  });
});

describe("external-nodes: security", () => {
  it("anonymous 401, viewer cannot write or link, editor cannot delete a node", async () => {
    expect((await a.req("GET", "external-nodes")).status).toBe(401);
    expect((await a.req("POST", "external-nodes", a.viewer, { name: "nope" })).status).toBe(403);
    const node = await (await a.req("POST", "external-nodes", a.editor, { name: "keep" })).json();
    const net = await network("sec");
    expect((await a.req("POST", `external-nodes/${node.id}/networks`, a.viewer, { network_id: net })).status).toBe(403);
    const link = await (await a.req("POST", `external-nodes/${node.id}/networks`, a.editor, { network_id: net })).json();
    expect((await a.req("DELETE", `external-node-networks/${link.id}`, a.viewer)).status).toBe(403);
    expect((await a.req("DELETE", `external-nodes/${node.id}`, a.editor)).status).toBe(403);
    expect((await a.req("GET", `external-nodes/${node.id}/services`)).status).toBe(401);
  });
});
