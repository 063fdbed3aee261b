// The redis check against the real Redis on 127.0.0.1:6379: up on PONG, with a key that exists and with
// its expected value; down on a wrong password (an ACL user of this test's own), a missing key, a wrong
// value, a database out of range and a closed port; an invalid config; a silent peer costs its timeout.
// Keys live in database 14 under this test's prefix, and are removed after.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck } from "../../../net/checks/run-check.ts";
import { closedPort, startSilentPeer, type TcpPeer } from "./peers.ts";

const DB = 14;
const PREFIX = `checksdb-test:${process.pid}:`;
const USER = `checksdb-test-${process.pid}`;
const PASSWORD = "s3cret-check";
const admin = new Redis({ host: "127.0.0.1", port: 6379, db: DB, lazyConnect: true });
let silent: TcpPeer;

beforeAll(async () => {
  silent = await startSilentPeer();
  await admin.connect();
  await admin.set(`${PREFIX}state`, "ready");
  await admin.call("ACL", "SETUSER", USER, "on", `>${PASSWORD}`, `~${PREFIX}*`, "+@all");
});
afterAll(async () => {
  await admin.del(`${PREFIX}state`);
  await admin.call("ACL", "DELUSER", USER);
  admin.disconnect();
  await silent?.close();
});

const check = (config: Record<string, unknown>) => runCheck({ check_type: "redis", host: "127.0.0.1", config });

describe("redis check", () => {
  it("is up on PONG, with its latency sample", async () => {
    const r = await check({});
    expect(r).toMatchObject({ up: true, msg: "PONG" });
    expect(r.samples).toEqual(
      expect.arrayContaining([
        { metric: "avail", value: 1 },
        { metric: "latency_ms", value: r.latency_ms },
      ]),
    );
  });

  it("checks that the key exists and, given one, its value", async () => {
    const key = `${PREFIX}state`;
    expect(await check({ database: DB, key })).toMatchObject({ up: true, msg: `PONG, key "${key}" exists` });
    expect(await check({ database: DB, key, expected_value: "ready" })).toMatchObject({ up: true });
    const wrong = await check({ database: DB, key, expected_value: "done" });
    expect(wrong).toMatchObject({ up: false, msg: 'value mismatch: expected "done" got "ready"' });
    expect(wrong.latency_ms).not.toBeNull();
    expect(await check({ database: DB, key: `${PREFIX}missing` })).toMatchObject({
      up: false,
      msg: `key "${PREFIX}missing" does not exist`,
    });
    // Another database does not have it.
    expect((await check({ database: DB - 1, key })).up).toBe(false);
  });

  it("logs in as an ACL user, and is down saying so on a wrong password", async () => {
    expect(await check({ database: DB, username: USER, password: PASSWORD, key: `${PREFIX}state` })).toMatchObject({ up: true });
    const refused = await check({ username: USER, password: "wrong" });
    expect(refused.up).toBe(false);
    expect(refused.msg).toMatch(/^auth refused: WRONGPASS/);
  });

  it("is down on a closed port", async () => {
    expect(await check({ port: await closedPort() })).toMatchObject({ up: false, msg: "connect failed: ECONNREFUSED" });
  });

  it("answers an invalid config without connecting", async () => {
    expect(await check({ database: 16 })).toMatchObject({ invalid_config: true, msg: "invalid config: database must be an integer 0..15" });
    expect(await check({ expected_value: "x" })).toMatchObject({ invalid_config: true, msg: "invalid config: expected_value needs a key" });
    expect(await check({ key: 1 })).toMatchObject({ invalid_config: true });
  });

  it("costs a silent server its timeout, then answers timeout", async () => {
    const r = await check({ port: silent.port, timeout: 0.5 });
    expect(r.up).toBe(false);
    expect(r.msg).toMatch(/timeout/i);
    expect(silent.accepted).toBeGreaterThan(0);
  });
});
