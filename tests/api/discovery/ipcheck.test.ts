// POST /ip-check against the real inventory: addresses held by hardware, compute units, services and
// IPAM records, service ports on an address, exclusion of the object being edited, bad input, and the
// credential it needs (unlike the original).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
const ids: Record<string, number> = {};

beforeAll(async () => {
  a = await createActors();
  const one = async (q: Promise<{ id: number }[]>) => (await q)[0]!.id;
  ids.hw = await one(a.t.sql`insert into hardware (name, ip_address) values ('ipc-host', '127.0.5.1') returning id`);
  ids.cu = await one(a.t.sql`insert into compute_units (name, kind, ip_address) values ('ipc-vm', 'vm', '127.0.5.2/24') returning id`);
  ids.svc = await one(a.t.sql`insert into services (name, slug, ip_address, ports) values ('ipc-web', 'ipc-web', '127.0.5.3', ${a.t.sql.json([{ port: 443, protocol: "tcp" }, { ip: "127.0.5.9", port: 53, protocol: "udp" }])}) returning id`);
  ids.ip = await one(a.t.sql`insert into ip_addresses (address, status, hostname) values ('127.0.5.4', 'reserved', 'printer') returning id`);
  await a.t.sql`insert into ip_addresses (address, status) values ('127.0.5.5', 'free')`;
});
afterAll(async () => a?.t.close());

const check = (body: unknown, token = a.admin) => a.req("POST", "ip-check", token, body);

describe("POST /ip-check", () => {
  it("names the hardware, compute unit, service and IPAM record holding each address", async () => {
    const expectOne = async (ip: string, entity_type: string, entity_id: number, entity_name: string) => {
      const res = await check({ ip });
      expect(res.status).toBe(200);
      expect((await res.json()).conflicts).toEqual([{ entity_type, entity_id, entity_name, conflicting_ip: ip, conflicting_port: null, protocol: null }]);
    };
    await expectOne("127.0.5.1", "hardware", ids.hw!, "ipc-host");
    await expectOne("127.0.5.2", "compute_unit", ids.cu!, "ipc-vm");
    await expectOne("127.0.5.3", "service", ids.svc!, "ipc-web");
    await expectOne("127.0.5.4", "ip_address", ids.ip!, "printer");
  });

  it("answers an empty list for a free address (a free IPAM record does not hold it)", async () => {
    for (const ip of ["127.0.5.5", "127.0.5.200"]) {
      const res = await check({ ip });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ conflicts: [] });
    }
  });

  it("finds service ports on the address, by protocol, with or without the port's own address", async () => {
    const res = await check({ ip: "127.0.5.3", ports: [{ port: 443 }, { port: 80 }, { ip: "127.0.5.9", port: 53, protocol: "udp" }, { ip: "127.0.5.9", port: 53 }] });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.conflicts).toEqual([
      { entity_type: "service", entity_id: ids.svc, entity_name: "ipc-web", conflicting_ip: "127.0.5.3", conflicting_port: null, protocol: null },
      { entity_type: "service", entity_id: ids.svc, entity_name: "ipc-web", conflicting_ip: "127.0.5.3", conflicting_port: 443, protocol: "tcp" },
      { entity_type: "service", entity_id: ids.svc, entity_name: "ipc-web", conflicting_ip: "127.0.5.9", conflicting_port: 53, protocol: "udp" },
    ]);
  });

  it("leaves out the object being edited", async () => {
    const res = await check({ ip: "127.0.5.3", ports: [{ port: 443 }], exclude_entity_type: "service", exclude_entity_id: ids.svc });
    expect(await res.json()).toEqual({ conflicts: [] });
  });

  it("refuses bad input with 422 naming the field", async () => {
    for (const [body, field] of [
      [{ ip: "300.1.1.1" }, "ip"],
      [{}, "ip"],
      [{ ip: "127.0.5.1", ports: [{ port: 70000 }] }, "ports"],
      [{ ip: "127.0.5.1", exclude_entity_type: "planet" }, "exclude_entity_type"],
      [{ ip: "127.0.5.1", surprise: 1 }, "surprise"],
    ] as const) {
      const res = await check(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify((await res.json()).detail)).toContain(field);
    }
  });

  it("needs a credential; any role may check", async () => {
    expect((await check({ ip: "127.0.5.1" }, "")).status).toBe(401);
    expect((await check({ ip: "127.0.5.1" }, a.viewer)).status).toBe(200);
  });
});
