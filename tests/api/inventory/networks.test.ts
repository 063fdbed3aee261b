import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const post = async (path: string, body: unknown, token = a.editor) => {
  const res = await a.req("POST", path, token, body);
  expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(201);
  return res.json();
};
const vm = async (name: string) =>
  (await a.t.sql`insert into compute_units (name, kind) values (${name}, 'vm') returning id`)[0]!.id as number;
const hw = async (name: string) => (await a.t.sql`insert into hardware (name) values (${name}) returning id`)[0]!.id as number;

describe("networks: happy", () => {
  it("creates with a canonical cidr, reads, lists, patches and deletes", async () => {
    const site = (await a.t.sql`insert into sites (name) values ('dc-1') returning id`)[0]!.id as number;
    const net = await post("networks", {
      name: "lan",
      cidr: "192.168.1.0/24",
      gateway: "192.168.1.1",
      vlan_id: 10,
      dns_servers: ["1.1.1.1", "2606:4700:4700:0::1111"],
      site_id: site,
      tags: ["core"],
    });
    expect(net).toMatchObject({
      name: "lan",
      cidr: "192.168.1.0/24",
      gateway: "192.168.1.1",
      vlan_id: 10,
      dns_servers: ["1.1.1.1", "2606:4700:4700::1111"],
      site_name: "dc-1",
      tags: ["core"],
      version: 1,
    });
    const v6 = await post("networks", { name: "v6", cidr: "2001:DB8:0::/48" });
    expect(v6.cidr).toBe("2001:db8::/48");

    expect((await (await a.req("GET", `networks/${net.id}`, a.viewer)).json()).name).toBe("lan");
    const page = await (await a.req("GET", "networks?sort=cidr&vlan_id=10", a.viewer)).json();
    expect(page.items.map((n: { id: number }) => n.id)).toEqual([net.id]);
    const byCidr = await (await a.req("GET", "networks?sort=cidr", a.viewer)).json();
    expect(byCidr.items.map((n: { name: string }) => n.name)).toEqual(["lan", "v6"]);

    const patched = await a.req("PATCH", `networks/${net.id}`, a.editor, { description: "office", site_name: "ignored", gateway: "" });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ description: "office", gateway: null, cidr: "192.168.1.0/24", version: 2 });

    expect((await a.req("DELETE", `networks/${v6.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `networks/${v6.id}`, a.viewer)).status).toBe(404);
    const audit = await a.t.sql`select action from audit_log where entity_type = 'network' and entity_id = ${String(v6.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual(["network.create", "network.delete"]);
  });

  it("adds, lists and removes compute and hardware members", async () => {
    const net = await post("networks", { name: "members-net", cidr: "10.20.0.0/16" });
    const cu = await vm("web-1");
    const node = await hw("pve-1");
    const m = await post(`networks/${net.id}/members`, { compute_id: cu, ip_address: "10.20.1.5" });
    expect(m).toEqual({ network_id: net.id, compute_id: cu, name: "web-1", kind: "vm", status: "unknown", ip_address: "10.20.1.5" });
    const h = await post(`networks/${net.id}/hardware-members`, { hardware_id: node });
    expect(h).toEqual({ network_id: net.id, hardware_id: node, name: "pve-1", status: "unknown", ip_address: null });
    expect(await (await a.req("GET", `networks/${net.id}/members`, a.viewer)).json()).toEqual([m]);
    expect(await (await a.req("GET", `networks/${net.id}/hardware-members`, a.viewer)).json()).toEqual([h]);
    // The hardware's own view (hardware group) sees the membership.
    expect((await (await a.req("GET", `hardware/${node}/network-memberships`, a.viewer)).json())[0]).toMatchObject({ network_id: net.id });

    expect((await a.req("DELETE", `networks/${net.id}/members/${cu}`, a.editor)).status).toBe(204);
    expect((await a.req("DELETE", `networks/${net.id}/hardware-members/${node}`, a.editor)).status).toBe(204);
    expect(await (await a.req("GET", `networks/${net.id}/members`, a.viewer)).json()).toEqual([]);
    const audit = await a.t.sql`select action from audit_log where entity_type = 'network' and entity_id = ${String(net.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual([
      "network.create",
      "network_member.create",
      "network_hardware_member.create",
      "network_member.delete",
      "network_hardware_member.delete",
    ]);
  });

  it("peers symmetrically: one row, listed from both sides, removable from either", async () => {
    const x = await post("networks", { name: "peer-x", cidr: "10.30.0.0/24" });
    const y = await post("networks", { name: "peer-y", cidr: "10.31.0.0/24" });
    const p = await post(`networks/${x.id}/peers`, { peer_network_id: y.id, description: "vpn" });
    expect(p).toEqual({ network_id: x.id, peer_network_id: y.id, name: "peer-y", cidr: "10.31.0.0/24", description: "vpn" });
    expect(await (await a.req("GET", `networks/${y.id}/peers`, a.viewer)).json()).toEqual([
      { network_id: y.id, peer_network_id: x.id, name: "peer-x", cidr: "10.30.0.0/24", description: "vpn" },
    ]);
    expect((await a.t.sql`select count(*)::int as n from network_peers where ${x.id} in (network_id, peer_network_id)`)[0]!.n).toBe(1);
    expect((await a.req("DELETE", `networks/${y.id}/peers/${x.id}`, a.editor)).status).toBe(204);
    expect(await (await a.req("GET", `networks/${x.id}/peers`, a.viewer)).json()).toEqual([]);
  });

  it("deleting a network removes its links and detaches its IPAM records", async () => {
    const net = await post("networks", { name: "doomed", cidr: "10.40.0.0/24" });
    const other = await post("networks", { name: "stays", cidr: "10.41.0.0/24" });
    await post(`networks/${net.id}/members`, { compute_id: await vm("doomed-vm") });
    await post(`networks/${net.id}/peers`, { peer_network_id: other.id });
    const ip = await post("ipam", { address: "10.40.0.9", network_id: net.id });
    expect((await a.req("DELETE", `networks/${net.id}`, a.admin)).status).toBe(204);
    expect((await a.t.sql`select count(*)::int as n from network_members where network_id = ${net.id}`)[0]!.n).toBe(0);
    expect(await (await a.req("GET", `networks/${other.id}/peers`, a.viewer)).json()).toEqual([]);
    expect((await (await a.req("GET", `ipam/${ip.id}`, a.viewer)).json()).network_id).toBeNull();
  });
});

describe("networks: errors", () => {
  it("refuses a cidr with host bits, naming the canonical form", async () => {
    const res = await a.req("POST", "networks", a.editor, { name: "bad", cidr: "10.0.0.5/24" });
    expect(res.status).toBe(422);
    expect((await res.json()).fields.cidr).toBe("Host bits are set; the network is 10.0.0.0/24.");
    for (const cidr of ["10.0.0.0/33", "banana", "10.0.0.0"])
      expect((await a.req("POST", "networks", a.editor, { name: "bad", cidr })).status, cidr).toBe(422);
    expect((await a.t.sql`select count(*)::int as n from networks where name = 'bad'`)[0]!.n).toBe(0);
  });

  it("the gateway must lie inside the cidr, on create and when either changes", async () => {
    const res = await a.req("POST", "networks", a.editor, { name: "gw", cidr: "10.50.0.0/24", gateway: "10.51.0.1" });
    expect(res.status).toBe(422);
    expect((await res.json()).fields.gateway).toBe("Gateway 10.51.0.1 is outside 10.50.0.0/24.");
    expect((await a.req("POST", "networks", a.editor, { name: "gw", gateway: "10.51.0.1" })).status).toBe(422);
    const net = await post("networks", { name: "gw", cidr: "10.50.0.0/24", gateway: "10.50.0.1" });
    expect((await a.req("PATCH", `networks/${net.id}`, a.editor, { cidr: "10.60.0.0/24" })).status).toBe(422);
    expect((await a.req("PATCH", `networks/${net.id}`, a.editor, { cidr: "10.60.0.0/24", gateway: "10.60.0.1" })).status).toBe(200);
  });

  it("a cidr change may not leave recorded addresses outside (409 listing them)", async () => {
    const net = await post("networks", { name: "shrink", cidr: "10.70.0.0/16" });
    await post(`networks/${net.id}/members`, { compute_id: await vm("far-vm"), ip_address: "10.70.9.9" });
    const res = await a.req("PATCH", `networks/${net.id}`, a.editor, { cidr: "10.70.0.0/24" });
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toContain("10.70.9.9 (compute unit");
  });

  it("member errors: unknown network 404, unknown member 422, outside address 422, duplicate 409, not a member 404", async () => {
    const net = await post("networks", { name: "m-err", cidr: "10.80.0.0/24" });
    const cu = await vm("m-err-vm");
    expect((await a.req("POST", `networks/999999/members`, a.editor, { compute_id: cu })).status).toBe(404);
    const unknown = await a.req("POST", `networks/${net.id}/hardware-members`, a.editor, { hardware_id: 999999 });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).fields.hardware_id).toBe("Hardware node 999999 was not found.");
    const out = await a.req("POST", `networks/${net.id}/members`, a.editor, { compute_id: cu, ip_address: "10.81.0.1" });
    expect(out.status).toBe(422);
    expect((await out.json()).fields.ip_address).toContain("outside");
    expect((await a.req("POST", `networks/${net.id}/members`, a.editor, { compute_id: cu, ip_address: "not-an-ip" })).status).toBe(422);
    await post(`networks/${net.id}/members`, { compute_id: cu });
    const dup = await a.req("POST", `networks/${net.id}/members`, a.editor, { compute_id: cu });
    expect(dup.status).toBe(409);
    expect((await dup.json()).detail).toBe(`Compute unit ${cu} is already a member of network ${net.id}.`);
    const gone = await a.req("DELETE", `networks/${net.id}/hardware-members/12345`, a.editor);
    expect(gone.status).toBe(404);
    expect((await gone.json()).detail).toBe(`Hardware node 12345 is not a member of network ${net.id}.`);
  });

  it("peer errors: itself 422, unknown peer 422, duplicate in either direction 409, not peered 404", async () => {
    const x = await post("networks", { name: "pe-x" });
    const y = await post("networks", { name: "pe-y" });
    expect((await a.req("POST", `networks/${x.id}/peers`, a.editor, { peer_network_id: x.id })).status).toBe(422);
    expect((await a.req("POST", `networks/${x.id}/peers`, a.editor, { peer_network_id: 999999 })).status).toBe(422);
    expect((await a.req("POST", `networks/999999/peers`, a.editor, { peer_network_id: x.id })).status).toBe(404);
    await post(`networks/${x.id}/peers`, { peer_network_id: y.id });
    expect((await a.req("POST", `networks/${x.id}/peers`, a.editor, { peer_network_id: y.id })).status).toBe(409);
    const reverse = await a.req("POST", `networks/${y.id}/peers`, a.editor, { peer_network_id: x.id });
    expect(reverse.status).toBe(409);
    expect((await reverse.json()).detail).toBe(`Networks ${y.id} and ${x.id} are already peered.`);
    expect((await a.req("DELETE", `networks/${x.id}/peers/999999`, a.editor)).status).toBe(404);
  });

  it("unknown fields and a missing site are 422 naming them", async () => {
    const res = await a.req("POST", "networks", a.editor, { name: "x", subnet: "10.0.0.0/8", site_id: 99999 });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).fields)).toEqual(["subnet"]);
    const site = await a.req("POST", "networks", a.editor, { name: "x", site_id: 99999 });
    expect(site.status).toBe(422);
    expect((await site.json()).fields.site_id).toBe("Site 99999 was not found.");
  });
});

describe("networks: security", () => {
  it("anonymous 401; viewer cannot write networks or links; editor cannot delete networks", async () => {
    const net = await post("networks", { name: "sec-net" });
    expect((await a.req("GET", "networks")).status).toBe(401);
    expect((await a.req("GET", `networks/${net.id}/members`)).status).toBe(401);
    expect((await a.req("POST", "networks", a.viewer, { name: "nope" })).status).toBe(403);
    expect((await a.req("POST", `networks/${net.id}/members`, a.viewer, { compute_id: 1 })).status).toBe(403);
    expect((await a.req("POST", `networks/${net.id}/peers`, a.viewer, { peer_network_id: 1 })).status).toBe(403);
    expect((await a.req("DELETE", `networks/${net.id}/hardware-members/1`, a.viewer)).status).toBe(403);
    expect((await a.req("DELETE", `networks/${net.id}`, a.editor)).status).toBe(403);
    expect((await a.req("GET", `networks/${net.id}`, a.viewer)).status).toBe(200);
  });
});
