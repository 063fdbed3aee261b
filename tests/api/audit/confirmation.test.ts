// The destructive-action confirmation helper, through the routes that use it (DELETE /logs needs a
// verified backup, POST /settings/reset does not): 428 listing the headers, denials audited, a
// repeated idempotency key replays the first answer, and a key reused elsewhere is 409.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROLE_SCOPES } from "../../../shared/auth/scopes.ts";
import { ApiError } from "../../../shared/errors.ts";
import type { Actor } from "../../../shared/verbs/actor.ts";
import { runConfirmed } from "../../../shared/verbs/confirm/run-confirmed.ts";
import type { VerbContext } from "../../../shared/verbs/verb-context.ts";
import { defineVerb } from "../../../shared/verbs/verb.ts";
import { confirmHeaders, createHarness, type Harness } from "./harness.ts";
import { changeCredentials } from "../../helpers/app.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.t.close());

const serviceDeps = (): VerbContext => {
  const deps = h.t.runtime.deps;
  return { db: deps.database.lease().db, clock: deps.clock, random: deps.random, ip: null };
};
const adminActor = (): Actor => ({
  userId: h.adminId,
  email: "admin@example.com",
  role: "admin",
  roleScopes: [...ROLE_SCOPES.admin],
  kind: "session",
});
const actions = async (name: string) =>
  (await h.t.sql<{ n: number }[]>`select count(*)::int as n from audit_log where action = ${name}`)[0]!.n;

describe("confirmation headers", () => {
  it("without headers: 428 listing every required header, nothing done, the denial audited", async () => {
    const before = await h.t.sql`select count(*)::int as n from audit_log`;
    const res = await h.call("/api/v1/logs", { method: "DELETE" });
    expect(res.status).toBe(428);
    const body = await res.json();
    expect(body).toMatchObject({
      error_code: "CONFIRMATION_REQUIRED",
      required: ["x-svc-confirmation", "idempotency-key", "x-svc-backup-verified"],
      invalid: ["x-svc-confirmation", "idempotency-key", "x-svc-backup-verified"],
    });
    expect(body.detail).toContain('"delete-logs"');
    const [denied] = await h.t.sql`select actor_id, diff from audit_log where action = 'confirmation.denied' order by id desc limit 1`;
    expect(denied).toMatchObject({ actor_id: h.adminId, diff: { action: "delete-logs" } });
    // The log was not emptied: the old entries and the denial are there.
    const after = await h.t.sql`select count(*)::int as n from audit_log`;
    expect(after[0]!.n).toBe(before[0]!.n + 1);
  });

  it("a wrong action name, a short key or a missing backup assertion each fail alone", async () => {
    const wrongName = await h.call("/api/v1/logs", {
      method: "DELETE",
      headers: confirmHeaders("reset-settings", "key-000000000001", true),
    });
    expect((await wrongName.json()).invalid).toEqual(["x-svc-confirmation"]);
    const shortKey = await h.call("/api/v1/logs", { method: "DELETE", headers: confirmHeaders("delete-logs", "short", true) });
    expect((await shortKey.json()).invalid).toEqual(["idempotency-key"]);
    const noBackup = await h.call("/api/v1/logs", { method: "DELETE", headers: confirmHeaders("delete-logs", "key-000000000002") });
    expect(noBackup.status).toBe(428);
    expect((await noBackup.json()).invalid).toEqual(["x-svc-backup-verified"]);
    const noBackupNeeded = await h.call("/api/v1/settings/reset", { method: "POST", headers: { "x-svc-confirmation": "reset-settings" } });
    expect(await noBackupNeeded.json()).toMatchObject({
      required: ["x-svc-confirmation", "idempotency-key"],
      invalid: ["idempotency-key"],
    });
  });

  it("scope comes first: a viewer is refused with 403 before any confirmation check", async () => {
    const res = await h.call("/api/v1/settings/reset", {
      method: "POST",
      token: h.viewerToken,
      headers: confirmHeaders("reset-settings", "viewer-key-0001"),
    });
    expect(res.status).toBe(403);
    expect(await actions("confirmation.accepted")).toBe(0);
  });
});

describe("idempotency keys", () => {
  it("the same key and action replays the first answer without acting again", async () => {
    await h.t.sql`insert into app_settings (key, value) values ('lockout_threshold', '9') on conflict (key) do update set value = '9'`;
    const headers = confirmHeaders("reset-settings", "reset-key-0000001");
    const first = await h.call("/api/v1/settings/reset", { method: "POST", headers });
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    expect(firstBody.lockout_threshold).toBe(5);
    expect(await actions("settings.reset")).toBe(1);

    // Something changes in between; the replay must not reset it again.
    await h.t.sql`insert into app_settings (key, value) values ('lockout_threshold', '7') on conflict (key) do update set value = '7'`;
    const again = await h.call("/api/v1/settings/reset", { method: "POST", headers });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);
    expect(await actions("settings.reset")).toBe(1);
    expect(await actions("confirmation.replayed")).toBe(1);
    const [stored] = await h.t.sql`select value from app_settings where key = 'lockout_threshold'`;
    expect(stored!.value).toBe(7);
  });

  it("the same key for another action, or by another actor, is 409 and changes nothing", async () => {
    const otherAction = await h.call("/api/v1/logs", {
      method: "DELETE",
      headers: confirmHeaders("delete-logs", "reset-key-0000001", true),
    });
    expect(otherAction.status).toBe(409);
    expect((await otherAction.json()).error_code).toBe("CONFLICT");
    expect(await actions("logs.deleted")).toBe(0);

    // An editor-like second admin reusing the first admin's key.
    await changeCredentials(h.t, () => h.t.sql`update users set role = 'admin' where id = ${h.viewerId}`);
    const otherActor = await h.call("/api/v1/settings/reset", {
      method: "POST",
      token: h.viewerToken,
      headers: confirmHeaders("reset-settings", "reset-key-0000001"),
    });
    await changeCredentials(h.t, () => h.t.sql`update users set role = 'viewer' where id = ${h.viewerId}`);
    expect(otherActor.status).toBe(409);
    expect(await actions("settings.reset")).toBe(1);
    const failed = await h.t.sql`select diff from audit_log where action = 'confirmation.failed'`;
    expect(failed.map((r) => r.diff.status)).toEqual([409, 409]);
  });

  it("two requests racing with one key act once; the other replays", async () => {
    await h.t.sql`insert into app_settings (key, value) values ('lockout_threshold', '11') on conflict (key) do update set value = '11'`;
    const headers = confirmHeaders("reset-settings", "race-key-00000001");
    const [a, b] = await Promise.all([1, 2].map(() => h.call("/api/v1/settings/reset", { method: "POST", headers })));
    expect([a!.status, b!.status]).toEqual([200, 200]);
    expect([a!.headers.get("idempotent-replayed"), b!.headers.get("idempotent-replayed")].sort()).toEqual(["true", null].sort());
    expect(await actions("settings.reset")).toBe(2);
  });

  it("a refused request leaves the key unused", async () => {
    const headers = confirmHeaders("reset-settings", "unused-key-000001");
    const denied = await h.call("/api/v1/settings/reset", { method: "POST", headers: { ...headers, "x-svc-confirmation": "nope" } });
    expect(denied.status).toBe(428);
    const ok = await h.call("/api/v1/settings/reset", { method: "POST", headers });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("idempotent-replayed")).toBeNull();
    const [row] = await h.t.sql`select status, actor_id from idempotency_keys where key = 'unused-key-000001'`;
    expect(row).toMatchObject({ status: 200, actor_id: h.adminId });
  });

  it("an action that fails rolls back with its writes, stores no outcome, and is audited as failed", async () => {
    const ctx = { ...serviceDeps(), actor: adminActor() };
    const header = (name: string) => confirmHeaders("test-action", "failing-key-00001")[name];
    const writes = defineVerb({ scope: "public" }, async (s) => {
      await s.tx.execute(sql`insert into app_settings (key, value) values ('demo_enabled', 'true')`);
      s.audit({ action: "test.wrote", category: "test" });
    });
    const act = async (inner: VerbContext) => {
      // The verb writes (and audits) inside the confirmation's transaction, then fails.
      await writes({ ctx: inner });
      throw new ApiError("VALIDATION_ERROR", "the action failed late");
    };
    const failing = runConfirmed({ ctx, input: { spec: { action: "test-action" }, header, act } });
    await expect(failing).rejects.toMatchObject({ status: 422 });
    expect(await h.t.sql`select 1 from app_settings where key = 'demo_enabled'`).toHaveLength(0);
    expect(await actions("test.wrote")).toBe(0);
    expect(await h.t.sql`select 1 from idempotency_keys where key = 'failing-key-00001'`).toHaveLength(0);
    const [failed] = await h.t.sql`select diff from audit_log where action = 'confirmation.failed' order by id desc limit 1`;
    expect(failed!.diff).toEqual({ action: "test-action", status: 422, error_code: "VALIDATION_ERROR" });

    // The same key then acts normally.
    const ok = await runConfirmed({
      ctx,
      input: { spec: { action: "test-action" }, header, act: async () => ({ status: 201, body: { done: true } }) },
    });
    expect(ok).toEqual({ outcome: { status: 201, body: { done: true } }, replayed: false });
    const verified = await h.call("/api/v1/admin/audit-log/verify-chain");
    expect((await verified.json()).valid).toBe(true);
  });

  it("the accepted entry and the action's own entry commit together, the action's first", async () => {
    const rows = await h.t.sql<
      { action: string }[]
    >`select action from audit_log where action in ('settings.reset', 'confirmation.accepted') order by id`;
    expect(rows.map((r) => r.action).slice(0, 2)).toEqual(["settings.reset", "confirmation.accepted"]);
  });
});
