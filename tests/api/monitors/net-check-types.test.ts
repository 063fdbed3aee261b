// The ssh, tls and smtp check types through the API (issue 29 item 2): a monitor of each is created with
// its own keys; a key another type has, and a bad value, are refused with 422 naming the field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

const CA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

describe("ssh, tls and smtp monitors", () => {
  it("creates a monitor of each type with its keys, stored as sent", async () => {
    const bodies = [
      { name: "bastion ssh", check_type: "ssh", host: "10.0.0.5", config: { port: 2222, expected_banner: "OpenSSH", timeout: 3 } },
      {
        name: "site cert",
        check_type: "tls",
        host: "10.0.0.6",
        config: { port: 8443, server_name: "www.example.test", expiry_days: 21, verify_chain: true, verify_hostname: false, ca_pem: CA },
      },
      {
        name: "mail",
        check_type: "smtp",
        host: "10.0.0.7",
        config: { port: 587, ehlo_name: "probe.example.test", starttls: true, expiry_days: 7, server_name: "mail.example.test" },
      },
    ];
    for (const body of bodies) {
      const res = await a.req("POST", "monitors", a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(201);
      const m = await res.json();
      expect(m).toMatchObject({ check_type: body.check_type, host: body.host, config: body.config, status: "pending" });
      const read = await a.req("GET", `monitors/${m.id}`, a.admin);
      expect((await read.json()).config).toEqual(body.config);
    }
  });

  it("refuses a key the type does not have and bad values with 422 naming each, writing nothing", async () => {
    const before = (await a.t.sql`select count(*)::int as n from monitors`)[0]!.n;
    const cases: [Record<string, unknown>, string[]][] = [
      [{ check_type: "ssh", config: { starttls: true } }, ["config.starttls"]],
      [{ check_type: "tls", config: { ehlo_name: "x" } }, ["config.ehlo_name"]],
      [{ check_type: "smtp", config: { url: "http://x/" } }, ["config.url"]],
      [
        { check_type: "tls", config: { expiry_days: -1, ca_pem: "not pem", port: 0 } },
        ["config.ca_pem", "config.expiry_days", "config.port"],
      ],
      [{ check_type: "smtp", config: { ehlo_name: "a\r\nRCPT TO:<x@y>", starttls: "yes" } }, ["config.ehlo_name", "config.starttls"]],
      [{ check_type: "ssh", config: { expected_banner: "x".repeat(256), timeout: 61 } }, ["config.expected_banner", "config.timeout"]],
    ];
    for (const [body, fields] of cases) {
      const res = await a.req("POST", "monitors", a.admin, { name: "bad", host: "h", ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      const err = await res.json();
      expect(Object.keys(err.fields).sort(), JSON.stringify(body)).toEqual(fields);
    }
    expect((await a.t.sql`select count(*)::int as n from monitors`)[0]!.n).toBe(before);
  });
});
