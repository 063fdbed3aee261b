// A real BIND 9 (Debian's bind9 package) as the RFC 2136 server of the dns-01 tests: `named -g` with a
// configuration written to a temp dir, listening on one loopback address and a high port (TCP and UDP),
// primary for the given zones, each zone updatable by the TSIG keys listed (or by none). Stopped by
// close(); the start is bounded.
//
// named listens only on addresses its interface scan finds, and a bare 127.0.0.x other than 127.0.0.1
// is on no interface (Linux answers the whole 127/8 on lo, but named does not bind what it does not
// see). So the test's address is added to lo as a /32 alias for the run (needs CAP_NET_ADMIN; removed
// by close() when we added it); that changes no route, 127/8 is already local.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const NAMED = "/usr/sbin/named";

const hasAlias = (host: string) =>
  execFileSync("ip", ["-4", "-o", "addr", "show", "dev", "lo"], { encoding: "utf8" }).includes(`inet ${host}/`);
const aliases = new Set<string>();

/** Puts `host` on lo unless it is there; true when this call added it (removeAlias takes it away). */
function addAlias(host: string): boolean {
  if (hasAlias(host)) return false;
  execFileSync("ip", ["addr", "add", `${host}/32`, "dev", "lo"], { stdio: "ignore" });
  aliases.add(host);
  return true;
}

function removeAlias(host: string): void {
  if (!aliases.delete(host)) return;
  try {
    execFileSync("ip", ["addr", "del", `${host}/32`, "dev", "lo"], { stdio: "ignore" });
  } catch {
    // already gone
  }
}

/**
 * Why BIND cannot be used here (null when it can): named missing, or `host` not on lo and not addable
 * (probed by adding and removing it at once, so a file whose tests never start leaves nothing behind).
 */
export function bindUnusable(host: string): string | null {
  try {
    execFileSync("sh", ["-c", `command -v named || test -x ${NAMED}`], { stdio: "ignore" });
  } catch {
    return "named (bind9) is not installed";
  }
  try {
    if (addAlias(host)) removeAlias(host);
    return null;
  } catch {
    return `${host} is not on lo and cannot be added (ip addr add needs CAP_NET_ADMIN)`;
  }
}

export interface BindKey {
  name: string;
  algorithm: string;
  /** base64 */
  secret: string;
}

export interface BindZone {
  name: string;
  /** Key names allowed to update the zone; empty: updates refused. */
  updaters: string[];
}

export interface Bind {
  server: string;
  port: number;
  close(): Promise<void>;
}

export async function startBind(opts: { host: string; port: number; keys: BindKey[]; zones: BindZone[] }): Promise<Bind> {
  addAlias(opts.host);
  const dir = mkdtempSync(join(tmpdir(), "named-"));
  const keys = opts.keys.map((k) => `key "${k.name}" { algorithm ${k.algorithm}; secret "${k.secret}"; };`).join("\n");
  const zones = opts.zones
    .map((z) => {
      writeFileSync(
        join(dir, `${z.name}.zone`),
        `$TTL 60\n@ IN SOA ns1.${z.name}. hostmaster.${z.name}. 1 60 60 600 60\n@ IN NS ns1.${z.name}.\nns1 IN A ${opts.host}\n`,
      );
      const update = z.updaters.length ? z.updaters.map((k) => `key "${k}";`).join(" ") : "none;";
      return `zone "${z.name}" { type primary; file "${join(dir, `${z.name}.zone`)}"; allow-update { ${update} }; };`;
    })
    .join("\n");
  const conf = join(dir, "named.conf");
  writeFileSync(
    conf,
    `options {
  directory "${dir}";
  pid-file "${join(dir, "named.pid")}";
  session-keyfile "${join(dir, "session.key")}";
  managed-keys-directory "${dir}";
  listen-on port ${opts.port} { ${opts.host}; };
  listen-on-v6 { none; };
  recursion no;
  dnssec-validation no;
  notify no;
  allow-transfer { none; };
};
controls { };
${keys}
${zones}
`,
  );
  let output = "";
  const child: ChildProcess = spawn(NAMED, ["-g", "-n", "1", "-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
  child.stderr?.on("data", (c) => (output = (output + String(c)).slice(-8000)));
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    }
    rmSync(dir, { recursive: true, force: true });
    removeAlias(opts.host);
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = connect({ host: opts.host, port: opts.port });
      s.once("connect", () => (s.destroy(), resolve(true)));
      s.once("error", () => resolve(false));
    });
    if (up && output.includes("running")) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`named did not start on ${opts.host}:${opts.port} within 15 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { server: opts.host, port: opts.port, close };
}
