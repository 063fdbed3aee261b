// What a monitor may target, checked when it is saved (POST and PATCH /monitors) against the monitor
// policy: loopback and private allowed by default, link-local and cloud metadata refused in every
// notation (the host of any check type, an http check's url, a dns check's resolver), 422 naming the
// field, nothing written; an administrator narrows the policy through PUT /settings monitor_policy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

const METADATA = [
  "169.254.169.254",
  "2852039166",
  "0xa9fea9fe",
  "0xa9.0xfe.0xa9.0xfe",
  "0251.0376.0251.0376",
  "169.254.43518",
  "169.16689662",
  "169.254.169.254.",
  "[::ffff:169.254.169.254]",
  "[::ffff:a9fe:a9fe]",
  "[0:0:0:0:0:ffff:a9fe:a9fe]",
  "[::169.254.169.254]",
  "[fe80::1]",
  "[fd00:ec2::254]",
  "100.100.100.200",
  "169.254.1.1",
  "metadata.google.internal",
  "metadata.google.internal.",
  "0XA9FEA9FE",
];
const count = async () => Number((await a.t.sql<{ n: string }[]>`select count(*) as n from monitors`)[0]!.n);

describe("monitor destinations at save", () => {
  it("refuses every metadata and link-local notation as an http url, naming config.url and not echoing the path", async () => {
    const before = await count();
    for (const host of METADATA) {
      const res = await a.req("POST", "monitors", a.admin, {
        name: "meta",
        check_type: "http",
        host: "example.test",
        config: { url: `http://${host}/latest/meta-data/SECRET` },
      });
      expect(res.status, host).toBe(422);
      const body = await res.json();
      expect(Object.keys(body.fields), host).toEqual(["config.url"]);
      expect(JSON.stringify(body), host).not.toContain("SECRET");
    }
    expect(await count()).toBe(before);
  });

  it("refuses them as the host of tcp, icmp, http and dns checks, and as a dns resolver", async () => {
    for (const check_type of ["tcp", "icmp", "http", "dns"]) {
      for (const host of ["2852039166", "::ffff:a9fe:a9fe", "fe80::1", "metadata.google.internal.", "http://0251.0376.0251.0376/x"]) {
        const res = await a.req("POST", "monitors", a.admin, { name: "meta", check_type, host });
        expect(res.status, `${check_type} ${host}`).toBe(422);
        expect(Object.keys((await res.json()).fields), `${check_type} ${host}`).toEqual(["host"]);
      }
    }
    const dns = await a.req("POST", "monitors", a.admin, {
      name: "r",
      check_type: "dns",
      host: "example.test",
      config: { resolver: "fd00:ec2::254" },
    });
    expect(dns.status).toBe(422);
    expect(Object.keys((await dns.json()).fields)).toEqual(["config.resolver"]);
  });

  it("refuses a name that resolves to metadata or link-local (the API's resolver hook), and keeps one resolving to the LAN", async () => {
    a.t.runtime.deps.resolveHost = async (name) =>
      name === "imds.example.test"
        ? ["169.254.169.254"]
        : name === "ll.example.test"
          ? ["fe80::1"]
          : name === "nas.example.test"
            ? ["192.168.1.9"]
            : [];
    try {
      for (const [check_type, body] of [
        ["tcp", { host: "imds.example.test" }],
        ["http", { host: "nas.example.test", config: { url: "http://imds.example.test/latest/meta-data/" } }],
        ["icmp", { host: "ll.example.test" }],
      ] as const) {
        const res = await a.req("POST", "monitors", a.admin, { name: "named", check_type, ...body });
        expect(res.status, check_type).toBe(422);
        expect(JSON.stringify(await res.json()), check_type).toMatch(/example\.test resolves to a refused address/);
      }
      await a.monitor({ check_type: "tcp", host: "nas.example.test", config: { port: 445 } });
    } finally {
      delete a.t.runtime.deps.resolveHost;
    }
  });

  it("allows loopback and private by default; PATCH is checked too", async () => {
    const local = await a.monitor({ check_type: "tcp", host: "127.0.0.1", config: { port: 5432 } });
    await a.monitor({ check_type: "http", host: "nas.lan", config: { url: "http://192.168.1.5:8080/health" } });
    const patched = await a.req("PATCH", `monitors/${local.id}`, a.admin, { host: "0xa9fea9fe" });
    expect(patched.status).toBe(422);
    expect(Object.keys((await patched.json()).fields)).toEqual(["host"]);
    const [row] = await a.t.sql<{ host: string }[]>`select host from monitors where id = ${local.id}`;
    expect(row!.host).toBe("127.0.0.1");
  });

  it("follows monitor_policy, which PUT /settings validates", async () => {
    const bad = await a.req("PUT", "settings", a.admin, { monitor_policy: { allow_private: true, allow_loopback: "no" } });
    expect(bad.status).toBe(422);
    const linkLocal = await a.req("PUT", "settings", a.admin, {
      monitor_policy: { allow_private: true, allow_loopback: true, allow_link_local: true },
    });
    expect(linkLocal.status).toBe(422);
    const set = await a.req("PUT", "settings", a.admin, { monitor_policy: { allow_private: false, allow_loopback: false } });
    expect(set.status).toBe(200);
    expect((await set.json()).monitor_policy).toEqual({ allow_private: false, allow_loopback: false });
    for (const [host, reason] of [
      ["127.0.0.1", /loopback/],
      ["2130706433", /loopback/],
      ["10.0.0.5", /private/],
    ] as const) {
      const res = await a.req("POST", "monitors", a.admin, { name: "narrow", check_type: "tcp", host });
      expect(res.status, host).toBe(422);
      expect((await res.json()).fields.host, host).toMatch(reason);
    }
    expect((await a.req("PUT", "settings", a.admin, { monitor_policy: null })).status).toBe(200);
    await a.monitor({ check_type: "tcp", host: "127.0.0.1", config: { port: 5432 } });
  });
});
