// snmp, mqtt and docker monitors through the API (issue 29 item 2): each type's secret (the community,
// the broker password, the Engine client key) sealed by the vault, masked on every read, kept when the
// mask is sent back and opened for the runner; bad values and another type's keys are 422 naming each.
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

  it("refuses bad values and another type's keys with 422 naming each, writing nothing", async () => {
    const before = (await a.t.sql`select count(*)::int as n from monitors`)[0]!.n;
    const cases: [Record<string, unknown>, string[]][] = [
      [
        { check_type: "snmp", config: { oid: "sysName.0", operator: "~", version: "v3" } },
        ["config.oid", "config.operator", "config.version"],
      ],
      [{ check_type: "snmp", config: { key: "x" } }, ["config.key"]],
      [
        { check_type: "mqtt", config: { port: 0, tls: "yes", client_id: "x".repeat(129) } },
        ["config.client_id", "config.port", "config.tls"],
      ],
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
