// The agent's command line and the installer's agent.toml (the flat `key = "value"` subset it writes).
import { describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "../../../agent/cli.ts";
import { ConfigError, parseConfig } from "../../../agent/config.ts";
import { handshakeKeys } from "../../../agent/trust.ts";
import type { ServerTrust } from "../../../agent/state.ts";

const PK = "ab".repeat(32);
const INSTALLED = [
  "# Written by install-agent.sh; a rerun rewrites it, keeping log_level, spool_cap_bytes and name.",
  'server_url = "http://10.0.0.5:8080"',
  `server_static_pk = "${PK}"`,
  'state_dir = "/var/lib/svc-agent"',
  'log_level = "info"',
  "spool_cap_bytes = 67108864",
  "",
].join("\n");

describe("agent.toml", () => {
  it("reads what install-agent.sh writes", () => {
    expect(parseConfig(INSTALLED)).toEqual({
      server_url: "http://10.0.0.5:8080",
      server_static_pk: PK,
      state_dir: "/var/lib/svc-agent",
      log_level: "info",
      spool_cap_bytes: 67108864,
    });
  });

  it("takes comments, blank lines, single quotes and escapes", () => {
    expect(parseConfig('# agent\n\nname = \'web-1\' # trailing\nstate_dir = "/var/lib/a\\"b"\n')).toEqual({
      name: "web-1",
      state_dir: '/var/lib/a"b',
    });
  });

  it("refuses unknown keys, wrong types and other shapes, naming the line", () => {
    expect(() => parseConfig('server_url = "x"\nserver_urll = "y"')).toThrow(new ConfigError("line 2: unknown key server_urll"));
    expect(() => parseConfig('spool_cap_bytes = "big"')).toThrow(/line 1: spool_cap_bytes takes a number/);
    expect(() => parseConfig("log_level = 3")).toThrow(/takes a quoted string/);
    expect(() => parseConfig("[agent]")).toThrow(/line 1: expected key = "value"/);
  });
});

describe("the command line", () => {
  it("--server with the defaults", () => {
    expect(parseArgs(["--server", "http://127.0.0.1:8080/"])).toEqual({
      mode: "run",
      serverUrl: "http://127.0.0.1:8080",
      stateDir: "./.agent-state",
      serverKey: undefined,
      name: undefined,
      logLevel: "info",
      spoolCapBytes: undefined,
    });
  });

  it("the installer's enroll --config, with flags over the file", () => {
    const read = () => INSTALLED;
    expect(parseArgs(["enroll", "--config", "/etc/svc-agent/agent.toml", "--log-level=debug"], read)).toEqual({
      mode: "enroll",
      serverUrl: "http://10.0.0.5:8080",
      stateDir: "/var/lib/svc-agent",
      serverKey: PK,
      name: undefined,
      logLevel: "debug",
      spoolCapBytes: 67108864,
    });
  });

  it("refuses what it cannot use", () => {
    expect(() => parseArgs([])).toThrow(UsageError);
    expect(() => parseArgs(["--server", "ftp://x"])).toThrow(/not an http\(s\) URL/);
    expect(() => parseArgs(["--server", "http://x", "--server-key", "XYZ"])).toThrow(/64 lowercase hex/);
    expect(() => parseArgs(["--server", "http://x", "--log-level", "loud"])).toThrow(/--log-level is one of/);
    expect(() => parseArgs(["--server", "http://x", "--frobnicate"])).toThrow(/unknown argument/);
    expect(() => parseArgs(["--server"])).toThrow(/needs a value/);
    expect(() =>
      parseArgs(["--config", "/nope"], () => {
        throw new Error("ENOENT");
      }),
    ).toThrow(/cannot read \/nope/);
  });

  it("the update link deadline, from the file or the flag", () => {
    const read = () => `${INSTALLED}update_link_deadline_seconds = 30\n`;
    expect(parseArgs(["run", "--config", "/etc/svc-agent/agent.toml"], read).updateLinkDeadlineS).toBe(30);
    expect(parseArgs(["run", "--config", "/c", "--update-link-deadline-seconds", "5"], read).updateLinkDeadlineS).toBe(5);
    for (const bad of ["0", "1.5", "86401", "soon"])
      expect(() => parseArgs(["--server", "http://x", "--update-link-deadline-seconds", bad])).toThrow(/an integer from 1 to 86400/);
  });
});

describe("server key rotation", () => {
  const trust = (over: Partial<ServerTrust>): ServerTrust => ({
    url: "http://x",
    current_pk: PK,
    successor_pk: null,
    successor_expiry: null,
    agent_id: 1,
    status: "active",
    ...over,
  });
  const NEXT = "cd".repeat(32);
  const now = new Date("2026-01-01T00:00:00Z");

  it("tries the successor first, the current key until the expiry, then only the successor", () => {
    expect(handshakeKeys(trust({}), now)).toEqual([PK]);
    expect(handshakeKeys(trust({ successor_pk: NEXT, successor_expiry: "2026-01-08T00:00:00Z" }), now)).toEqual([NEXT, PK]);
    expect(handshakeKeys(trust({ successor_pk: NEXT, successor_expiry: "2025-12-31T00:00:00Z" }), now)).toEqual([NEXT]);
  });
});
