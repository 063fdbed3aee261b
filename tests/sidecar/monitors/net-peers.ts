// What the ssh, tls and smtp check tests share: certificates made by openssl (a test CA and leaves it
// signs, for any names and lifetime), a silent peer (accepts, never speaks: the timeout case, and a
// count of connections to show a refused check never connected), and the two monitor-policy refusals
// every check type must honour (a refused address, a name resolving to one).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { CheckType } from "../../../shared/domain/monitors/check-types.ts";
import { runCheck } from "../../../net/checks/run-check.ts";

export interface Pem {
  key: string;
  cert: string;
}

const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

function inTemp<T>(run: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "mon-net-cert-"));
  try {
    return run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const openssl = (args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });

/** A test CA (EC P-256), valid 30 days. */
export const testCa = (): Pem =>
  inTemp((dir) => {
    openssl([
      "req",
      "-x509",
      ...EC,
      "-keyout",
      join(dir, "k"),
      "-out",
      join(dir, "c"),
      "-days",
      "30",
      "-subj",
      "/CN=Monitor Test CA",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    return { key: readFileSync(join(dir, "k"), "utf8"), cert: readFileSync(join(dir, "c"), "utf8") };
  });

/** A leaf for `names` (DNS names and IPs) signed by `ca`, valid `days` days. */
export const issueCert = (ca: Pem, names: string[], days = 30): Pem =>
  inTemp((dir) => {
    const san = names.map((n) => (/^[\d.]+$/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(",");
    writeFileSync(join(dir, "ca.key"), ca.key);
    writeFileSync(join(dir, "ca.pem"), ca.cert);
    writeFileSync(join(dir, "ext"), `subjectAltName=${san}\nbasicConstraints=CA:FALSE\n`);
    openssl(["req", "-new", ...EC, "-keyout", join(dir, "k"), "-out", join(dir, "csr"), "-subj", `/CN=${names[0]}`]);
    openssl([
      "x509",
      "-req",
      "-in",
      join(dir, "csr"),
      "-CA",
      join(dir, "ca.pem"),
      "-CAkey",
      join(dir, "ca.key"),
      "-CAcreateserial",
      "-days",
      String(days),
      "-extfile",
      join(dir, "ext"),
      "-out",
      join(dir, "c"),
    ]);
    return { key: readFileSync(join(dir, "k"), "utf8"), cert: readFileSync(join(dir, "c"), "utf8") };
  });

export interface SilentPeer {
  port: number;
  accepted: number;
  close(): Promise<void>;
}

/** Accepts connections and never says anything (until closed). */
export async function startSilentPeer(): Promise<SilentPeer> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    peer.accepted++;
    sockets.add(s);
    s.on("error", () => {});
    s.on("close", () => sockets.delete(s));
  });
  const peer: SilentPeer = {
    port: 0,
    accepted: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  peer.port = (server.address() as { port: number }).port;
  return peer;
}

/**
 * The monitor policy's two refusals for a check of `checkType` at `port` on 127.0.0.1, once loopback is
 * refused: the address itself (judged before connecting) and a name resolving to it (the lookup); the
 * peer counts no connection.
 */
export async function expectPolicyRefusals(checkType: CheckType, config: Record<string, unknown>, peer: { accepted: number }) {
  const policy = { allow_private: true, allow_loopback: false };
  const before = peer.accepted;
  const direct = await runCheck({ check_type: checkType, host: "127.0.0.1", config }, { policy });
  expect(direct.up).toBe(false);
  expect(direct.msg).toMatch(/refused by the monitor policy.*loopback/);
  const rebound = await runCheck(
    { check_type: checkType, host: "rebind.example.test", config },
    { policy, resolve: async () => [{ address: "127.0.0.1", family: 4 }] },
  );
  expect(rebound.up).toBe(false);
  expect(rebound.msg).toMatch(/refused by the monitor policy: rebind\.example\.test resolves to a refused address/);
  expect(peer.accepted).toBe(before);
}

export const metric = (samples: { metric: string; value: number | null }[], name: string) => samples.find((s) => s.metric === name)?.value;
