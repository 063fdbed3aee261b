// GET /logs (filters, paging, the list contract), GET /logs/actions, /admin/recent-changes,
// /admin/user-actions/{id} and DELETE /logs (a new chain starting with the deletion).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmHeaders, createHarness, type Harness, json } from "./harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  // Some changes with before/after diffs, as the settings routes write them.
  for (const n of [6, 7, 8]) {
    const res = await h.call("/api/v1/settings", { method: "PUT", ...json({ lockout_threshold: n }) });
    expect(res.status).toBe(200);
  }
});
afterAll(async () => h.t.close());

describe("GET /logs", () => {
  it("answers the list contract, newest first", async () => {
    const res = await h.call("/api/v1/logs");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ limit: 25, offset: 0, sort: "timestamp", direction: "desc" });
    expect(body.total).toBeGreaterThanOrEqual(5);
    const ids = body.items.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(body.items[0]).toMatchObject({
      action: "settings.updated",
      actor_id: h.adminId,
      actor_email: "admin@example.com",
      role_at_time: "admin",
    });
    expect(body.items[0].log_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("filters by action, actor, level, entity and time, and searches with q", async () => {
    const byAction = await (await h.call("/api/v1/logs?action=settings.updated")).json();
    expect(byAction.total).toBe(3);
    expect(byAction.items.map((e: { diff: { after: { lockout_threshold: number } } }) => e.diff.after.lockout_threshold)).toEqual([
      8, 7, 6,
    ]);
    const byActor = await (await h.call(`/api/v1/logs?actor_id=${h.adminId}&entity_type=settings&level=info`)).json();
    expect(byActor.total).toBe(3);
    const future = await (await h.call("/api/v1/logs?since=2999-01-01")).json();
    expect(future.total).toBe(0);
    const past = await (await h.call("/api/v1/logs?until=2000-01-01T00:00:00Z")).json();
    expect(past.total).toBe(0);
    const all = await (await h.call("/api/v1/logs?since=2000-01-01&until=2999-01-01")).json();
    expect(all.total).toBeGreaterThanOrEqual(5);
    const q = await (await h.call("/api/v1/logs?q=LOCKOUT_thr")).json();
    expect(q.total).toBe(3);
    // Wildcards in q are literal.
    const wild = await (await h.call("/api/v1/logs?q=%25")).json();
    expect(wild.total).toBe(0);
  });

  it("pages, sorts ascending, and clamps limit to 100", async () => {
    const page = await (await h.call("/api/v1/logs?limit=2&offset=1&sort=id&direction=asc")).json();
    expect(page.items).toHaveLength(2);
    expect(page.items[0].id).toBeLessThan(page.items[1].id);
    expect(page).toMatchObject({ limit: 2, offset: 1, sort: "id", direction: "asc" });
    const clamped = await (await h.call("/api/v1/logs?limit=5000")).json();
    expect(clamped.limit).toBe(100);
  });

  it("refuses bad query values with 422 naming the parameter", async () => {
    for (const q of ["limit=0", "limit=abc", "sort=password", "direction=up", "level=debug", "since=yesterday", "actor_id=-1"]) {
      const res = await h.call(`/api/v1/logs?${q}`);
      expect(res.status, q).toBe(422);
      const body = await res.json();
      expect(Object.keys(body.fields), q).toContain(q.split("=")[0]);
    }
  });

  it("is for administrators only", async () => {
    expect((await h.call("/api/v1/logs", { token: "" })).status).toBe(401);
    const viewer = await h.call("/api/v1/logs", { token: h.viewerToken });
    expect(viewer.status).toBe(403);
    expect((await viewer.json()).error_code).toBe("PERMISSION_DENIED");
    expect((await h.call("/api/v1/logs/actions", { token: h.viewerToken })).status).toBe(403);
    expect((await h.call("/api/v1/admin/recent-changes", { token: h.viewerToken })).status).toBe(403);
    expect((await h.call(`/api/v1/admin/user-actions/${h.adminId}`, { token: h.viewerToken })).status).toBe(403);
  });
});

describe("GET /logs/actions", () => {
  it("lists each action once with its count", async () => {
    const body = await (await h.call("/api/v1/logs/actions")).json();
    expect(body.items).toContainEqual({ action: "settings.updated", count: 3 });
    expect(body.items).toContainEqual({ action: "bootstrap.initialize", count: 1 });
    const names = body.items.map((i: { action: string }) => i.action);
    expect(names).toEqual([...names].sort());
    expect(body.total).toBe(names.length);
  });
});

describe("GET /admin/recent-changes", () => {
  it("lists only entries with a before/after diff, newest first", async () => {
    const body = await (await h.call("/api/v1/admin/recent-changes?limit=2")).json();
    // The three settings changes and the creation of the first administrator; no sign-in entries.
    expect(body.total).toBe(4);
    expect(body.items.map((e: { diff: { after: { lockout_threshold: number } } }) => e.diff.after.lockout_threshold)).toEqual([8, 7]);
    expect((await (await h.call("/api/v1/admin/recent-changes?limit=1000")).json()).limit).toBe(100);
  });
});

describe("GET /admin/user-actions/{user_id}", () => {
  it("lists what that user did, newest first", async () => {
    const body = await (await h.call(`/api/v1/admin/user-actions/${h.adminId}`)).json();
    expect(body.items.every((e: { actor_id: number }) => e.actor_id === h.adminId)).toBe(true);
    expect(body.items[0].action).toBe("settings.updated");
    expect(body.items.filter((e: { action: string }) => e.action === "settings.updated")).toHaveLength(3);
  });

  it("answers an empty page for a user with no entries, 404 for an unknown user, 422 for a bad id", async () => {
    const quiet = await (await h.call(`/api/v1/admin/user-actions/${h.viewerId}`)).json();
    // The viewer's sign-in is audited under their id.
    expect(quiet.items.every((e: { actor_id: number }) => e.actor_id === h.viewerId)).toBe(true);
    const missing = await h.call("/api/v1/admin/user-actions/999999");
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toContain("999999");
    expect((await h.call("/api/v1/admin/user-actions/abc")).status).toBe(422);
  });

  it("keeps a deleted user's history readable", async () => {
    await h.t
      .sql`insert into audit_log (timestamp, category, action, actor_id, log_hash) values (now(), 'test', 'test.ghost', 424242, 'x')`;
    const body = await (await h.call("/api/v1/admin/user-actions/424242")).json();
    expect(body.items.map((e: { action: string }) => e.action)).toEqual(["test.ghost"]);
    await h.t.sql`delete from audit_log where actor_id = 424242`;
  });
});

describe("DELETE /logs", () => {
  it("needs the confirmation headers with the backup assertion", async () => {
    const res = await h.call("/api/v1/logs", { method: "DELETE", headers: confirmHeaders("delete-logs", "delete-key-000001") });
    expect(res.status).toBe(428);
  });

  it("deletes every entry and starts a new chain with the deletion", async () => {
    const before = (await h.t.sql<{ n: number }[]>`select count(*)::int as n from audit_log`)[0]!.n;
    const res = await h.call("/api/v1/logs?reason=quarterly%20clean-up", {
      method: "DELETE",
      headers: confirmHeaders("delete-logs", "delete-key-000002", true),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ deleted_count: before, reason: "quarterly clean-up" });
    const rows = await h.t.sql`select action, actor_id, previous_hash, diff from audit_log order by id`;
    expect(rows.map((r) => r.action)).toEqual(["logs.deleted", "confirmation.accepted"]);
    expect(rows[0]).toMatchObject({
      actor_id: h.adminId,
      previous_hash: null,
      diff: { deleted_count: before, reason: "quarterly clean-up" },
    });
    const verify = await (await h.call("/api/v1/admin/audit-log/verify-chain")).json();
    expect(verify).toMatchObject({ valid: true, first_failure_id: null, checked_count: 2 });
  });

  it("takes the reason from the body too, and a replay does not delete again", async () => {
    const headers = { ...confirmHeaders("delete-logs", "delete-key-000003", true), "content-type": "application/json" };
    const first = await h.call("/api/v1/logs", { method: "DELETE", headers, body: JSON.stringify({ reason: "from the body" }) });
    expect((await first.json()).reason).toBe("from the body");
    const again = await h.call("/api/v1/logs", { method: "DELETE", headers, body: JSON.stringify({ reason: "from the body" }) });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const rows = await h.t.sql`select action from audit_log order by id`;
    expect(rows.map((r) => r.action)).toEqual(["logs.deleted", "confirmation.accepted", "confirmation.replayed"]);
    expect((await (await h.call("/api/v1/admin/audit-log/verify-chain")).json()).valid).toBe(true);
  });

  it("refuses a viewer before anything else", async () => {
    const res = await h.call("/api/v1/logs", {
      method: "DELETE",
      token: h.viewerToken,
      headers: confirmHeaders("delete-logs", "delete-key-000004", true),
    });
    expect(res.status).toBe(403);
  });
});
