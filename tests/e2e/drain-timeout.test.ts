// The drain's bound (DRAIN_TIMEOUT_S): a write held in flight past it by a lock the test never releases
// in time is cut off, and the process exits 1 instead of waiting for it.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { jsonBody, killAll, type Product, SETUP_TOKEN, startProduct, waitForLockWaiter } from "./helpers.ts";

let database: TestDatabase;
let sql: postgres.Sql;
let p: Product;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 3, onnotice: () => {} });
  p = await startProduct({ DATABASE_URL: database.url, DRAIN_TIMEOUT_S: "1" });
}, 90_000);

afterAll(async () => {
  await killAll();
  await sql?.end({ timeout: 1 });
  await database?.drop();
});

describe("SIGTERM drain past DRAIN_TIMEOUT_S", () => {
  it("cuts the stuck request off and exits 1", async () => {
    const holder = await sql.reserve();
    try {
      await holder`begin`;
      await holder`lock table users in access exclusive mode`;
      const stuck = p
        .fetch("/api/v1/bootstrap/initialize", {
          ...jsonBody({ email: "stuck@example.test", password: "correct horse battery staple", setup_token: SETUP_TOKEN }),
          signal: AbortSignal.timeout(60_000),
        })
        .then((res) => `answered ${res.status}`)
        .catch(() => "cut off");
      await waitForLockWaiter(sql, database.name, p.output);

      expect(await p.stop("SIGTERM", 30_000), p.output()).toBe(1);
      expect(await stuck).toBe("cut off");
      expect(p.output()).toMatch(/"msg":"stopped".*"drained":false,"cut_off":1/);
    } finally {
      await holder`rollback`.catch(() => {});
      holder.release();
    }
  }, 120_000);
});
