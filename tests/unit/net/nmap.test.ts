// nmap's XML (a recorded run of nmap 7.93 -sT -sV -O against two loopback addresses) mapped to findings,
// and the whitelist of nmap arguments.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { lastProgressPercent, nmapArgv, parseNmapXml } from "../../../net/nmap.ts";
import { parseNmapArguments } from "../../../shared/domain/discovery/nmap-arguments.ts";

const fixture = readFileSync(new URL("../../fixtures/discovery/nmap-loopback.xml", import.meta.url), "utf8");

describe("parseNmapXml", () => {
  it("maps the recorded run: open ports with service and version, best OS guess, rtt", () => {
    const hosts = parseNmapXml(fixture);
    expect(hosts).toHaveLength(2);
    expect(hosts[0]).toEqual({
      ip_address: "127.0.3.7",
      mac_address: null,
      hostname: null,
      open_ports: [
        { port: 2222, protocol: "tcp", service: "ssh", banner: "OpenSSH 9.6p1 Ubuntu 3ubuntu13 (Ubuntu Linux; protocol 2.0)" },
        { port: 8080, protocol: "tcp", service: "http", banner: "nginx 1.24.0" },
      ],
      vendor: null,
      os_family: "Linux",
      os_vendor: "Linux",
      os_accuracy: 96,
      snmp_sys_name: null,
      snmp_sys_descr: null,
      rtt_ms: 0.07,
      sources: ["nmap"],
    });
    // Up (every port refused) with no open port and no OS match.
    expect(hosts[1]).toMatchObject({ ip_address: "127.0.3.8", open_ports: [], os_family: null, os_accuracy: null });
  });

  it("reads MAC, vendor and PTR name, and skips hosts that are down", () => {
    const xml = `<?xml version="1.0"?><nmaprun>
      <host><status state="up"/><address addr="192.168.1.20" addrtype="ipv4"/><address addr="B8:27:EB:01:02:03" addrtype="mac" vendor="Raspberry Pi Foundation"/>
        <hostnames><hostname name="user.lab" type="user"/><hostname name="Pi.Lab" type="PTR"/></hostnames>
        <ports><port protocol="tcp" portid="22"><state state="open"/><service name="ssh"/></port><port protocol="tcp" portid="23"><state state="filtered"/></port></ports></host>
      <host><status state="down"/><address addr="192.168.1.21" addrtype="ipv4"/></host>
    </nmaprun>`;
    const [pi, ...rest] = parseNmapXml(xml);
    expect(rest).toEqual([]);
    expect(pi).toMatchObject({
      ip_address: "192.168.1.20",
      mac_address: "b8:27:eb:01:02:03",
      vendor: "Raspberry Pi Foundation",
      hostname: "pi.lab",
    });
    expect(pi!.open_ports).toEqual([{ port: 22, protocol: "tcp", service: "ssh", banner: null }]);
  });

  it("an empty run has no hosts; progress lines give the last percentage", () => {
    expect(parseNmapXml(`<?xml version="1.0"?><nmaprun></nmaprun>`)).toEqual([]);
    expect(
      lastProgressPercent(
        `<taskprogress task="Connect Scan" time="1" percent="12.50" remaining="3"/>\n<taskprogress task="Connect Scan" percent="40.00"/>`,
      ),
    ).toBe(40);
    expect(lastProgressPercent("<host>")).toBeNull();
  });

  it("builds its argv with the addresses on stdin and the job's ports", () => {
    expect(nmapArgv({ args: ["-sT", "-T4"], ports: [22, 80] })).toEqual([
      "-oX",
      "-",
      "-iL",
      "-",
      "--stats-every",
      "2s",
      "-sT",
      "-T4",
      "-p",
      "T:22,80",
    ]);
    expect(nmapArgv({ args: ["--top-ports", "10"], ports: null })).not.toContain("-p");
  });
});

describe("parseNmapArguments", () => {
  it("accepts the whitelisted flags with valid values, in both spellings", () => {
    const r = parseNmapArguments("-sT -sV -O -T4 --top-ports 100 --max-retries=2 --host-timeout 30s -Pn -n -p22,80,8000-8100");
    expect(r).toEqual({
      ok: true,
      value: [
        "-sT",
        "-sV",
        "-O",
        "-T4",
        "--top-ports",
        "100",
        "--max-retries",
        "2",
        "--host-timeout",
        "30s",
        "-Pn",
        "-n",
        "-p",
        "22,80,8000-8100",
      ],
      selectsPorts: true,
    });
    expect(parseNmapArguments(null)).toEqual({ ok: true, value: [], selectsPorts: false });
    expect(parseNmapArguments("  -T3 ")).toEqual({ ok: true, value: ["-T3"], selectsPorts: false });
  });

  it.each([
    ["--script vuln", "'--script' is not allowed"],
    ["-oN /etc/passwd", "'-oN' is not allowed"],
    ["-iL /etc/hosts", "'-iL' is not allowed"],
    ["-sT 10.0.0.1", "'10.0.0.1' is not allowed"],
    ["-D RND:10", "'-D' is not allowed"],
    ["--top-ports", "--top-ports needs a valid value"],
    ["--top-ports 5000", "--top-ports needs a valid value"],
    ["--host-timeout 5x", "--host-timeout needs a valid value"],
    ["-p 0-80", "-p needs a valid value"],
    ["-p 80;id", "-p needs a valid value"],
    ["-T6", "'-T6' is not allowed"],
    ["-sT ".repeat(70), "at most 256 characters"],
  ])("refuses %j", (raw, message) => {
    const r = parseNmapArguments(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(message);
  });
});
