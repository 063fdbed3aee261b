// The privacy and threat analysis over an inventory whose hardware carries open ports (scan results
// matched to it): the score, deductions, checks, alerts, attack surface and threat profile; the
// notifications of new findings, once per rule and device; ignores; the disabled feature; refusals.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrivacyActors, type PrivacyActors } from "./support.ts";

let a: PrivacyActors;
let gw: number;
let nas: number;
let cam: number;
let srv: number;

beforeAll(async () => {
  a = await createPrivacyActors();
});
afterAll(async () => {
  await a?.t.close();
});

describe("before the first snapshot", () => {
  it("answers empty shapes with 200", async () => {
    expect(await a.get("network/privacy-score")).toEqual({
      status: 200,
      body: {
        enabled: true,
        score: null,
        grade: null,
        deductions: [],
        ignored: [],
        checks: [],
        checked_at: null,
        snapshot_id: null,
        trigger: null,
        history: [],
      },
    });
    expect(await a.get("network/threat-alerts")).toEqual({
      status: 200,
      body: { enabled: true, status: "unknown", alerts: [], checked_at: null },
    });
    expect(await a.get("network/privacy-score/history")).toEqual({ status: 200, body: { enabled: true, days: [] } });
    expect(await a.get("network/attack-surface")).toEqual({ status: 200, body: { enabled: true, attack_surface: [] } });
    expect(await a.get("privacy-findings/ignores")).toEqual({ status: 200, body: { ignores: [] } });
  });
});

describe("a snapshot of the inventory", () => {
  beforeAll(async () => {
    gw = await a.device("edge-router", "10.1.0.1", "router", [{ port: 23 }, { port: 80, service: "http", http_title: "Router Login" }]);
    nas = await a.device("nas", "10.1.0.2", "nas", [{ port: 21, banner: "220 ProFTPD Server" }, { port: 445 }]);
    cam = await a.device("camera", "10.1.0.3", null, [{ port: 80, service: "http", http_title: "NETSurveillance WEB" }]);
    srv = await a.device("server", "10.1.0.4", "server", [{ port: 22, service: "ssh", banner: "SSH-2.0-OpenSSH_9.6" }]);
    await a.device("unscanned", "10.1.0.5", null);
  });

  it("scores 100 minus the deductions, gateways weighted and escalated", async () => {
    const out = await a.refresh();
    expect(out).toMatchObject({ enabled: true, score: 39, grade: "F", findings: 5, new_findings: 5 });
    const { status, body } = await a.get("network/privacy-score");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      enabled: true,
      score: 39,
      grade: "F",
      critical_count: 2,
      warning_count: 3,
      info_count: 0,
      trigger: "manual",
      ignored: [],
    });
    const ded = body.deductions.map((d: any) => [d.rule_id, d.hardware_id, d.points, d.severity]);
    expect(ded).toEqual([
      ["telnet_open", gw, 22.5, "critical"],
      ["default_credentials", cam, 15, "critical"],
      ["ftp_open", nas, 8, "warning"],
      ["smb_open", nas, 8, "warning"],
      ["gateway_admin_http", gw, 7.5, "warning"],
    ]);
    expect(body.deductions[0]).toMatchObject({
      title: "Telnet is open",
      remediation_id: "disable_telnet",
      category: "remote_access",
      hardware_name: "edge-router",
      gateway: true,
      ports: [23],
    });
    expect(body.deductions[0].evidence).toBe("Telnet reachable at 23/tcp on 10.1.0.1");
    expect(body.checks.find((c: any) => c.check_id === "dns_filtering")).toMatchObject({ status: "unknown" });
    expect(body.checks.find((c: any) => c.check_id === "port_scan_coverage")).toMatchObject({
      status: "info",
      evidence: "4 of 5 device(s) have been port-scanned.",
    });
    expect(body.checks.find((c: any) => c.check_id === "rdp_open")).toMatchObject({ status: "ok" });
    expect(body.history).toEqual([{ score: 39, at: body.checked_at }]);
  });

  it("hands each new warning or critical finding to the notification routes once", async () => {
    const alerts = await a.alerts();
    expect(alerts.map((x) => [x.kind, x.severity, x.target_id, x.title])).toEqual([
      ["privacy.finding", "critical", gw, "Telnet is open on edge-router"],
      ["privacy.finding", "critical", cam, "Device known for default credentials on camera"],
      ["privacy.finding", "warning", nas, "FTP is open on nas"],
      ["privacy.finding", "warning", nas, "SMB / NetBIOS file sharing is open on nas"],
      ["privacy.finding", "warning", gw, "Gateway admin page over plain HTTP on edge-router"],
    ]);
    expect(alerts[0]!.detail).toMatchObject({
      rule_id: "telnet_open",
      hardware_id: gw,
      check_id: `telnet_open:hw-${gw}`,
      remediation_id: "disable_telnet",
    });
    // The same findings again: nothing new to say.
    expect((await a.refresh()).new_findings).toBe(0);
    expect(await a.alerts()).toHaveLength(5);
    // A new risky port on the server is new: one alert, for it alone.
    await a.rescan(srv, "10.1.0.4", [{ port: 22, service: "ssh" }, { port: 6379 }]);
    expect(await a.refresh()).toMatchObject({ new_findings: 1, score: 29 });
    const after = await a.alerts();
    expect(after).toHaveLength(6);
    expect(after[5]).toMatchObject({ kind: "privacy.finding", severity: "warning", target_id: srv, title: "Redis is reachable on server" });
  });

  it("keeps when a finding was first detected", async () => {
    const first = (await a.get("network/privacy-score")).body.deductions.find((d: any) => d.rule_id === "telnet_open").detected_at;
    a.clock.advance(3_600_000);
    await a.refresh();
    const { body } = await a.get("network/privacy-score");
    expect(body.deductions.find((d: any) => d.rule_id === "telnet_open").detected_at).toBe(first);
    expect(body.checked_at).not.toBe(first);
  });

  it("lists warning and critical checks as threat alerts, critical first", async () => {
    const { status, body } = await a.get("network/threat-alerts");
    expect(status).toBe(200);
    expect(body.status).toBe("critical");
    expect(body.alerts.map((x: any) => [x.check_id, x.severity])).toEqual([
      [`default_credentials:hw-${cam}`, "critical"],
      [`telnet_open:hw-${gw}`, "critical"],
      [`ftp_open:hw-${nas}`, "warning"],
      [`gateway_admin_http:hw-${gw}`, "warning"],
      [`redis_exposed:hw-${srv}`, "warning"],
      [`smb_open:hw-${nas}`, "warning"],
    ]);
    expect(body.alerts[1].detail).toBe("Telnet is open: Telnet reachable at 23/tcp on 10.1.0.1");
  });

  it("lists the attack surface: every node with open ports, as the newest port scan saw them", async () => {
    const { body } = await a.get("network/attack-surface");
    const rows = body.attack_surface.map((r: any) => [r.hardware_id, r.name, r.ip_address, r.ports.map((p: any) => p.port)]);
    expect(rows).toEqual([
      [gw, "edge-router", "10.1.0.1", [23, 80]],
      [nas, "nas", "10.1.0.2", [21, 445]],
      [cam, "camera", "10.1.0.3", [80]],
      [srv, "server", "10.1.0.4", [22, 6379]],
    ]);
    expect(JSON.parse(body.attack_surface[0].open_ports_json)).toEqual(body.attack_surface[0].ports);
    expect(body.attack_surface[0]).toMatchObject({ role: "router", custom_icon: null });
  });

  it("answers a device's threat profile, and 404 for unknown hardware", async () => {
    expect(await a.get(`devices/${gw}/threat-profile`)).toMatchObject({
      status: 200,
      body: { hardware_id: gw, name: "edge-router", score: 70, grade: "C", ignored: [] },
    });
    const { body } = await a.get(`devices/${gw}/threat-profile`);
    expect(body.deductions.map((d: any) => d.rule_id)).toEqual(["telnet_open", "gateway_admin_http"]);
    expect(await a.get(`devices/${srv}/threat-profile`)).toMatchObject({ body: { score: 90, grade: "A" } });
    const missing = await a.get("devices/999999/threat-profile");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error_code: "RESOURCE_NOT_FOUND", detail: "Hardware 999999 was not found." });
    expect((await a.get("devices/abc/threat-profile")).status).toBe(422);
    // A node added after the newest snapshot has not been analysed: no score yet, not a clean 100.
    a.clock.advance(1000);
    const fresh = await a.device("fresh", "10.1.0.9", null, [{ port: 23 }]);
    expect((await a.get(`devices/${fresh}/threat-profile`)).body).toMatchObject({
      hardware_id: fresh,
      score: null,
      grade: null,
      deductions: [],
    });
    await a.t.sql`delete from hardware where id = ${fresh}`;
  });
});

describe("ignores", () => {
  const post = (body: unknown, token = a.admin) => a.req("POST", "privacy-findings/ignore", token, body);
  const del = (query: string, token = a.admin) => a.req("DELETE", `privacy-findings/ignore?${query}`, token);
  const score = async () => (await a.get("network/privacy-score")).body;

  it("refuses a viewer, an editor, an unknown rule, unknown hardware and unknown fields, changing nothing", async () => {
    expect((await post({ rule_id: "ftp_open", hardware_id: nas }, a.viewer)).status).toBe(403);
    expect((await post({ rule_id: "ftp_open", hardware_id: nas }, a.editor)).status).toBe(403);
    const bad = await post({ rule_id: "no_such_rule", hardware_id: null });
    expect(bad.status).toBe(422);
    const badBody = await bad.json();
    expect(badBody.error_code).toBe("VALIDATION_ERROR");
    expect(badBody.fields.rule_id).toMatch(/^Unknown privacy rule "no_such_rule"\. Known rules: telnet_open, /);
    const missing = await post({ rule_id: "ftp_open", hardware_id: 999999 });
    expect([missing.status, (await missing.json()).detail]).toEqual([404, "Hardware 999999 was not found."]);
    expect((await post({ rule_id: "ftp_open", hardware_id: nas, extra: 1 })).status).toBe(422);
    expect((await post({ rule_id: "ftp_open", hardware_id: "nas" })).status).toBe(422);
    expect((await post({})).status).toBe(422);
    expect((await a.get("privacy-findings/ignores")).body).toEqual({ ignores: [] });
    expect((await del("rule_id=ftp_open", a.viewer)).status).toBe(403);
    expect((await del("rule_id=nope")).status).toBe(422);
    expect((await del("rule_id=ftp_open&hardware_id=x")).status).toBe(422);
  });

  it("ignores a rule on one device (idempotent), which leaves the score, counts and alerts", async () => {
    const before = await score();
    for (let i = 0; i < 2; i++) {
      const res = await post({ rule_id: "ftp_open", hardware_id: nas });
      expect([res.status, await res.json()]).toEqual([201, { ok: true }]);
    }
    expect((await a.get("privacy-findings/ignores")).body).toEqual({ ignores: [{ rule_id: "ftp_open", hardware_id: nas }] });
    const after = await score();
    expect(after.score).toBe(before.score + 8);
    expect(after.warning_count).toBe(before.warning_count - 1);
    expect(after.deductions.some((d: any) => d.rule_id === "ftp_open")).toBe(false);
    expect(after.ignored.map((d: any) => d.check_id)).toEqual([`ftp_open:hw-${nas}`]);
    expect(after.checks.find((c: any) => c.check_id === `ftp_open:hw-${nas}`)).toMatchObject({ ignored: true });
    expect((await a.get("network/threat-alerts")).body.alerts.some((x: any) => x.check_id === `ftp_open:hw-${nas}`)).toBe(false);
    expect((await a.get(`devices/${nas}/threat-profile`)).body).toMatchObject({ score: 92, ignored: [{ rule_id: "ftp_open" }] });
    // Audited once: the second POST changed nothing.
    const [n] = await a.t.sql<{ n: number }[]>`select count(*)::int as n from audit_log where action = 'privacy.ignore'`;
    expect(n!.n).toBe(1);
  });

  it("ignores a rule everywhere, and the stored history keeps the scores as they were", async () => {
    const before = await score();
    expect((await post({ rule_id: "telnet_open" })).status).toBe(201);
    const after = await score();
    expect(after.score).toBe(Math.round(before.score + 22.5));
    expect(after.history[0].score).toBe(before.history[0].score);
    expect((await a.get("privacy-findings/ignores")).body.ignores).toEqual([
      { rule_id: "ftp_open", hardware_id: nas },
      { rule_id: "telnet_open", hardware_id: null },
    ]);
    // A snapshot taken with the ignores stores the ignored findings, flagged, and sends no alert for them.
    const alerts = (await a.alerts()).length;
    const out = await a.refresh();
    expect(out.score).toBe(after.score);
    expect((await a.alerts()).length).toBe(alerts);
  });

  it("stops ignoring with DELETE (204, also when absent)", async () => {
    expect((await del("rule_id=telnet_open")).status).toBe(204);
    expect((await del("rule_id=telnet_open")).status).toBe(204);
    expect((await del(`rule_id=ftp_open&hardware_id=${nas}`)).status).toBe(204);
    expect((await a.get("privacy-findings/ignores")).body).toEqual({ ignores: [] });
    expect((await score()).ignored).toEqual([]);
    const [n] = await a.t.sql<{ n: number }[]>`select count(*)::int as n from audit_log where action = 'privacy.unignore'`;
    expect(n!.n).toBe(2);
  });
});

describe("access", () => {
  it("lets a viewer read and refuses a viewer's and an editor's refresh", async () => {
    for (const path of [
      "network/privacy-score",
      "network/privacy-score/history",
      "network/threat-alerts",
      "network/attack-surface",
      "privacy-findings/ignores",
      `devices/${gw}/threat-profile`,
    ]) {
      expect((await a.get(path, a.viewer)).status, path).toBe(200);
      expect((await a.req("GET", path)).status, path).toBe(401);
    }
    expect((await a.req("POST", "network/privacy-score/refresh", a.viewer)).status).toBe(403);
    expect((await a.req("POST", "network/privacy-score/refresh", a.editor)).status).toBe(403);
  });
});

describe("with the analysis turned off", () => {
  it("answers empty shapes and takes no snapshot", async () => {
    const put = await a.req("PUT", "settings", a.admin, { privacy_analysis_enabled: false });
    expect(put.status).toBe(200);
    const [before] = await a.t.sql<{ n: number }[]>`select count(*)::int as n from privacy_snapshots`;
    expect(await a.refresh()).toEqual({
      enabled: false,
      snapshot_id: null,
      checked_at: null,
      score: null,
      grade: null,
      findings: 0,
      new_findings: 0,
    });
    const [after] = await a.t.sql<{ n: number }[]>`select count(*)::int as n from privacy_snapshots`;
    expect(after!.n).toBe(before!.n);
    expect((await a.get("network/privacy-score")).body).toMatchObject({
      enabled: false,
      score: null,
      deductions: [],
      checks: [],
      history: [],
    });
    expect((await a.get("network/threat-alerts")).body).toEqual({ enabled: false, status: "unknown", alerts: [], checked_at: null });
    expect((await a.get("network/attack-surface")).body).toEqual({ enabled: false, attack_surface: [] });
    expect((await a.get("network/privacy-score/history")).body).toEqual({ enabled: false, days: [] });
    expect((await a.get(`devices/${gw}/threat-profile`)).body).toMatchObject({ hardware_id: gw, score: null, deductions: [] });
    expect((await a.req("PUT", "settings", a.admin, { privacy_analysis_enabled: true })).status).toBe(200);
  });
});

describe("a device deleted after the snapshot", () => {
  it("leaves the reads until the next snapshot, with its ignores", async () => {
    expect((await a.req("POST", "privacy-findings/ignore", a.admin, { rule_id: "default_credentials", hardware_id: cam })).status).toBe(
      201,
    );
    expect((await a.req("POST", "privacy-findings/ignore", a.admin, { rule_id: "default_credentials", hardware_id: null })).status).toBe(
      201,
    );
    const before = (await a.get("network/privacy-score")).body;
    expect(before.ignored.map((d: any) => d.hardware_id)).toEqual([cam]);
    await a.t.sql`delete from hardware where id = ${cam}`;
    const after = (await a.get("network/privacy-score")).body;
    expect(after.score).toBe(before.score);
    expect(after.ignored).toEqual([]);
    expect(after.checks.some((c: any) => c.hardware_id === cam)).toBe(false);
    expect((await a.get("privacy-findings/ignores")).body.ignores).toEqual([{ rule_id: "default_credentials", hardware_id: null }]);
    expect((await a.get(`devices/${cam}/threat-profile`)).status).toBe(404);
    expect((await a.req("DELETE", "privacy-findings/ignore?rule_id=default_credentials", a.admin)).status).toBe(204);
    const unignored = (await a.get("network/privacy-score")).body;
    expect(unignored.score).toBe(before.score);
    expect(unignored.deductions.some((d: any) => d.hardware_id === cam)).toBe(false);
    expect((await a.get("network/threat-alerts")).body.alerts.some((x: any) => x.hardware_id === cam)).toBe(false);
  });
});
