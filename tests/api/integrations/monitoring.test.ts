// Monitoring integrations (issue 14 item 1; spec/catalogue.tsv, group integrations) against a fake Uptime Kuma on
// 127.0.0.21: create, test, sync from the status page (monitors, statuses, uptime, events on a change,
// monitors gone at the source removed), a linked node's live-metric rows (source uptime_kuma), the API key
// path through /metrics, and failures (timeout, bad answer, refused key) that record sync_status error
// with a clear sync_error and change nothing else. The API key is never answered.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { kumaTime } from "../../../shared/verbs/integrations/monitoring/kuma-client.ts";
import { parseKumaMetrics } from "../../../shared/verbs/integrations/monitoring/kuma-metrics.ts";
import { FAKE_KUMA_KEY, FAKE_KUMA_SLUG, type FakeKuma, recordedKumaState, startFakeKuma } from "../../helpers/fake-uptime-kuma.ts";
import { type AgentActors, createAgentActors } from "../agents/support.ts";

let a: AgentActors;
let kuma: FakeKuma;
const seen: string[] = [];

async function call(method: string, path: string, body?: unknown, token = a.admin): Promise<{ status: number; body: any }> {
  const res = await a.req(method, path, token, body);
  const text = await res.text();
  seen.push(text);
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function kumaIntegration(fields: Record<string, unknown> = {}): Promise<any> {
  const res = await call("POST", "integrations", {
    type: "uptime_kuma",
    name: `kuma ${Math.random()}`,
    base_url: kuma.url,
    slug: FAKE_KUMA_SLUG,
    ...fields,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const monitorsOf = async (id: number) => (await call("GET", `integrations/${id}/monitors`)).body as any[];
const byName = (list: any[], name: string) => list.find((m) => m.name === name);
const counts = async () =>
  (
    await a.t
      .sql`select (select count(*) from integrations)::int as i, (select count(*) from integration_monitors)::int as m, (select count(*) from integration_monitor_events)::int as e, (select count(*) from hardware_live_metrics)::int as l`
  )[0]!;

beforeAll(async () => {
  a = await createAgentActors();
  kuma = await startFakeKuma();
});
afterAll(async () => {
  await kuma?.close();
  await a?.t.close();
});
beforeEach(() => {
  Object.assign(kuma.state, recordedKumaState());
  kuma.requests.length = 0;
});

describe("monitoring integrations CRUD", () => {
  it("answers the registry with Uptime Kuma's fields and the built-in monitors", async () => {
    const res = await call("GET", "integrations/registry", undefined, a.viewer);
    expect(res.status).toBe(200);
    expect(res.body.map((t: any) => t.type)).toEqual(["uptime_kuma", "native"]);
    expect(res.body[0].config_fields.map((f: any) => [f.name, f.required, f.secret])).toEqual([
      ["base_url", true, false],
      ["slug", false, false],
      ["api_key", false, true],
    ]);
  });

  it("creates (201), reads, lists, changes and deletes an integration; the API key is sealed and never answered", async () => {
    const created = await kumaIntegration({ api_key: FAKE_KUMA_KEY, sync_interval_s: 120 });
    expect(created).toMatchObject({
      type: "uptime_kuma",
      base_url: kuma.url,
      slug: FAKE_KUMA_SLUG,
      sync_interval_s: 120,
      enabled: true,
      sync_status: "never",
      sync_error: null,
      monitor_count: 0,
      api_key_set: true,
    });
    expect(created).not.toHaveProperty("api_key");
    const [row] = await a.t.sql`select api_key from integrations where id = ${created.id}`;
    expect(row!.api_key).toMatch(/^vault:v1:/);

    const list = await call("GET", "integrations?sort=name", undefined, a.viewer);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ limit: 25, offset: 0, sort: "name", direction: "asc" });
    expect(list.body.items.some((i: any) => i.id === created.id)).toBe(true);

    const patched = await call("PATCH", `integrations/${created.id}`, { name: "Kuma renamed", api_key: null, slug: "other" });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "Kuma renamed", api_key_set: false, slug: "other" });
    expect((await call("GET", `integrations/${created.id}`, undefined, a.viewer)).body.name).toBe("Kuma renamed");

    expect((await a.req("DELETE", `integrations/${created.id}`, a.admin)).status).toBe(204);
    const gone = await call("GET", `integrations/${created.id}`);
    expect(gone).toMatchObject({ status: 404, body: { detail: "Integration not found" } });
    expect(seen.join("\n")).not.toContain(FAKE_KUMA_KEY);
  });

  it("refuses bad input without writing: unknown type 400, bad fields 422 naming them", async () => {
    const before = await counts();
    const unknown = await call("POST", "integrations", { type: "zabbix", name: "z", base_url: kuma.url });
    expect(unknown).toMatchObject({ status: 400, body: { detail: "Unknown integration type" } });
    const cases: [Record<string, unknown>, string][] = [
      [{ base_url: "http://169.254.169.254/" }, "base_url"],
      [{ base_url: "ftp://kuma.lan/" }, "base_url"],
      [{ base_url: null }, "base_url"],
      [{ sync_interval_s: 5 }, "sync_interval_s"],
      [{ slug: "a/b" }, "slug"],
      [{ name: "" }, "name"],
      [{ colour: "red" }, "colour"],
    ];
    for (const [fields, field] of cases) {
      const res = await call("POST", "integrations", { type: "uptime_kuma", name: "k", base_url: kuma.url, ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(JSON.stringify(res.body.detail), JSON.stringify(fields)).toContain(field);
    }
    const id = (await kumaIntegration()).id;
    const badPatch = await call("PATCH", `integrations/${id}`, { base_url: "http://[fe80::1]/" });
    expect(badPatch.status).toBe(422);
    expect(JSON.stringify(badPatch.body.detail)).toContain("base_url");
    expect((await call("GET", `integrations/${id}`)).body.base_url).toBe(kuma.url);
    expect((await counts()).i).toBe(before.i + 1);
  });

  it("needs a caller (401) with write:integrations (403); reads are open to viewers", async () => {
    expect((await a.req("GET", "integrations")).status).toBe(401);
    expect((await a.req("POST", "integrations", undefined, { type: "uptime_kuma", name: "x", base_url: kuma.url })).status).toBe(401);
    expect((await a.req("POST", "integrations", a.viewer, { type: "uptime_kuma", name: "x", base_url: kuma.url })).status).toBe(403);
    expect((await a.req("POST", "integrations", a.editor, { type: "uptime_kuma", name: "x", base_url: kuma.url })).status).toBe(403);
    const id = (await kumaIntegration()).id;
    expect((await a.req("POST", `integrations/${id}/sync`, a.viewer)).status).toBe(403);
    expect((await a.req("POST", `integrations/${id}/test`, a.viewer)).status).toBe(403);
    expect((await a.req("DELETE", `integrations/${id}`, a.viewer)).status).toBe(403);
    expect((await a.req("GET", `integrations/${id}/monitors`, a.viewer)).status).toBe(200);
    expect((await a.req("GET", "integrations/999999/monitors", a.viewer)).status).toBe(404);
  });
});

describe("test and sync against Uptime Kuma", () => {
  it("tests the connection: ok, and a missing status page as {ok: false} with 200", async () => {
    const id = (await kumaIntegration()).id;
    expect(await call("POST", `integrations/${id}/test`)).toMatchObject({
      status: 200,
      body: { ok: true, message: "Connection successful" },
    });
    await call("PATCH", `integrations/${id}`, { slug: "nope" });
    const missing = await call("POST", `integrations/${id}/test`);
    expect(missing.status).toBe(200);
    expect(missing.body).toMatchObject({ ok: false });
    expect(missing.body.message).toContain("no status page");
  });

  it("syncs the status page: monitors, statuses, uptime; a change is an event; a linked node gets live-metric rows; a removed monitor goes", async () => {
    const integ = await kumaIntegration();
    const synced = await call("POST", `integrations/${integ.id}/sync`);
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({ sync_status: "ok", sync_error: null, monitor_count: 3 });
    expect(new Date(synced.body.next_sync_at).getTime() - new Date(synced.body.last_synced_at).getTime()).toBe(60_000);

    let monitors = await monitorsOf(integ.id);
    expect(monitors.map((m) => m.name)).toEqual(["NAS", "Proxmox UI", "Router DNS"]);
    expect(byName(monitors, "Proxmox UI")).toMatchObject({
      external_id: "1",
      status: "up",
      url: "https://pve1.lan:8006",
      uptime_30d: 99.875,
      avg_response_ms: 42,
      last_heartbeat_at: "2026-11-25T02:01:00.118Z",
      is_native: false,
      integration_name: integ.name,
    });
    expect(byName(monitors, "NAS")).toMatchObject({ external_id: "2", status: "down", uptime_30d: 97, url: null });
    expect(byName(monitors, "Router DNS")).toMatchObject({ status: "pending", uptime_30d: null });

    // Link NAS to a node and a service.
    const node = await a.node("nas-node");
    const nas = byName(monitors, "NAS");
    const linked = await call("PATCH", `integrations/${integ.id}/monitors/${nas.id}`, { linked_hardware_id: node });
    expect(linked).toMatchObject({ status: 200, body: { id: nas.id, linked_hardware_id: node, linked_service_id: null } });
    expect((await call("PATCH", `integrations/${integ.id}/monitors/${nas.id}`, { linked_hardware_id: 999999 })).body.detail).toBe(
      "Hardware asset not found",
    );
    expect((await call("PATCH", `integrations/${integ.id}/monitors/999999`, { linked_hardware_id: node })).body.detail).toBe(
      "Monitor not found",
    );
    expect((await call("PATCH", `integrations/${integ.id}/monitors/${nas.id}`, { linked_hardware_id: "x" })).status).toBe(422);

    await call("POST", `integrations/${integ.id}/sync`);
    const rows1 = await a.t.sql`select status, source from hardware_live_metrics where hardware_id = ${node}`;
    expect(rows1).toEqual([{ status: "down", source: "uptime_kuma" }]);
    expect((await a.t.sql`select count(*)::int as n from integration_monitor_events`)[0]!.n).toBe(0);

    // NAS comes back up: one event down → up, and an "up" live-metric row.
    kuma.setStatus(2, 1, "2026-11-25 02:05:00.000");
    await call("POST", `integrations/${integ.id}/sync`);
    monitors = await monitorsOf(integ.id);
    expect(byName(monitors, "NAS").status).toBe("up");
    const rows2 = await a.t
      .sql`select status from hardware_live_metrics where hardware_id = ${node} and source = 'uptime_kuma' order by id`;
    expect(rows2.map((r) => r.status)).toEqual(["down", "up"]);
    const events = await call("GET", `integrations/${integ.id}/monitors/${nas.id}/events`, undefined, a.viewer);
    expect(events.status).toBe(200);
    expect(events.body).toMatchObject({
      total: 1,
      items: [{ monitor_id: nas.id, previous_status: "down", new_status: "up", reason: null }],
    });

    // An operator explains the outage.
    const eventId = events.body.items[0].id;
    const reasoned = await call("PATCH", `integrations/monitors/events/${eventId}`, { reason: "NAS firmware update" });
    const [admin] = await a.t.sql`select id from users where email = 'admin@example.com'`;
    expect(reasoned).toMatchObject({ status: 200, body: { id: eventId, reason: "NAS firmware update", reason_by: admin!.id } });
    expect(reasoned.body.reason_at).not.toBeNull();
    expect((await call("PATCH", "integrations/monitors/events/999999", { reason: "x" })).body.detail).toBe("Event not found");
    expect((await call("PATCH", `integrations/monitors/events/${eventId}`, { reason: "x", extra: 1 })).status).toBe(422);
    expect((await a.req("PATCH", `integrations/monitors/events/${eventId}`, a.viewer, { reason: "x" })).status).toBe(403);

    // Router DNS is taken off the status page: its row goes.
    kuma.removeMonitor(3);
    const after = await call("POST", `integrations/${integ.id}/sync`);
    expect(after.body.monitor_count).toBe(2);
    expect((await monitorsOf(integ.id)).map((m) => m.name)).toEqual(["NAS", "Proxmox UI"]);

    const all = await call("GET", "integrations/monitors", undefined, a.viewer);
    expect(all.status).toBe(200);
    expect(all.body.filter((m: any) => m.integration_id === integ.id)).toHaveLength(2);
  });

  it("with an API key also reads /metrics (basic auth, key as password): response time, certificate days, status", async () => {
    const integ = await kumaIntegration({ api_key: FAKE_KUMA_KEY });
    const synced = await call("POST", `integrations/${integ.id}/sync`);
    expect(synced.body).toMatchObject({ sync_status: "ok", monitor_count: 3 });
    const metricsCall = kuma.requests.find((r) => r.path === "/metrics");
    expect(metricsCall?.authorization).toBe(`Basic ${Buffer.from(`:${FAKE_KUMA_KEY}`).toString("base64")}`);
    const monitors = await monitorsOf(integ.id);
    expect(byName(monitors, "Proxmox UI")).toMatchObject({ avg_response_ms: 43, cert_expiry_days: 41, status: "up" });
    expect(byName(monitors, "NAS")).toMatchObject({ status: "down", avg_response_ms: 2 });
    // "Backup job" is on no status page and 1.23's metrics name no monitor id: not imported.
    expect(byName(monitors, "Backup job")).toBeUndefined();
    expect(seen.join("\n")).not.toContain(FAKE_KUMA_KEY);
  });

  it("reads Uptime Kuma 2.0's /metrics by monitor_id, importing a monitor that is on no status page", async () => {
    kuma.state.metrics = readFileSync(join(import.meta.dirname, "../../fixtures/uptime-kuma/metrics-2.0.txt"), "utf8");
    const integ = await kumaIntegration({ api_key: FAKE_KUMA_KEY });
    expect((await call("POST", `integrations/${integ.id}/sync`)).body).toMatchObject({ sync_status: "ok", monitor_count: 4 });
    const monitors = await monitorsOf(integ.id);
    expect(byName(monitors, "Backup job")).toMatchObject({ external_id: "7", status: "up", avg_response_ms: 0, uptime_30d: null });
    expect(byName(monitors, "Proxmox UI")).toMatchObject({ external_id: "1", cert_expiry_days: 41 });
  });

  it("parses the recordings: metrics by label, -1 response time as none, heartbeat times as UTC; refuses what is not Prometheus text", () => {
    const parsed = parseKumaMetrics(readFileSync(join(import.meta.dirname, "../../fixtures/uptime-kuma/metrics.txt"), "utf8"));
    expect(parsed.find((m) => m.name === "NAS")).toEqual({
      id: null,
      name: "NAS",
      url: "https://",
      status: "down",
      response_ms: null,
      cert_days: null,
    });
    expect(parsed.find((m) => m.name === "Proxmox UI")).toMatchObject({
      status: "up",
      response_ms: 43,
      cert_days: 41,
      url: "https://pve1.lan:8006",
    });
    expect(parsed.map((m) => m.name).sort()).toEqual(["Backup job", "NAS", "Proxmox UI", "Router DNS"]);
    expect(() => parseKumaMetrics('monitor_status{monitor_name="x" 1\n')).toThrow(/not Prometheus text/);
    expect(kumaTime("2026-11-25 02:01:00.118")?.toISOString()).toBe("2026-11-25T02:01:00.118Z");
    expect(kumaTime("2026-11-25T02:01:00+01:00")?.toISOString()).toBe("2026-11-25T01:01:00.000Z");
    expect(kumaTime("garbage")).toBeNull();
  });

  it("a refused key, a bad answer and a timeout each record sync_status error with a clear sync_error and change nothing else", {
    timeout: 30_000,
  }, async () => {
    const integ = await kumaIntegration({ api_key: "uk1_wrong" });
    const refused = await call("POST", `integrations/${integ.id}/sync`);
    expect(refused.body).toMatchObject({
      sync_status: "error",
      sync_error: "Uptime Kuma refused the API key on /metrics (HTTP 401).",
      last_synced_at: null,
      monitor_count: 0,
    });

    await call("PATCH", `integrations/${integ.id}`, { api_key: null });
    await call("POST", `integrations/${integ.id}/sync`);
    const before = { counts: await counts(), monitors: await monitorsOf(integ.id) };
    expect(before.monitors).toHaveLength(3);

    kuma.state.garbage = { status: 200, body: "<html>captive portal</html>" };
    const bad = await call("POST", `integrations/${integ.id}/sync`);
    expect(bad.body).toMatchObject({ sync_status: "error", sync_error: "Uptime Kuma's status page answer is not JSON.", monitor_count: 3 });
    expect(bad.body.sync_error).not.toContain("captive");

    kuma.state.garbage = { status: 502, body: "Bad Gateway" };
    expect((await call("POST", `integrations/${integ.id}/sync`)).body.sync_error).toBe(
      "Uptime Kuma answered HTTP 502 for the status page.",
    );

    kuma.state.garbage = null;
    kuma.state.delayMs = 12_000;
    const slow = await call("POST", `integrations/${integ.id}/sync`);
    expect(slow.body.sync_status).toBe("error");
    expect(slow.body.sync_error).toMatch(/did not answer within 10000 ms/);

    expect(await counts()).toEqual(before.counts);
    expect(await monitorsOf(integ.id)).toEqual(before.monitors);
  });

  it("an address the outbound policy refuses is a sync error, not a request", async () => {
    const integ = await kumaIntegration();
    await a.t
      .sql`update app_settings set value = ${a.t.sql.json({ allow_private: true, allow_loopback: false, allow_link_local: false })} where key = 'outbound_policy'`;
    try {
      const res = await call("POST", `integrations/${integ.id}/sync`);
      expect(res.body.sync_status).toBe("error");
      expect(kuma.requests).toHaveLength(0);
    } finally {
      await a.t
        .sql`update app_settings set value = ${a.t.sql.json({ allow_private: true, allow_loopback: true, allow_link_local: false })} where key = 'outbound_policy'`;
    }
  });
});
