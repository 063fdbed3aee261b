// snmp, mqtt and docker monitors through the API (issue 29 item 2): each type's secret (the community,
// the broker password, the Engine client key) sealed by the vault, masked on every read, kept when the
// mask is sent back and opened for the runner; bad values and another type's keys are 422 naming each.
// SNMPv3's auth and privacy keys likewise, and each v3 rule (a key the level needs, USM's 8 characters,
// a v3 key with v1/v2c) a 422 naming its key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeConfig } from "../../../shared/verbs/monitors/secrets.ts";
import { createMonitorActors, type MonitorActors } from "./support.ts";

let a: MonitorActors;
beforeAll(async () => {
  a = await createMonitorActors();
});
afterAll(async () => a.t.close());

const KEY = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n";
const CERT = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

const CASES = [
  {
    check_type: "snmp",
    secret: "community",
    config: { oid: "1.3.6.1.2.1.1.7.0", version: "v1", community: "c0mmunity-Secret", operator: ">=", expected_value: "64", port: 1161 },
  },
  {
    check_type: "mqtt",
    secret: "password",
    config: {
      tls: true,
      port: 8883,
      username: "probe",
      password: "mq-Secret-1",
      client_id: "m1",
      protocol_version: 5,
      topic: "ups/+/state",
      expected_payload: "online",
    },
  },
  {
    check_type: "docker",
    secret: "client_key",
    config: { container: "web", port: 2376, ca_pem: CERT, client_cert: CERT, client_key: KEY, require_healthy: false, max_restarts: 5 },
  },
] as const;

describe("snmp, mqtt and docker monitors", () => {
  for (const { check_type, secret, config } of CASES) {
    it(`${check_type}: its ${secret} is sealed, masked on every read and opened for the runner`, async () => {
      const value = (config as Record<string, unknown>)[secret] as string;
      const res = await a.req("POST", "monitors", a.admin, { name: `m-${check_type}`, check_type, host: "10.0.0.9", config });
      expect(res.status, await res.clone().text()).toBe(201);
      const m = await res.json();
      expect(m.config).toEqual({ ...config, [secret]: "********", [`${secret}_set`]: true });
      const read = await a.req("GET", `monitors/${m.id}`, a.admin);
      expect(await read.text()).not.toContain(value);
      const row = await a.stored(m.id);
      expect(JSON.stringify(row.config)).not.toContain(value);
      expect(row.secret_config).toMatch(/^vault:v1:/);
      // The whole config sent back (mask and flag included) keeps the secret.
      const back = await a.req("PATCH", `monitors/${m.id}`, a.admin, { config: { ...m.config, port: 1000 } });
      expect(back.status, await back.clone().text()).toBe(200);
      expect(await runtimeConfig(a.t.runtime.deps.vault, await a.stored(m.id))).toMatchObject({ [secret]: value, port: 1000 });
    });
  }

  it("snmp v3: the auth and privacy keys are sealed, masked on every read, kept by the mask and opened for the runner", async () => {
    const config = {
      oid: "1.3.6.1.2.1.1.5.0",
      version: "v3",
      username: "bench",
      security_level: "authPriv",
      auth_protocol: "SHA-256",
      auth_key: "auth-Secret-1",
      priv_protocol: "AES-256-B",
      priv_key: "priv-Secret-2",
    };
    const res = await a.req("POST", "monitors", a.admin, { name: "m-snmp-v3", check_type: "snmp", host: "10.0.0.9", config });
    expect(res.status, await res.clone().text()).toBe(201);
    const m = await res.json();
    expect(m.config).toEqual({ ...config, auth_key: "********", auth_key_set: true, priv_key: "********", priv_key_set: true });
    const read = await a.req("GET", `monitors/${m.id}`, a.admin);
    const text = await read.text();
    expect(text).not.toContain("auth-Secret-1");
    expect(text).not.toContain("priv-Secret-2");
    const row = await a.stored(m.id);
    expect(JSON.stringify(row.config)).not.toMatch(/auth-Secret-1|priv-Secret-2/);
    expect(row.secret_config).toMatch(/^vault:v1:/);
    // Both masks sent back keep both keys; a new privacy key replaces only that one.
    const back = await a.req("PATCH", `monitors/${m.id}`, a.admin, { config: { ...m.config, priv_key: "priv-Secret-3" } });
    expect(back.status, await back.clone().text()).toBe(200);
    expect(await runtimeConfig(a.t.runtime.deps.vault, await a.stored(m.id))).toMatchObject({
      auth_key: "auth-Secret-1",
      priv_key: "priv-Secret-3",
      username: "bench",
    });
    // Down to authNoPriv: the privacy key must go (and goes from the vault too).
    const { priv_key: _k, priv_key_set: _s, priv_protocol: _p, ...authOnly } = m.config;
    const lower = await a.req("PATCH", `monitors/${m.id}`, a.admin, { config: { ...authOnly, security_level: "authNoPriv" } });
    expect(lower.status, await lower.clone().text()).toBe(200);
    const opened = await runtimeConfig(a.t.runtime.deps.vault, await a.stored(m.id));
    expect(opened).toMatchObject({ auth_key: "auth-Secret-1", security_level: "authNoPriv" });
    expect(opened).not.toHaveProperty("priv_key");
  });

  it("snmp v3: each rule is a 422 naming its key, writing nothing", async () => {
    const before = (await a.t.sql`select count(*)::int as n from monitors`)[0]!.n;
    const v3 = { oid: "1.3.6.1.2.1.1.5.0", version: "v3", username: "bench" };
    const cases: [Record<string, unknown>, Record<string, RegExp>][] = [
      // authPriv without a privacy key; authNoPriv without an auth key.
      [{ ...v3, security_level: "authPriv", auth_key: "authpass123" }, { "config.priv_key": /Required for security level authPriv/ }],
      [{ ...v3, security_level: "authNoPriv" }, { "config.auth_key": /Required for security level authNoPriv/ }],
      // Keys USM refuses (shorter than 8), and protocols not offered (MD5, DES).
      [
        { ...v3, security_level: "authPriv", auth_key: "short", priv_key: "1234567", auth_protocol: "MD5", priv_protocol: "DES" },
        {
          "config.auth_key": /at least 8 characters/,
          "config.priv_key": /at least 8 characters/,
          "config.auth_protocol": /Must be one of: SHA, SHA-224, SHA-256, SHA-384, SHA-512/,
          "config.priv_protocol": /Must be one of: AES, AES-256-B, AES-256-R/,
        },
      ],
      [{ ...v3, security_level: "TopSecret" }, { "config.security_level": /Must be one of: noAuthNoPriv, authNoPriv, authPriv/ }],
      // v3 needs a user name and has no community; keys the level does not use are refused.
      [
        { oid: "1.3.6.1.2.1.1.5.0", version: "v3", community: "public" },
        { "config.username": /Required/, "config.community": /Not used with v3/ },
      ],
      [
        { ...v3, auth_key: "authpass123", priv_protocol: "AES" },
        {
          "config.auth_key": /Only with security level authNoPriv or authPriv/,
          "config.priv_protocol": /Only with security level authPriv/,
        },
      ],
      // v3's keys with v2c.
      [
        { oid: "1.3.6.1.2.1.1.5.0", username: "bench", auth_key: "authpass123" },
        { "config.username": /Only with version v3/, "config.auth_key": /Only with version v3/ },
      ],
    ];
    for (const [config, fields] of cases) {
      const res = await a.req("POST", "monitors", a.admin, { name: "bad", host: "h", check_type: "snmp", config });
      expect(res.status, JSON.stringify(config)).toBe(422);
      const err = await res.json();
      expect(Object.keys(err.fields).sort(), JSON.stringify(config)).toEqual(Object.keys(fields).sort());
      for (const [field, msg] of Object.entries(fields)) expect(err.fields[field], field).toMatch(msg);
    }
    // A mask with nothing stored behind it.
    const masked = await a.req("POST", "monitors", a.admin, {
      name: "bad",
      host: "h",
      check_type: "snmp",
      config: { ...v3, security_level: "authNoPriv", auth_key: "********" },
    });
    expect(masked.status).toBe(422);
    expect((await masked.json()).fields).toEqual({ "config.auth_key": expect.stringMatching(/masked but none is stored/) });
    expect((await a.t.sql`select count(*)::int as n from monitors`)[0]!.n).toBe(before);
  });

  it("refuses bad values and another type's keys with 422 naming each, writing nothing", async () => {
    const before = (await a.t.sql`select count(*)::int as n from monitors`)[0]!.n;
    const cases: [Record<string, unknown>, string[]][] = [
      [
        { check_type: "snmp", config: { oid: "sysName.0", operator: "~", version: "v4" } },
        ["config.oid", "config.operator", "config.version"],
      ],
      [{ check_type: "snmp", config: { key: "x" } }, ["config.key"]],
      [
        { check_type: "mqtt", config: { port: 0, tls: "yes", client_id: "x".repeat(129), protocol_version: 3 } },
        ["config.client_id", "config.port", "config.protocol_version", "config.tls"],
      ],
      [{ check_type: "mqtt", config: { protocol_version: "5" } }, ["config.protocol_version"]],
      [
        { check_type: "docker", config: { container: "../etc", max_restarts: -1, require_healthy: 1 } },
        ["config.container", "config.max_restarts", "config.require_healthy"],
      ],
      [{ check_type: "docker", config: { url: "tcp://x:2376" } }, ["config.url"]],
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
