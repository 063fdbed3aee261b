import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const post = async (path: string, body: unknown, token = a.editor) => {
  const res = await a.req("POST", path, token, body);
  expect(res.status, `${path} ${JSON.stringify(body)} ${res.status === 201 ? "" : await res.clone().text()}`).toBe(201);
  return res.json();
};
const network = (name: string, cidr: string, gateway?: string) => post("networks", { name, cidr, ...(gateway ? { gateway } : {}) });

describe("ipam: happy", () => {
  it("records, reads, lists, patches and deletes an address", async () => {
    const net = await network("ipam-lan", "10.1.0.0/24");
    const hw = (await a.t.sql`insert into hardware (name) values ('nas') returning id`)[0]!.id as number;
    const ip = await post("ipam", {
      address: "10.1.0.20",
      network_id: net.id,
      status: "reserved",
      hostname: "nas.lan",
      mac_address: "AA-BB-CC-DD-EE-0F",
      assigned_type: "hardware",
      assigned_id: hw,
    });
    expect(ip).toMatchObject({
      address: "10.1.0.20",
      network_id: net.id,
      network_name: "ipam-lan",
      status: "reserved",
      mac_address: "aa:bb:cc:dd:ee:0f",
      assigned_type: "hardware",
      assigned_id: hw,
      version: 1,
    });
    expect((await (await a.req("GET", `ipam/${ip.id}`, a.viewer)).json()).hostname).toBe("nas.lan");

    await post("ipam", { address: "10.1.0.3", network_id: net.id });
    await post("ipam", { address: "10.1.0.100", network_id: net.id, status: "dhcp" });
    await post("ipam", { address: "2001:DB8::0:5" });
    const byAddress = await (await a.req("GET", `ipam?network_id=${net.id}&sort=address`, a.viewer)).json();
    expect(byAddress.items.map((r: { address: string }) => r.address)).toEqual(["10.1.0.3", "10.1.0.20", "10.1.0.100"]);
    const dhcp = await (await a.req("GET", "ipam?status=dhcp", a.viewer)).json();
    expect(dhcp.items.map((r: { address: string }) => r.address)).toEqual(["10.1.0.100"]);
    const q = await (await a.req("GET", "ipam?q=NAS", a.viewer)).json();
    expect(q.total).toBe(1);
    const v6 = await (await a.req("GET", "ipam?q=2001:db8::5", a.viewer)).json();
    expect(v6.items[0].address).toBe("2001:db8::5");

    const patched = await a.req("PATCH", `ipam/${ip.id}`, a.editor, {
      status: "allocated",
      assigned_type: null,
      assigned_id: null,
      network_name: "ignored",
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ status: "allocated", assigned_type: null, assigned_id: null, version: 2 });

    expect((await a.req("DELETE", `ipam/${ip.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `ipam/${ip.id}`, a.viewer)).status).toBe(404);
    const audit = await a.t.sql`select action from audit_log where entity_type = 'ip_address' and entity_id = ${String(ip.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual(["ip_address.create", "ip_address.update", "ip_address.delete"]);
  });

  it("next-free skips network address, gateway and every used address; a free record leaves its address free", async () => {
    const net = await network("alloc", "10.2.0.0/29", "10.2.0.1");
    const first = await (await a.req("GET", `ipam/next-free?network_id=${net.id}`, a.viewer)).json();
    expect(first).toEqual({ network_id: net.id, cidr: "10.2.0.0/29", address: "10.2.0.2" });

    await post("ipam", { address: "10.2.0.2", network_id: net.id });
    await a.t.sql`insert into hardware (name, ip_address) values ('h', '10.2.0.3/29')`;
    await a.t.sql`insert into services (name, slug, ports) values ('svc', 'svc-alloc', ${a.t.sql.json([{ ip: "10.2.0.4", port: 80 }])})`;
    const cu = (await a.t.sql`insert into compute_units (name, kind) values ('vm', 'vm') returning id`)[0]!.id as number;
    await post(`networks/${net.id}/members`, { compute_id: cu, ip_address: "10.2.0.5" });
    await post("ipam", { address: "10.2.0.6", network_id: net.id, status: "free" });
    expect((await (await a.req("GET", `ipam/next-free?network_id=${net.id}`, a.viewer)).json()).address).toBe("10.2.0.6");

    await a.t.sql`update ip_addresses set status = 'reserved' where address = '10.2.0.6'`;
    const full = await a.req("GET", `ipam/next-free?network_id=${net.id}`, a.viewer);
    expect(full.status).toBe(409);
    expect((await full.json()).detail).toBe(`Network ${net.id} (10.2.0.0/29) has no free address.`);
  });

  it("next-free works for IPv6 networks", async () => {
    const net = await network("alloc6", "2001:db8:1::/64");
    await post("ipam", { address: "2001:db8:1::1", network_id: net.id });
    expect((await (await a.req("GET", `ipam/next-free?network_id=${net.id}`, a.viewer)).json()).address).toBe("2001:db8:1::2");
  });

  it("check lists who uses an address and the networks holding it", async () => {
    const net = await network("chk", "10.3.0.0/24", "10.3.0.1");
    const hw = (await a.t.sql`insert into hardware (name, ip_address) values ('chk-hw', '10.3.0.7') returning id`)[0]!.id as number;
    const cu = (await a.t.sql`insert into compute_units (name, kind, ip_address) values ('chk-vm', 'vm', '10.3.0.70') returning id`)[0]!
      .id as number;
    const rec = await post("ipam", { address: "10.3.0.7", network_id: net.id, hostname: "chk" });
    const res = await a.req("POST", "ipam/check", a.viewer, { address: "10.3.0.7" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.in_use).toBe(true);
    expect(body.used_by.map((u: { type: string; id: number }) => `${u.type}:${u.id}`).sort()).toEqual(
      [`hardware:${hw}`, `ipam:${rec.id}`].sort(),
    );
    expect(body.networks).toEqual([{ id: net.id, name: "chk", cidr: "10.3.0.0/24" }]);
    expect(cu).toBeGreaterThan(0);

    const gw = await (await a.req("POST", "ipam/check", a.viewer, { address: "10.3.0.1" })).json();
    expect(gw.used_by).toEqual([
      { type: "network_gateway", id: net.id, name: "chk", ip_address: "10.3.0.1", network_id: net.id, status: null },
    ]);
    const unused = await (await a.req("POST", "ipam/check", a.viewer, { address: "192.0.2.1" })).json();
    expect(unused).toEqual({ address: "192.0.2.1", in_use: false, used_by: [], networks: [] });
  });
});

describe("ipam: errors", () => {
  it("a second record of an address is 409 naming the existing record, whatever its spelling", async () => {
    const rec = await post("ipam", { address: "2001:db8::99", hostname: "first" });
    const res = await a.req("POST", "ipam", a.editor, { address: "2001:0DB8:0:0::99" });
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.detail).toBe(`2001:db8::99 is already recorded (IP address ${rec.id}, first).`);
    expect(body.existing_id).toBe(rec.id);
  });

  it("an address outside its network, a missing network and bad addresses are 422", async () => {
    const net = await network("err-net", "10.4.0.0/24");
    const out = await a.req("POST", "ipam", a.editor, { address: "10.5.0.1", network_id: net.id });
    expect(out.status).toBe(422);
    expect((await out.json()).fields.address).toBe(`10.5.0.1 is outside network ${net.id}'s cidr 10.4.0.0/24.`);
    const rec = await post("ipam", { address: "10.4.0.9", network_id: net.id });
    expect((await a.req("PATCH", `ipam/${rec.id}`, a.editor, { address: "10.5.0.9" })).status).toBe(422);
    const missing = await a.req("POST", "ipam", a.editor, { address: "10.4.0.10", network_id: 999999 });
    expect(missing.status).toBe(422);
    expect((await missing.json()).fields.network_id).toBe("Network 999999 was not found.");
    for (const address of ["10.4.0.256", "10.4.0.0/24", "fe80::1%eth0", ""])
      expect((await a.req("POST", "ipam", a.editor, { address })).status, address).toBe(422);
    expect((await a.req("POST", "ipam", a.editor, { address: "10.4.0.11", status: "used" })).status).toBe(422);
    expect((await a.req("POST", "ipam", a.editor, { address: "10.4.0.11", mac_address: "zz" })).status).toBe(422);
  });

  it("an assignment needs both fields and an existing target", async () => {
    const onlyType = await a.req("POST", "ipam", a.editor, { address: "10.6.0.1", assigned_type: "service" });
    expect(onlyType.status).toBe(422);
    expect((await onlyType.json()).fields).toHaveProperty("assigned_id");
    const ghost = await a.req("POST", "ipam", a.editor, { address: "10.6.0.1", assigned_type: "compute_unit", assigned_id: 424242 });
    expect(ghost.status).toBe(422);
    expect((await ghost.json()).fields.assigned_id).toBe("Compute unit 424242 was not found.");
    expect((await a.req("POST", "ipam", a.editor, { address: "10.6.0.1", assigned_type: "router", assigned_id: 1 })).status).toBe(422);
    expect((await a.t.sql`select count(*)::int as n from ip_addresses where address = '10.6.0.1'`)[0]!.n).toBe(0);
  });

  it("next-free: unknown network 404, network without cidr 422, missing parameter 422", async () => {
    expect((await a.req("GET", "ipam/next-free?network_id=999999", a.viewer)).status).toBe(404);
    const bare = await post("networks", { name: "no-cidr" });
    expect((await a.req("GET", `ipam/next-free?network_id=${bare.id}`, a.viewer)).status).toBe(422);
    expect((await a.req("GET", "ipam/next-free", a.viewer)).status).toBe(422);
    expect((await a.req("POST", "ipam/check", a.viewer, { address: "nope" })).status).toBe(422);
  });
});

describe("ipam: security", () => {
  it("anonymous 401; viewers read and check but cannot write; editors cannot delete", async () => {
    expect((await a.req("GET", "ipam")).status).toBe(401);
    expect((await a.req("GET", "ipam/next-free?network_id=1")).status).toBe(401);
    expect((await a.req("POST", "ipam/check", undefined, { address: "10.0.0.1" })).status).toBe(401);
    expect((await a.req("POST", "ipam", a.viewer, { address: "10.9.9.9" })).status).toBe(403);
    const rec = await post("ipam", { address: "10.9.9.9" });
    expect((await a.req("PATCH", `ipam/${rec.id}`, a.viewer, { status: "free" })).status).toBe(403);
    expect((await a.req("DELETE", `ipam/${rec.id}`, a.editor)).status).toBe(403);
    expect((await a.req("GET", "ipam", a.viewer)).status).toBe(200);
  });
});
