// The postgres check against the real PostgreSQL on 127.0.0.1:5432 (user postgres, trust): up with the
// default query and with an expected value, down on a closed port, a refused login, a missing database,
// a query error and a wrong value; an invalid config; a silent peer costs its timeout. pg_hba trusts
// every local connection, so a wrong password cannot be refused: the refused login is a NOLOGIN role.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck } from "../../../net/checks/run-check.ts";
import { closedPort, startSilentPeer, type TcpPeer } from "./peers.ts";

const ROLE = "checksdb_nologin";
const admin = postgres({ host: "127.0.0.1", port: 5432, username: "postgres", database: "postgres", max: 1, onnotice: () => {} });
let silent: TcpPeer;

beforeAll(async () => {
  silent = await startSilentPeer();
  await admin.unsafe(`drop role if exists ${ROLE}`);
  await admin.unsafe(`create role ${ROLE} nologin`);
});
afterAll(async () => {
  await admin.unsafe(`drop role if exists ${ROLE}`);
  await admin.end();
  await silent?.close();
});

const check = (config: Record<string, unknown>, host = "127.0.0.1") => runCheck({ check_type: "postgres", host, config });

describe("postgres check", () => {
  it("is up on a connection and select 1, with its latency sample", async () => {
    const r = await check({});
    expect(r).toMatchObject({ up: true, msg: "connected, query ran" });
    expect(r.samples).toEqual(
      expect.arrayContaining([
        { metric: "avail", value: 1 },
        { metric: "latency_ms", value: r.latency_ms },
      ]),
    );
    expect(r.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it("compares the first column of the first row as text with expected_value", async () => {
    const config = { database: "postgres", username: "postgres", query: "select 41 + 1 as answer, 'x'" };
    expect(await check({ ...config, expected_value: "42" })).toMatchObject({ up: true, msg: 'connected, value "42"' });
    const wrong = await check({ ...config, expected_value: "43" });
    expect(wrong).toMatchObject({ up: false, msg: 'value mismatch: expected "43" got "42"' });
    expect(wrong.latency_ms).not.toBeNull();
    expect(await check({ query: "select true", expected_value: "t" })).toMatchObject({ up: true });
    expect(await check({ query: "select null", expected_value: "x" })).toMatchObject({ msg: 'value mismatch: expected "x" got NULL' });
    expect(await check({ query: "select 1 where false", expected_value: "1" })).toMatchObject({
      msg: 'value mismatch: expected "1" got no rows',
    });
  });

  it("is down saying what failed: login refused, missing database, query error, closed port", async () => {
    const refused = await check({ username: ROLE, database: "postgres" });
    expect(refused.up).toBe(false);
    expect(refused.msg).toMatch(/^auth refused: .*not permitted to log in/);
    expect((await check({ database: "checksdb_no_such_db" })).msg).toMatch(/^database refused: .*checksdb_no_such_db/);
    expect((await check({ query: "select * from checksdb_no_such_table" })).msg).toMatch(/^query error: .*checksdb_no_such_table/);
    const closed = await check({ port: await closedPort() });
    expect(closed).toMatchObject({ up: false, msg: "connect failed: ECONNREFUSED" });
  });

  it("answers an invalid config without connecting", async () => {
    const r = await check({ port: "5432" });
    expect(r).toMatchObject({ up: false, invalid_config: true, msg: "invalid config: config.port must be a number" });
    expect((await check({ tls: "yes" })).invalid_config).toBe(true);
  });

  it("costs a silent server its timeout, then answers timeout", async () => {
    const r = await check({ port: silent.port, timeout: 0.5 });
    expect(r.up).toBe(false);
    expect(r.msg).toMatch(/timeout/);
    expect(silent.accepted).toBeGreaterThan(0);
  });

  it("reaches only what the monitor policy allows", async () => {
    const r = await runCheck(
      { check_type: "postgres", host: "db.lab.test", config: {} },
      { resolve: async () => [{ address: "169.254.169.254", family: 4 }] },
    );
    expect(r.up).toBe(false);
    expect(r.msg).toMatch(/refused by the monitor policy/);
  });
});
