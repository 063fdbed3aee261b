// POST /ip-check against the real inventory: addresses held by hardware, compute units, services and
// IPAM records, service ports on an address, exclusion of the object being edited, bad input, and the
// credential it needs (unlike the original).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { finishScanJob } from "../../../shared/verbs/discovery/run/finish.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
const ids: Record<string, number> = {};

beforeAll(async () => {
  a = await createActors();
  const one = async (q: Promise<{ id: number }[]>) => (await q)[0]!.id;
  ids.hw = await one(a.t.sql`insert into hardware (name, ip_address) values ('ipc-host', '127.0.5.1') returning id`);
  ids.cu = await one(a.t.sql`insert into compute_units (name, kind, ip_address) values ('ipc-vm', 'vm', '127.0.5.2/24') returning id`);
  ids.svc = await one(
    a.t.sql`insert into services (name, slug, ip_address, ports) values ('ipc-web', 'ipc-web', '127.0.5.3', ${a.t.sql.json([
      { port: 443, protocol: "tcp" },
      { ip: "127.0.5.9", port: 53, protocol: "udp" },
    ])}) returning id`,
  );
  ids.ip = await one(
    a.t.sql`insert into ip_addresses (address, status, hostname) values ('127.0.5.4', 'reserved', 'printer') returning id`,
  );
  await a.t.sql`insert into ip_addresses (address, status) values ('127.0.5.5', 'free')`;
});
afterAll(async () => a?.t.close());

/** Completes running job `id` with the worker's finish verb (which applies an IPAM scan in its transaction). */
const finish = (id: number) =>
  finishScanJob({
    ctx: systemContext({ db: a.t.runtime.database.db, clock: a.t.runtime.deps.clock, random: a.t.runtime.deps.random }),
    input: { job_id: id },
  });

const check = (body: unknown, token = a.admin) => a.req("POST", "ip-check", token, body);

describe("POST /ip-check", () => {
  it("names the hardware, compute unit, service and IPAM record holding each address", async () => {
    const expectOne = async (ip: string, entity_type: string, entity_id: number, entity_name: string) => {
      const res = await check({ ip });
      expect(res.status).toBe(200);
      expect((await res.json()).conflicts).toEqual([
        { entity_type, entity_id, entity_name, conflicting_ip: ip, conflicting_port: null, protocol: null },
      ]);
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
    const res = await check({
      ip: "127.0.5.3",
      ports: [{ port: 443 }, { port: 80 }, { ip: "127.0.5.9", port: 53, protocol: "udp" }, { ip: "127.0.5.9", port: 53 }],
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.conflicts).toEqual([
      {
        entity_type: "service",
        entity_id: ids.svc,
        entity_name: "ipc-web",
        conflicting_ip: "127.0.5.3",
        conflicting_port: null,
        protocol: null,
      },
      {
        entity_type: "service",
        entity_id: ids.svc,
        entity_name: "ipc-web",
        conflicting_ip: "127.0.5.3",
        conflicting_port: 443,
        protocol: "tcp",
      },
      {
        entity_type: "service",
        entity_id: ids.svc,
        entity_name: "ipc-web",
        conflicting_ip: "127.0.5.9",
        conflicting_port: 53,
        protocol: "udp",
      },
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

  it("needs a credential with write:networks (an editor's, not a viewer's)", async () => {
    expect((await check({ ip: "127.0.5.1" }, "")).status).toBe(401);
    expect((await check({ ip: "127.0.5.1" }, a.viewer)).status).toBe(403);
    expect((await check({ ip: "127.0.5.1" }, a.editor)).status).toBe(200);
  });
});

describe("POST /ip-check rate limit", () => {
  it("counts in the ip_check category: one client gets 429 with retry_after within 31 checks a minute", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31 && !statuses.includes(429); i++) {
      const res = await a.t.app.request("/api/v1/ip-check", {
        method: "POST",
        body: JSON.stringify({ ip: "127.0.5.1" }),
        headers: { "content-type": "application/json", authorization: `Bearer ${a.editor}`, "x-test-peer": "10.77.0.1" },
      });
      statuses.push(res.status);
      if (res.status === 429) expect((await res.json()).retry_after).toBeGreaterThan(0);
    }
    expect(statuses[0]).toBe(200);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeLessThanOrEqual(31);
  });
});

describe("POST /ipam/scan/{network_id} and the IPAM apply of its findings", () => {
  const net = async (name: string, cidr: string | null) =>
    (await a.t.sql<{ id: number }[]>`insert into networks (name, cidr) values (${name}, ${cidr}) returning id`)[0]!.id;

  it("refuses a network without a cidr, an IPv6 one, one over the cap or outside the allowed set (422 naming network_id); 404 for none", async () => {
    const cases: [number, string][] = [
      [await net("no-cidr", null), "has no cidr"],
      [await net("v6", "fd00::/64"), "IPv6"],
      [await net("huge", "10.0.0.0/16"), "at most 4096"],
      [await net("public", "8.8.8.0/24"), "outside the allowed targets"],
    ];
    for (const [id, msg] of cases) {
      const res = await a.req("POST", `ipam/scan/${id}`, a.admin);
      expect(res.status, msg).toBe(422);
      const body = await res.json();
      expect(body.detail[0].loc).toEqual(["path", "network_id"]);
      expect(body.detail[0].msg).toContain(msg);
    }
    expect((await a.req("POST", "ipam/scan/999999", a.admin)).status).toBe(404);
    expect((await a.req("POST", `ipam/scan/${cases[0]![0]}`, a.viewer)).status).toBe(403);
    expect(Number((await a.t.sql`select count(*)::int as n from scan_jobs`)[0]!.n)).toBe(0);
  });

  it("queues an icmp + tcp job over the cidr (409 while open) and its finish marks addresses in use and reports conflicts", async () => {
    const id = await net("lab", "127.0.7.0/29");
    await a.t
      .sql`insert into hardware (name, ip_address, mac_address) values ('lab-switch', '127.0.7.1', 'aa:aa:aa:00:00:01'), ('lab-nas', '127.0.7.6', null)`;
    await a.t.sql`insert into hardware (name, mac_address) values ('spare', 'aa:aa:aa:00:00:09')`;
    await a.t.sql`insert into ip_addresses (address, network_id, status) values ('127.0.7.2', ${id}, 'free')`;
    const res = await a.req("POST", `ipam/scan/${id}`, a.admin);
    expect(res.status, await res.clone().text()).toBe(201);
    const job = await res.json();
    expect(job).toMatchObject({ status: "queued", target_cidr: "127.0.7.0/29", scan_types: ["icmp", "tcp"], addresses_total: 6 });
    expect((await a.req("POST", `ipam/scan/${id}`, a.admin)).status).toBe(409);

    // What the scan found (as the worker records it): .1 from another MAC, .2 (recorded free), .3 from an
    // unknown MAC, .4 without a MAC, .5 from a MAC the inventory knows elsewhere; .6 (lab-nas) is silent.
    const found = (ip: string, mac: string | null, hostname: string | null = null) =>
      a.t
        .sql`insert into scan_results (scan_job_id, ip_address, mac_address, hostname, sources) values (${job.id}, ${ip}, ${mac}, ${hostname}, '["icmp"]')`;
    await found("127.0.7.1", "aa:aa:aa:00:00:99");
    await found("127.0.7.2", null, "printer.lab");
    await found("127.0.7.3", "AA-BB-CC-00-00-03");
    await found("127.0.7.4", null);
    await found("127.0.7.5", "aa:aa:aa:00:00:09");
    await a.t.sql`update scan_jobs set status = 'running' where id = ${job.id}`;
    await finish(job.id);

    const ips = await a.t
      .sql`select address, network_id, status, hostname, mac_address from ip_addresses where network_id = ${id} order by address`;
    expect(ips).toEqual([
      { address: "127.0.7.1", network_id: id, status: "allocated", hostname: null, mac_address: "aa:aa:aa:00:00:99" },
      { address: "127.0.7.2", network_id: id, status: "allocated", hostname: "printer.lab", mac_address: null },
      { address: "127.0.7.3", network_id: id, status: "allocated", hostname: null, mac_address: "aa:bb:cc:00:00:03" },
      { address: "127.0.7.4", network_id: id, status: "allocated", hostname: null, mac_address: null },
      { address: "127.0.7.5", network_id: id, status: "allocated", hostname: null, mac_address: "aa:aa:aa:00:00:09" },
    ]);
    const warnings = await a.t.sql<
      { details: { kind: string; ip_address: string } }[]
    >`select details from scan_logs where scan_job_id = ${job.id} and phase = 'ipam' and level = 'WARNING' order by id`;
    expect(warnings.map((w) => [w.details.kind, w.details.ip_address])).toEqual([
      ["mac_mismatch", "127.0.7.1"],
      ["marked_free", "127.0.7.2"],
      ["unknown_mac", "127.0.7.3"],
      ["no_answer", "127.0.7.6"],
    ]);
    const results = await a.t
      .sql`select ip_address, state, network_id, conflicts from scan_results where scan_job_id = ${job.id} order by ip_address`;
    expect(results.map((r) => [r.ip_address, r.state, r.network_id, r.conflicts.map((c: { kind: string }) => c.kind)])).toEqual([
      ["127.0.7.1", "conflict", id, ["mac_mismatch"]],
      ["127.0.7.2", "conflict", id, ["marked_free"]],
      ["127.0.7.3", "conflict", id, ["unknown_mac"]],
      ["127.0.7.4", "new", id, []],
      ["127.0.7.5", "new", id, []],
    ]);
    const [summary] = await a.t.sql`select message from scan_logs where scan_job_id = ${job.id} and phase = 'ipam' and level = 'INFO'`;
    expect(summary!.message).toBe("IPAM 127.0.7.0/29: 5 addresses in use, 4 recorded, 1 updated, 4 conflicts");
    const [audit] = await a.t.sql`select entity_id, diff from audit_log where action = 'ipam.scan.apply'`;
    expect(audit!.entity_id).toBe(String(id));
    expect(audit!.diff.conflicts).toHaveLength(4);
  });
});
