// The privacy rules and the score, pure: each rule family on the ports, banners, titles and Server
// headers discovery records; the gateway weighting and escalation; one finding per rule and device;
// ignores; the grade boundaries; honest "unknown" checks where discovery cannot tell.
import { describe, expect, it } from "vitest";
import type { OpenPortRow } from "../../../shared/db/schema/discovery.ts";
import { analyse, gradeOf, summarize, withIgnores } from "../../../shared/verbs/privacy/evaluate.ts";
import { DEVICE_RULES } from "../../../shared/verbs/privacy/rules/index.ts";
import type { DeviceFacts } from "../../../shared/verbs/privacy/rules/types.ts";

const NOW = "2026-11-25T10:00:00.000Z";
let nextId = 1;
function device(ports: OpenPortRow[], over: Partial<DeviceFacts> = {}): DeviceFacts {
  const id = nextId++;
  return {
    hardware_id: id,
    name: `dev-${id}`,
    role: null,
    vendor: null,
    model: null,
    ip_address: `10.0.0.${id}`,
    ports,
    scanned: true,
    snmp_public: null,
    snmp_sys_descr: null,
    ...over,
  };
}
const tcp = (port: number, facts: Partial<OpenPortRow> = {}): OpenPortRow => ({ port, protocol: "tcp", ...facts });
const rulesOn = (d: DeviceFacts) => analyse([d], [], NOW).findings.map((f) => f.rule_id);
const findingOn = (d: DeviceFacts, rule: string) => analyse([d], [], NOW).findings.find((f) => f.rule_id === rule)!;

describe("device rules", () => {
  it("has the reference's points and severities for telnet, FTP, SMB and UPnP", () => {
    const byId = new Map(DEVICE_RULES.map((r) => [r.id, r]));
    expect([byId.get("telnet_open")!.points, byId.get("telnet_open")!.severity]).toEqual([15, "critical"]);
    expect([byId.get("ftp_open")!.points, byId.get("ftp_open")!.severity]).toEqual([8, "warning"]);
    expect([byId.get("smb_open")!.points, byId.get("smb_open")!.severity]).toEqual([8, "warning"]);
    expect([byId.get("upnp_exposed")!.points, byId.get("upnp_exposed")!.severity]).toEqual([10, "warning"]);
    for (const r of DEVICE_RULES) {
      expect(r.remediation.id, r.id).toMatch(/^[a-z0-9_]+$/);
      expect(r.remediation.text.length, r.id).toBeGreaterThan(20);
    }
    expect(new Set(DEVICE_RULES.map((r) => r.id)).size).toBe(DEVICE_RULES.length);
  });

  it("finds telnet by port and by nmap's service name on another port", () => {
    expect(rulesOn(device([tcp(23)]))).toEqual(["telnet_open"]);
    expect(rulesOn(device([tcp(8023, { service: "telnet" })]))).toEqual(["telnet_open"]);
    expect(findingOn(device([tcp(23, { banner: "BusyBox login:" })]), "telnet_open").evidence).toBe(
      `Telnet reachable at 23/tcp on 10.0.0.${nextId - 1} ("BusyBox login:")`,
    );
  });

  it("finds FTP by port 21 and by its 220 greeting elsewhere, SMB and NetBIOS", () => {
    expect(rulesOn(device([tcp(21)]))).toEqual(["ftp_open"]);
    expect(rulesOn(device([tcp(2121, { banner: "220 (vsFTPd 3.0.5)" })]))).toEqual(["ftp_open"]);
    // An SMTP greeting is a 220 too, but not FTP.
    expect(rulesOn(device([tcp(2525, { banner: "220 mail.lab ESMTP Postfix" })]))).toEqual([]);
    const smb = findingOn(device([tcp(139), tcp(445)]), "smb_open");
    expect(smb.ports).toEqual([139, 445]);
    expect(smb.points).toBe(8);
  });

  it("finds UPnP on 1900 and by a UPnP Server header on 5000, not on any port 5000", () => {
    expect(rulesOn(device([tcp(1900)]))).toEqual(["upnp_exposed"]);
    expect(
      rulesOn(device([tcp(5000, { service: "http", banner: "HTTP/1.1 200 OK", server: "Linux/5.10 UPnP/1.0 miniupnpd/2.3.4" })])),
    ).toEqual(["upnp_exposed"]);
    expect(rulesOn(device([tcp(5000, { service: "http", banner: "HTTP/1.1 200 OK", http_title: "Synology DiskStation" })]))).toEqual([]);
  });

  it("finds management and data interfaces", () => {
    expect(rulesOn(device([tcp(2375)]))).toEqual(["docker_api_exposed"]);
    expect(rulesOn(device([tcp(6443), tcp(10250)]))).toEqual(["kubernetes_api_exposed"]);
    expect(rulesOn(device([tcp(623)]))).toEqual(["ipmi_exposed"]);
    expect(rulesOn(device([tcp(1883)]))).toEqual(["mqtt_plaintext"]);
    expect(rulesOn(device([tcp(6379)]))).toEqual(["redis_exposed"]);
    expect(rulesOn(device([tcp(16379, { banner: "-NOAUTH Authentication required." })]))).toEqual(["redis_exposed"]);
    expect(rulesOn(device([tcp(5432), tcp(27017)]))).toEqual(["database_exposed"]);
    expect(findingOn(device([tcp(2375)]), "docker_api_exposed")).toMatchObject({ points: 20, severity: "critical" });
  });

  it("looks at HTTP and SSH as management only on gateways", () => {
    expect(rulesOn(device([tcp(80, { service: "http" }), tcp(22, { service: "ssh" })]))).toEqual([]);
    const gw = device(
      [
        tcp(80, { service: "http", http_title: "Router" }),
        tcp(22, { service: "ssh" }),
        tcp(443, { service: "https", tls: { subject: null, issuer: null, not_after: null, san: [] } }),
      ],
      { role: "Router" },
    );
    expect(rulesOn(gw).sort()).toEqual(["gateway_admin_http", "gateway_ssh_open"]);
  });

  it("recognises default-credential banners and titles and says why", () => {
    const dvr = findingOn(device([tcp(80, { service: "http", http_title: "NETSurveillance WEB" })]), "default_credentials");
    expect(dvr).toMatchObject({ points: 15, severity: "critical" });
    expect(dvr.evidence).toContain("XMeye/NETSurveillance DVR");
    expect(rulesOn(device([tcp(8080, { http_title: "Login (default password: admin)" })]))).toEqual(["default_credentials"]);
    expect(rulesOn(device([tcp(2222, { banner: "SSH-2.0-OpenSSH_7.9p1 Raspbian-10+deb10u2" })]))).toEqual(["default_credentials"]);
    expect(rulesOn(device([tcp(8080, { http_title: "Home Assistant" })]))).toEqual([]);
  });

  it("reports SNMP public only when a scan asked with it and the device answered", () => {
    expect(rulesOn(device([], { snmp_public: true, snmp_sys_descr: "RouterOS CCR2004" }))).toEqual(["snmp_public_community"]);
    expect(rulesOn(device([], { snmp_public: false }))).toEqual([]);
    expect(rulesOn(device([], { snmp_public: null }))).toEqual([]);
  });
});

describe("weighting, one finding per rule and device, and the score", () => {
  it("weights gateway findings x1.5 and escalates their severity one step", () => {
    const gw = device([tcp(23), tcp(21)], { role: "gateway" });
    const a = analyse([gw], [], NOW);
    expect(a.findings.map((f) => [f.rule_id, f.points, f.severity, f.gateway])).toEqual([
      ["telnet_open", 22.5, "critical", true],
      ["ftp_open", 12, "critical", true],
    ]);
    expect(a.score).toBe(Math.round(100 - 34.5));
    const fw = analyse([device([tcp(22)], { role: "firewall" })], [], NOW).findings[0]!;
    expect([fw.rule_id, fw.points, fw.severity]).toEqual(["gateway_ssh_open", 6, "warning"]);
  });

  it("gives one finding per rule and device however many ports hit it", () => {
    const d = device([tcp(23), tcp(2323), tcp(8023, { service: "telnet" })]);
    const a = analyse([d], [], NOW);
    expect(a.findings).toHaveLength(1);
    expect(a.findings[0]!.ports).toEqual([23, 2323, 8023]);
    expect(a.findings[0]!.check_id).toBe(`telnet_open:hw-${d.hardware_id}`);
    expect(a.score).toBe(85);
  });

  it("bounds the score to 0..100 and grades at 90, 80, 70 and 60", () => {
    const many = device(
      [2375, 23, 21, 445, 1900, 6443, 623, 1883, 6379, 5432, 3389, 5900].map((p) => tcp(p)),
      { role: "gateway" },
    );
    expect(analyse([many], [], NOW).score).toBe(0);
    expect(analyse([], [], NOW).score).toBe(100);
    expect([90, 89, 80, 79, 70, 69, 60, 59, 0].map(gradeOf)).toEqual(["A", "B", "B", "C", "C", "D", "D", "F", "F"]);
    expect(
      summarize([
        { points: 8, severity: "warning", ignored: false },
        { points: 15, severity: "critical", ignored: true },
      ]),
    ).toEqual({ score: 92, grade: "A", critical_count: 0, warning_count: 1, info_count: 0 });
  });

  it("leaves ignored findings out of the score and counts, per rule or per rule and device", () => {
    const a = device([tcp(23), tcp(21)]);
    const b = device([tcp(23)]);
    const all = analyse([a, b], [], NOW);
    expect(all.score).toBe(100 - 15 - 8 - 15);
    const perRule = analyse([a, b], [{ rule_id: "telnet_open", hardware_id: null }], NOW);
    expect([perRule.score, perRule.critical_count, perRule.warning_count]).toEqual([92, 0, 1]);
    expect(perRule.findings.filter((f) => f.ignored).map((f) => f.hardware_id)).toEqual([a.hardware_id, b.hardware_id]);
    const perDevice = analyse([a, b], [{ rule_id: "telnet_open", hardware_id: b.hardware_id }], NOW);
    expect(perDevice.score).toBe(100 - 15 - 8);
    // Ignores applied later to a stored analysis give the same answer as at analysis time.
    expect(withIgnores(all, [{ rule_id: "telnet_open", hardware_id: b.hardware_id }]).score).toBe(perDevice.score);
  });

  it("keeps a finding's first detection across snapshots", () => {
    const d = device([tcp(23)]);
    const first = analyse([d], [], "2026-11-01T00:00:00.000Z");
    const later = analyse([d], [], NOW, new Map(first.checks.map((c) => [c.check_id, c.detected_at])));
    expect(later.findings[0]!.detected_at).toBe("2026-11-01T00:00:00.000Z");
  });
});

describe("checks", () => {
  it("lists each finding, each quiet rule as ok, and the network checks", () => {
    const d = device([tcp(23)]);
    const { checks } = analyse([d], [], NOW);
    expect(checks.find((c) => c.check_id === `telnet_open:hw-${d.hardware_id}`)).toMatchObject({
      status: "critical",
      hardware_id: d.hardware_id,
    });
    expect(checks.find((c) => c.check_id === "ftp_open")).toMatchObject({ status: "ok", hardware_id: null });
    expect(checks.find((c) => c.check_id === "dns_filtering")!.status).toBe("unknown");
    expect(checks.find((c) => c.check_id === "snmp_coverage")!.status).toBe("unknown");
    expect(checks.find((c) => c.check_id === "port_scan_coverage")).toMatchObject({ status: "ok" });
  });

  it("says unknown, not ok, when no device has been port-scanned", () => {
    const { checks, score } = analyse([device([], { scanned: false })], [], NOW);
    expect(score).toBe(100);
    expect(checks.find((c) => c.check_id === "telnet_open")!.status).toBe("unknown");
    expect(checks.find((c) => c.check_id === "port_scan_coverage")!.status).toBe("unknown");
  });

  it("says DNS filtering is ok only when a filtering resolver is seen", () => {
    const pihole = device([tcp(53), tcp(80, { service: "http", http_title: "Pi-hole Admin Console" })]);
    expect(analyse([pihole], [], NOW).checks.find((c) => c.check_id === "dns_filtering")!.status).toBe("ok");
  });
});
