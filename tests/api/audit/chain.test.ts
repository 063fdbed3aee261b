// The audit chain through the API: tampering is found by verify-chain and undone by repair-chain
// (which records itself), and parallel writers never fork the chain.
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../shared/db/database.ts";
import * as schema from "../../../shared/db/schema/index.ts";
import { recordRefusal } from "../../../shared/verbs/verb.ts";
import { createHarness, type Harness, json } from "./harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  for (const n of [6, 7, 8, 9])
    expect((await h.call("/api/v1/settings", { method: "PUT", ...json({ lockout_threshold: n }) })).status).toBe(200);
});
afterAll(async () => h.t.close());

const verify = async () => {
  const res = await h.call("/api/v1/admin/audit-log/verify-chain");
  expect(res.status).toBe(200);
  return res.json();
};
const repair = (body: unknown, token?: string) =>
  h.call("/api/v1/admin/audit-log/repair-chain", { method: "POST", ...json(body), ...(token === undefined ? {} : { token }) });
const REASON = "tampering found in the weekly check";

describe("verify and repair", () => {
  it("an untouched chain verifies", async () => {
    const body = await verify();
    expect(body).toMatchObject({ valid: true, first_failure_id: null });
    expect(body.checked_count).toBeGreaterThanOrEqual(5);
  });

  it("an edited diff is found at that entry, and repair makes the chain verify again", async () => {
    const [target] = await h.t.sql<
      { id: number }[]
    >`select id from audit_log where action = 'settings.updated' order by id limit 1 offset 1`;
    await h.t.sql`update audit_log set diff = jsonb_set(diff, '{after,lockout_threshold}', '99') where id = ${target!.id}`;
    const broken = await verify();
    expect(broken).toMatchObject({ valid: false, first_failure_id: Number(target!.id) });
    expect(broken.message).toContain(String(target!.id));

    const res = await repair({ authorization: "REPAIR_AUDIT_CHAIN", reason: REASON });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.first_repaired_id).toBe(Number(target!.id));
    expect(body.repaired_count).toBeGreaterThanOrEqual(1);
    expect(body.verification).toMatchObject({ valid: true, first_failure_id: null });
    expect(await verify()).toMatchObject({ valid: true });

    const [entry] = await h.t.sql`select actor_id, level, diff from audit_log where action = 'audit.chain_repaired'`;
    expect(entry).toMatchObject({ actor_id: h.adminId, level: "critical" });
    expect(entry!.diff).toMatchObject({ reason: REASON, first_repaired_id: Number(target!.id), repaired_count: body.repaired_count });
    expect(entry!.diff.last_repaired_id).toBeGreaterThanOrEqual(Number(target!.id));
  });

  it("an edited action or a broken link is found too", async () => {
    const [last] = await h.t.sql<{ id: number }[]>`select id from audit_log order by id desc limit 1`;
    await h.t.sql`update audit_log set action = 'nothing.happened' where id = ${last!.id}`;
    expect(await verify()).toMatchObject({ valid: false, first_failure_id: Number(last!.id) });
    expect((await repair({ authorization: "REPAIR_AUDIT_CHAIN", reason: REASON })).status).toBe(200);
    const [first] = await h.t.sql<{ id: number }[]>`select id from audit_log order by id limit 1`;
    await h.t.sql`update audit_log set previous_hash = repeat('0', 64) where id = ${first!.id}`;
    const broken = await verify();
    expect(broken).toMatchObject({ valid: false, first_failure_id: Number(first!.id) });
    expect(broken.message).toMatch(/link/);
    const fixed = await (await repair({ authorization: "REPAIR_AUDIT_CHAIN", reason: REASON })).json();
    expect(fixed.first_repaired_id).toBe(Number(first!.id));
    expect(fixed.verification.valid).toBe(true);
  });

  it("repairing a sound chain changes nothing but is still recorded", async () => {
    const body = await (await repair({ authorization: "REPAIR_AUDIT_CHAIN", reason: "routine check, nothing expected" })).json();
    expect(body).toMatchObject({ repaired_count: 0, first_repaired_id: null, verification: { valid: true } });
  });

  it("a wrong authorization literal or a short reason is 422 and repairs nothing", async () => {
    const [target] = await h.t.sql<{ id: number }[]>`select id from audit_log order by id limit 1 offset 2`;
    await h.t.sql`update audit_log set diff = '{"x": 1}' where id = ${target!.id}`;
    const wrong = await repair({ authorization: "repair_audit_chain", reason: REASON });
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).fields).toHaveProperty("authorization");
    const short = await repair({ authorization: "REPAIR_AUDIT_CHAIN", reason: "because" });
    expect(short.status).toBe(422);
    expect((await short.json()).fields).toHaveProperty("reason");
    expect(await verify()).toMatchObject({ valid: false, first_failure_id: Number(target!.id) });
    expect((await repair({ authorization: "REPAIR_AUDIT_CHAIN", reason: REASON })).status).toBe(200);
  });

  it("is for administrators only", async () => {
    expect((await h.call("/api/v1/admin/audit-log/verify-chain", { token: h.viewerToken })).status).toBe(403);
    expect((await repair({ authorization: "REPAIR_AUDIT_CHAIN", reason: REASON }, h.viewerToken)).status).toBe(403);
    expect((await repair({ authorization: "REPAIR_AUDIT_CHAIN", reason: REASON }, "")).status).toBe(401);
  });
});

describe("parallel writers", () => {
  const noForks = async () => {
    const forks = await h.t.sql`select previous_hash, count(*)::int as n from audit_log group by previous_hash having count(*) > 1`;
    expect(forks).toEqual([]);
    const geneses = await h.t.sql`select id from audit_log where previous_hash is null`;
    expect(geneses).toHaveLength(1);
  };

  it("40 parallel failed sign-ins leave one unforked, valid chain", async () => {
    const responses = await Promise.all(
      // One address each: failures are counted per submitted e-mail (docs/adr/0322), so one address would lock after five.
      Array.from({ length: 40 }, (_, i) =>
        h.call("/api/v1/auth/login", {
          method: "POST",
          token: "",
          ...json({ email: `nobody-${i}@example.com`, password: "wrong password" }),
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(40).fill(401));
    expect(await h.t.sql`select 1 from audit_log where action = 'login.failed'`).toHaveLength(40);
    expect(await verify()).toMatchObject({ valid: true });
    await noForks();
  });

  it("40 transactions on 20 connections, each appending entries, leave one unforked, valid chain", async () => {
    const client = postgres(h.t.database.url, { max: 20, onnotice: () => {} });
    try {
      const db = drizzle(client, { schema }) as unknown as Db;
      const deps = h.t.runtime.deps;
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          recordRefusal({
            ctx: { db, clock: deps.clock, random: deps.random, ip: `192.0.2.${i}` },
            input: [
              { action: "test.parallel", category: "test", entity_id: i },
              { action: "test.parallel.second", category: "test", entity_id: i },
            ],
          }),
        ),
      );
    } finally {
      await client.end({ timeout: 1 });
    }
    expect(await h.t.sql`select 1 from audit_log where action like 'test.parallel%'`).toHaveLength(80);
    const body = await verify();
    expect(body.valid).toBe(true);
    await noForks();
  });
});
