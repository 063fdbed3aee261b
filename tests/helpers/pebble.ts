// A real Pebble ACME CA (with pebble-challtestsrv as its DNS) for the ACME tests (docs/acme.md).
// Pebble listens on 127.0.0.81 with a throw-away TLS certificate made here by openssl; challtestsrv
// answers DNS on 127.0.0.82 with `answerIp` for every name, so http-01 validation reaches the test's
// own server on answerIp:httpPort. Both are stopped by close(); every wait is bounded.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const PEBBLE_HOST = "127.0.0.81";
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
  /** The PEM to trust for Pebble's own TLS (SVC_ACME_CA_FILE). */
  caFile: string;
  /** The PEM of the intermediate that signs the certificates Pebble issues. */
  intermediatePem(): Promise<string>;
  close(): Promise<void>;
}

export async function startPebble(opts: { answerIp: string; httpPort: number; port?: number }): Promise<Pebble> {
  const port = opts.port ?? 14000;
  const dir = mkdtempSync(join(tmpdir(), "pebble-"));
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", "/CN=pebble", "-addext", `subjectAltName=IP:${PEBBLE_HOST}`, "-keyout", key, "-out", cert], { stdio: "ignore" });
  const config = join(dir, "pebble.json");
  writeFileSync(config, JSON.stringify({ pebble: { listenAddress: `${PEBBLE_HOST}:${port}`, managementListenAddress: `${PEBBLE_HOST}:${port + 1}`, certificate: cert, privateKey: key, httpPort: opts.httpPort, tlsPort: 5001, ocspResponderURL: "", externalAccountBindingRequired: false } }));
  const children: ChildProcess[] = [];
  const env = { ...process.env, PEBBLE_VA_NOSLEEP: "1", PEBBLE_WFE_NONCEREJECT: "0", PEBBLE_AUTHZREUSE: "0" };
  children.push(spawn("pebble-challtestsrv", ["-defaultIPv4", opts.answerIp, "-defaultIPv6", "", "-dns01", `${CHALLTESTSRV_HOST}:8053`, "-http01", "", "-https01", "", "-tlsalpn01", "", "-management", `${CHALLTESTSRV_HOST}:8055`], { stdio: "ignore" }));
  children.push(spawn("pebble", ["-config", config, "-dnsserver", `${CHALLTESTSRV_HOST}:8053`], { env, stdio: "ignore" }));
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
  const challtestsrvUp = () => fetch(`http://${CHALLTESTSRV_HOST}:8055/`, { signal: AbortSignal.timeout(2000) });
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
  return { directoryUrl, caFile: cert, intermediatePem: () => get(`https://${PEBBLE_HOST}:${port + 1}/intermediates/0`), close };
}
