// Drift between scans of the same profile (or the same targets): a known node missing, a new open port on
// a matched host, a changed MAC for the same address; each a WARNING log line of the job, an event on
// `discovery`, and an alert that the notification routes turn into deliveries to a sink.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cryptoRandom } from "../../../shared/clock.ts";
import { reportDrift } from "../../../shared/verbs/discovery/results/drift.ts";
import { WRITE_DISCOVERY } from "../../../shared/verbs/discovery/scopes.ts";
import { dispatchAlerts } from "../../../shared/verbs/notifications/dispatch-alerts.ts";
import { defineVerb } from "../../../shared/verbs/verb.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { eventually } from "../agents/support.ts";
import { createDiscoveryActors, type DiscoveryActors } from "./support.ts";

let a: DiscoveryActors;
beforeAll(async () => {
  a = await createDiscoveryActors();
});
afterAll(async () => {
  await a.t.close();
});

// The finish verb of a job calls reportDrift in its transaction; this verb stands in for it.
const finish = defineVerb({ scope: WRITE_DISCOVERY }, async (s, jobId: number) => reportDrift(s, jobId));
const ctx = () => systemContext({ db: a.t.runtime.database.provider.lease().db, clock: a.clock, random: cryptoRandom });
const tcp = (...ports: number[]) => ports.map((port) => ({ port, protocol: "tcp" }));

describe("drift", () => {
  it("reports a missing node, a new port and a changed MAC against the previous scan of the profile, and alerts through the routes", async () => {
    const sink = await (
      await a.req("POST", "notifications/sinks", a.admin, {
        name: "drift-hook",
        provider_type: "webhook",
        provider_config: { url: "http://127.0.0.1:9/hook" },
      })
    ).json();
    const route = await a.req("POST", "notifications/routes", a.admin, {
      sink_id: sink.id,
      alert_severity: "warning",
      event_kinds: ["discovery.drift.*"],
    });
    expect(route.status, await route.clone().text()).toBe(201);

    const h1 = await a.node("drift-1", { ip: "127.0.7.1" });
    const h2 = await a.node("drift-2", { ip: "127.0.7.2" });
    const profile = await a.profile({ targets: ["127.0.7.0/29"] });
    const first = await a.job({ status: "completed", profile_id: profile, targets: ["127.0.7.0/29"], tcp_ports: [22, 443, 8080] });
    await a.result(first, {
      ip_address: "127.0.7.1",
      mac_address: "02:00:00:00:07:01",
      open_ports: tcp(22),
      state: "matched",
      matched_entity_type: "hardware",
      matched_entity_id: h1,
    });
    await a.result(first, { ip_address: "127.0.7.2", state: "matched", matched_entity_type: "hardware", matched_entity_id: h2 });
    await a.result(first, { ip_address: "127.0.7.3", mac_address: "02:00:00:00:07:03" });
    // A later scan of other ground is not compared with.
    const other = await a.job({ status: "completed", targets: ["127.0.8.0/29"] });
    await a.result(other, { ip_address: "127.0.8.1" });

    const second = await a.job({ status: "completed", profile_id: profile, targets: ["127.0.7.0/29"] });
    await a.result(second, {
      ip_address: "127.0.7.1",
      mac_address: "02:00:00:00:07:01",
      open_ports: tcp(22, 443, 8080),
      state: "matched",
      matched_entity_type: "hardware",
      matched_entity_id: h1,
    });
    await a.result(second, { ip_address: "127.0.7.3", mac_address: "02:00:00:00:07:33" });

    const events = await a.listen("discovery");
    await finish({ ctx: ctx(), input: first }); // nothing before it: no drift
    await finish({ ctx: ctx(), input: second });

    const logs = await a.t.sql`select level, phase, message, details from scan_logs where scan_job_id = ${second} order by message`;
    expect(logs.map((l) => l.message)).toEqual([
      `Known host 127.0.7.2 (hardware ${h2}) was not seen by scan ${second}`,
      "MAC of 127.0.7.3 changed from 02:00:00:00:07:03 to 02:00:00:00:07:33",
      `New open ports 443/tcp, 8080/tcp on 127.0.7.1 (hardware ${h1})`,
    ]);
    expect(logs.every((l) => l.level === "WARNING" && l.phase === "drift")).toBe(true);
    expect(await a.t.sql`select id from scan_logs where scan_job_id = ${first}`).toHaveLength(0);

    await eventually(() => events.payloads.filter((p) => p.type === "drift").length === 3);
    expect(events.payloads.filter((p) => p.type === "drift").map((p) => [p.kind, p.ip_address, p.previous_job_id])).toEqual(
      expect.arrayContaining([
        ["missing", "127.0.7.2", first],
        ["new_port", "127.0.7.1", first],
        ["mac_changed", "127.0.7.3", first],
      ]),
    );
    await events.stop();

    const alerts = await a.t
      .sql`select kind, severity, target_type, target_id from notification_alerts where kind like 'discovery.drift.%' order by kind`;
    expect(alerts).toEqual([
      { kind: "discovery.drift.mac_changed", severity: "warning", target_type: null, target_id: null },
      { kind: "discovery.drift.missing", severity: "warning", target_type: "hardware", target_id: h2 },
      { kind: "discovery.drift.new_port", severity: "warning", target_type: "hardware", target_id: h1 },
    ]);
    await dispatchAlerts({ ctx: ctx(), input: { groupingDelayMs: 0, maxAttempts: 1 } });
    const deliveries = await a.t.sql`
      select a.kind, d.sink_id, d.state from notification_deliveries d join notification_alerts a on a.id = d.alert_id
      where a.kind like 'discovery.drift.%' order by a.kind`;
    expect(deliveries).toEqual([
      { kind: "discovery.drift.mac_changed", sink_id: sink.id, state: "pending" },
      { kind: "discovery.drift.missing", sink_id: sink.id, state: "pending" },
      { kind: "discovery.drift.new_port", sink_id: sink.id, state: "pending" },
    ]);
  });

  it("compares a job without a profile with the previous job of the same targets, and a node seen at another address is not missing", async () => {
    const h = await a.node("drift-moved", { ip: "127.0.9.1" });
    const first = await a.job({ status: "completed", targets: ["127.0.9.0/29"] });
    await a.result(first, {
      ip_address: "127.0.9.1",
      state: "matched",
      matched_entity_type: "hardware",
      matched_entity_id: h,
      open_ports: tcp(22),
    });
    const second = await a.job({ status: "completed", targets: ["127.0.9.0/29"] });
    await a.result(second, {
      ip_address: "127.0.9.5",
      state: "conflict",
      matched_entity_type: "hardware",
      matched_entity_id: h,
      open_ports: tcp(22),
    });
    await finish({ ctx: ctx(), input: second });
    expect(await a.t.sql`select message from scan_logs where scan_job_id = ${second}`).toEqual([]);

    // Port 8443 was not in the first scan's list (22, 80): no news. 80 was, and is new.
    const portsJob = await a.job({ status: "completed", targets: ["127.0.9.0/29"] });
    await a.result(portsJob, {
      ip_address: "127.0.9.5",
      state: "conflict",
      matched_entity_type: "hardware",
      matched_entity_id: h,
      open_ports: tcp(22, 80, 8443),
    });
    await finish({ ctx: ctx(), input: portsJob });
    const portLines = await a.t.sql`select message from scan_logs where scan_job_id = ${portsJob}`;
    expect(portLines.map((l) => l.message)).toEqual([`New open port 80/tcp on 127.0.9.5 (hardware ${h})`]);

    const third = await a.job({ status: "completed", targets: ["127.0.9.0/29"] });
    await finish({ ctx: ctx(), input: third });
    const [line] = await a.t.sql`select message from scan_logs where scan_job_id = ${third}`;
    expect(line!.message).toBe(`Known host 127.0.9.5 (hardware ${h}) was not seen by scan ${third}`);

    // The profile's targets changed: a host outside the new ones is not missing.
    const profile = await a.profile({ targets: ["127.0.9.0/29"] });
    const before = await a.job({ status: "completed", profile_id: profile, targets: ["127.0.9.0/29"] });
    await a.result(before, { ip_address: "127.0.9.6", state: "matched", matched_entity_type: "hardware", matched_entity_id: h });
    const narrowed = await a.job({ status: "completed", profile_id: profile, targets: ["127.0.9.0/30"] });
    await finish({ ctx: ctx(), input: narrowed });
    expect(await a.t.sql`select message from scan_logs where scan_job_id = ${narrowed}`).toEqual([]);
  });
});
