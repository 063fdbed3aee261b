// The mysql check against the real MariaDB on 127.0.0.1:3306 (root, empty password; started here when
// installed but down): up on a PING and with an expected value, down on a wrong password, a missing
// database, a query error, a wrong value and a closed port; an invalid config; a silent peer costs its
// timeout. A user of this test's own, with a password, is created for the login tests and dropped.
import { createConnection } from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck } from "../../../net/checks/run-check.ts";
import { ensureMariadb } from "../../helpers/mariadb.ts";
import { closedPort, startSilentPeer, type TcpPeer } from "./peers.ts";

const USER = "checksdb_test";
const PASSWORD = "s3cret-check";
let silent: TcpPeer;

async function asRoot(statements: string[]): Promise<void> {
  const root = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "" });
  try {
    for (const sql of statements) await root.query(sql);
  } finally {
    await root.end();
  }
}

beforeAll(async () => {
  await ensureMariadb();
  silent = await startSilentPeer();
  await asRoot([
    `DROP USER IF EXISTS '${USER}'@'127.0.0.1'`,
    `CREATE USER '${USER}'@'127.0.0.1' IDENTIFIED BY '${PASSWORD}'`,
    `GRANT SELECT ON mysql.* TO '${USER}'@'127.0.0.1'`,
  ]);
}, 60_000);
afterAll(async () => {
  await asRoot([`DROP USER IF EXISTS '${USER}'@'127.0.0.1'`]);
  await silent?.close();
});

const check = (config: Record<string, unknown>) => runCheck({ check_type: "mysql", host: "127.0.0.1", config });
const asUser = { username: USER, password: PASSWORD };

describe("mysql check", () => {
  it("is up on a login and a PING, with its latency sample", async () => {
    const r = await check({});
    expect(r).toMatchObject({ up: true, msg: "connected, PING answered" });
    expect(r.samples).toEqual(
      expect.arrayContaining([
        { metric: "avail", value: 1 },
        { metric: "latency_ms", value: r.latency_ms },
      ]),
    );
    expect(await check({ ...asUser, database: "mysql" })).toMatchObject({ up: true });
  });

  it("compares the first column of the first row as text with expected_value", async () => {
    const config = { ...asUser, query: "SELECT 41 + 1 AS answer, 'x'" };
    expect(await check({ ...config, expected_value: "42" })).toMatchObject({ up: true, msg: 'connected, value "42"' });
    const wrong = await check({ ...config, expected_value: "43" });
    expect(wrong).toMatchObject({ up: false, msg: 'value mismatch: expected "43" got "42"' });
    expect(wrong.latency_ms).not.toBeNull();
    expect(await check({ query: "SELECT NULL", expected_value: "x" })).toMatchObject({ msg: 'value mismatch: expected "x" got NULL' });
    expect(await check({ query: "SELECT 1 FROM DUAL WHERE 1 = 0", expected_value: "1" })).toMatchObject({
      msg: 'value mismatch: expected "1" got no rows',
    });
  });

  it("is down saying what failed: wrong password, missing database, query error, closed port", async () => {
    const refused = await check({ ...asUser, password: "wrong" });
    expect(refused.up).toBe(false);
    expect(refused.msg).toMatch(/^auth refused: Access denied for user 'checksdb_test'/);
    expect((await check({ ...asUser, database: "checksdb_no_such_db" })).msg).toMatch(/^auth refused: .*checksdb_no_such_db/);
    expect((await check({ database: "checksdb_no_such_db" })).msg).toMatch(/^database refused: Unknown database 'checksdb_no_such_db'/);
    expect((await check({ query: "SELECT * FROM mysql.checksdb_no_such_table" })).msg).toMatch(/^query error: .*checksdb_no_such_table/);
    expect(await check({ port: await closedPort() })).toMatchObject({ up: false, msg: "connect failed: ECONNREFUSED" });
  });

  it("answers an invalid config without connecting", async () => {
    expect(await check({ port: 0 })).toMatchObject({ up: false, invalid_config: true });
    expect(await check({ query: 42 })).toMatchObject({ invalid_config: true, msg: "invalid config: config.query must be a string" });
    expect(await check({ expected_value: "1" })).toMatchObject({
      invalid_config: true,
      msg: "invalid config: expected_value needs a query",
    });
  });

  it("costs a silent server its timeout, then answers timeout", async () => {
    const r = await check({ port: silent.port, timeout: 0.5 });
    expect(r.up).toBe(false);
    expect(r.msg).toMatch(/timeout/i);
    expect(silent.accepted).toBeGreaterThan(0);
  });
});
