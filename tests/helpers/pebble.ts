// A real Pebble ACME CA (with pebble-challtestsrv as its DNS) for the ACME tests (docs/acme.md).
// Pebble listens on 127.0.0.81 with a throw-away TLS certificate made here by openssl; challtestsrv
// answers DNS on 127.0.0.82 with `answerIp` for every name, so http-01 validation reaches the test's
// own server on answerIp:httpPort. The addresses and ports are parameters (each test file its own);
// `dnsServer` points Pebble at another DNS server (a real BIND) instead of starting challtestsrv. Both
// are stopped by close(); every wait is bounded.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";

const DEFAULT_PEBBLE_HOST = "127.0.0.81";
export const CHALLTESTSRV_HOST = "127.0.0.82";

export function pebbleInstalled(): boolean {
  try {
    execFileSync("sh", ["-c", "command -v pebble && command -v pebble-challtestsrv && command -v openssl"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export interface Pebble {
  directoryUrl: string;
  /** host:port of challtestsrv's management API (POST /set-txt, /clear-txt). */
  challtestsrvManagement: string;
  /** The PEM to trust for Pebble's own TLS (SVC_ACME_CA_FILE). */
  caFile: string;
  /** The PEM of the intermediate that signs the certificates Pebble issues. */
  intermediatePem(): Promise<string>;
  close(): Promise<void>;
}

export interface PebbleOptions {
  answerIp: string;
  httpPort: number;
  port?: number;
  /** Pebble's own address (default 127.0.0.81). */
  host?: string;
  /** challtestsrv's address and ports (default 127.0.0.82, DNS 8053, management 8055). */
  challtestsrv?: { host: string; dnsPort?: number; managementPort?: number };
  /** A DNS server (host:port) Pebble resolves through instead of challtestsrv, which is then not started. */
  dnsServer?: string;
}

export async function startPebble(opts: PebbleOptions): Promise<Pebble> {
  const port = opts.port ?? 14000;
  const PEBBLE_HOST = opts.host ?? DEFAULT_PEBBLE_HOST;
  const cts = {
    host: opts.challtestsrv?.host ?? CHALLTESTSRV_HOST,
    dns: opts.challtestsrv?.dnsPort ?? 8053,
    management: opts.challtestsrv?.managementPort ?? 8055,
  };
  const dir = mkdtempSync(join(tmpdir(), "pebble-"));
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=pebble",
      "-addext",
      `subjectAltName=IP:${PEBBLE_HOST}`,
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  const config = join(dir, "pebble.json");
  writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `${PEBBLE_HOST}:${port}`,
        managementListenAddress: `${PEBBLE_HOST}:${port + 1}`,
        certificate: cert,
        privateKey: key,
        httpPort: opts.httpPort,
        tlsPort: 5001,
        ocspResponderURL: "",
        externalAccountBindingRequired: false,
      },
    }),
  );
  const children: ChildProcess[] = [];
  const env = { ...process.env, PEBBLE_VA_NOSLEEP: "1", PEBBLE_WFE_NONCEREJECT: "0", PEBBLE_AUTHZREUSE: "0" };
  if (!opts.dnsServer)
    children.push(
      spawn(
        "pebble-challtestsrv",
        [
          "-defaultIPv4",
          opts.answerIp,
          "-defaultIPv6",
          "",
          "-dns01",
          `${cts.host}:${cts.dns}`,
          "-http01",
          "",
          "-https01",
          "",
          "-tlsalpn01",
          "",
          "-management",
          `${cts.host}:${cts.management}`,
        ],
        { stdio: "ignore" },
      ),
    );
  children.push(spawn("pebble", ["-config", config, "-dnsserver", opts.dnsServer ?? `${cts.host}:${cts.dns}`], { env, stdio: "ignore" }));
  const agent = new Agent({ ca: execFileSync("cat", [cert]) });
  const get = (url: string) =>
    new Promise<string>((resolve, reject) => {
      const req = request(url, { agent, timeout: 2000 }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${url}: ${res.statusCode}`))));
      });
      req.on("error", reject);
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.end();
    });
  const close = async () => {
    for (const child of children) child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  };
  const directoryUrl = `https://${PEBBLE_HOST}:${port}/dir`;
  const challtestsrvUp = () =>
    opts.dnsServer ? Promise.resolve() : fetch(`http://${cts.host}:${cts.management}/`, { signal: AbortSignal.timeout(2000) });
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await get(directoryUrl);
      await challtestsrvUp();
      break;
    } catch (err) {
      if (Date.now() > deadline) {
        await close();
        throw new Error(`pebble did not answer on ${directoryUrl} within 15 s: ${String(err)}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    directoryUrl,
    challtestsrvManagement: `${cts.host}:${cts.management}`,
    caFile: cert,
    intermediatePem: () => get(`https://${PEBBLE_HOST}:${port + 1}/intermediates/0`),
    close,
  };
}
