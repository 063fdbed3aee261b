// POST /hardware/{id}/telemetry/config and /poll, and their /telemetry/... aliases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTelemetryActors, eventually, type TelemetryActors } from "./support.ts";

let a: TelemetryActors;
beforeAll(async () => {
  a = await createTelemetryActors();
});
afterAll(async () => a.t.close());

const config = (id: number, body: unknown, token = a.editor, base = "hardware") =>
  a.req("POST", `${base}/${id}/telemetry/config`, token, body);

describe("config: happy", () => {
  it("sets a configuration with defaults; the community is write-only and never audited in clear", async () => {
    const id = await a.node("cfg-01", "192.0.2.10/24");
    const res = await config(id, { community: "s3cret-community", interval_s: 30 });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      hardware_id: id,
      protocol: "snmp",
      enabled: true,
      host: "192.0.2.10",
      port: 161,
      snmp_version: "v2c",
      community_set: true,
      interval_s: 30,
      options: {},
      last_error: null,
    });
    expect(body).not.toHaveProperty("community");
    expect(JSON.stringify(body)).not.toContain("s3cret");
    const [audit] = await a.t
      .sql`select action, diff::text as diff from audit_log where action like 'telemetry.config.%' and entity_id = ${String(id)}`;
    expect(audit!.action).toBe("telemetry.config.create");
    expect(audit!.diff).not.toContain("s3cret");
    expect(JSON.parse(audit!.diff)).toMatchObject({ before: null, after: { community_set: true }, community_changed: true });
  });

  it("changes only the fields given, on the alias path too, and GET shows the configuration", async () => {
    const id = await a.node("cfg-02");
    expect((await config(id, { host: "127.0.0.1", port: 1161, community: "c", options: { timeout_ms: 500, retries: 0 } })).status).toBe(
      200,
    );
    const res = await config(id, { enabled: false, snmp_version: "v1" }, a.editor, "telemetry");
    expect(await res.json()).toMatchObject({
      enabled: false,
      snmp_version: "v1",
      host: "127.0.0.1",
      port: 1161,
      community_set: true,
      options: { timeout_ms: 500, retries: 0 },
    });
    const cleared = await (await config(id, { community: null })).json();
    expect(cleared.community_set).toBe(false);
    const view = await (await a.req("GET", `hardware/${id}/telemetry`, a.viewer)).json();
    expect(view.config).toMatchObject({ hardware_id: id, enabled: false, community_set: false });
  });

  it("a push configuration needs no host", async () => {
    const id = await a.node("cfg-03");
    expect(await (await config(id, { protocol: "push" })).json()).toMatchObject({ protocol: "push", host: null });
  });
});

describe("config: errors and security", () => {
  it("404 for an unknown node, 422 for bad fields, and for enabled SNMP without any host", async () => {
    expect((await config(515151, { host: "x" })).status).toBe(404);
    const id = await a.node("cfg-e1");
    const bad = await config(id, { interval_s: 5, snmp_version: "v4", community: "", colour: "red" });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).fields).sort()).toEqual(["colour", "community", "interval_s", "snmp_version"]);
    expect((await config(id, { interval_s: 3601 })).status).toBe(422);
    const noHost = await config(id, {});
    expect(noHost.status).toBe(422);
    expect(Object.keys((await noHost.json()).fields)).toEqual(["host"]);
    expect((await a.t.sql`select count(*)::int as n from telemetry_configs where hardware_id = ${id}`)[0]!.n).toBe(0);
  });

  it("needs write:hardware: viewers and telemetry-only tokens get 403", async () => {
    const id = await a.node("cfg-s1", "192.0.2.1");
    for (const token of [a.viewer, a.pusher]) expect((await config(id, { interval_s: 60 }, token)).status).toBe(403);
    expect((await config(id, { interval_s: 60 }, a.admin)).status).toBe(200);
  });
});

describe("poll now", () => {
  it("202 {queued: true} and a NOTIFY on telemetry {hardware_id, action: poll}, on both paths", async () => {
    const id = await a.node("poll-01", "127.0.0.1");
    await config(id, { community: "public" });
    const events = await a.notifications();
    for (const base of ["hardware", "telemetry"]) {
      const res = await a.req("POST", `${base}/${id}/telemetry/poll`, a.editor);
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ queued: true, hardware_id: id });
    }
    await eventually(() => events.payloads.length >= 2);
    expect(events.payloads).toEqual([
      { hardware_id: id, action: "poll" },
      { hardware_id: id, action: "poll" },
    ]);
    await events.stop();
    expect(
      (await a.t.sql`select count(*)::int as n from audit_log where action = 'telemetry.poll.request' and entity_id = ${String(id)}`)[0]!.n,
    ).toBe(2);
  });

  it("409 saying so when the node has no enabled SNMP configuration; 404 for an unknown node", async () => {
    const id = await a.node("poll-02", "127.0.0.1");
    let res = await a.req("POST", `hardware/${id}/telemetry/poll`, a.editor);
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toMatch(/has no telemetry configuration/);
    await config(id, { enabled: false });
    res = await a.req("POST", `hardware/${id}/telemetry/poll`, a.editor);
    expect((await res.json()).detail).toMatch(/SNMP polling disabled/);
    await config(id, { enabled: true, protocol: "push" });
    expect((await a.req("POST", `telemetry/${id}/telemetry/poll`, a.editor)).status).toBe(409);
    expect((await a.req("POST", `hardware/616161/telemetry/poll`, a.editor)).status).toBe(404);
  });

  it("viewers cannot ask for a poll", async () => {
    const id = await a.node("poll-03", "127.0.0.1");
    expect((await a.req("POST", `hardware/${id}/telemetry/poll`, a.viewer)).status).toBe(403);
    expect((await a.req("POST", `hardware/${id}/telemetry/poll`)).status).toBe(401);
  });
});
