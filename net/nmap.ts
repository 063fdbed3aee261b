// nmap as an optional scan source: spawned with the job's addresses on stdin (-iL -, so ranges nmap's
// own syntax lacks need no translation and nothing reaches its command line but checked flags), its XML
// report read from stdout (-oX -) and mapped to HostFindings. Killed when the signal aborts.
import { spawn } from "node:child_process";
import { XMLParser } from "fast-xml-parser";
import { emptyFinding, type HostFinding, type OpenPort } from "../shared/domain/discovery/finding.ts";

type Node = Record<string, unknown>;

const ARRAYS = new Set(["host", "address", "hostname", "port", "osmatch", "osclass", "taskprogress"]);
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => ARRAYS.has(name) });

const list = (v: unknown): Node[] => (Array.isArray(v) ? (v as Node[]) : []);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : typeof v === "number" ? String(v) : null);
const num = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && v !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

function portOf(p: Node): OpenPort | null {
  const state = str((p.state as Node | undefined)?.state);
  const port = num(p.portid);
  if (state !== "open" || port === null) return null;
  const service = (p.service as Node | undefined) ?? {};
  const banner = [str(service.product), str(service.version), str(service.extrainfo) && `(${str(service.extrainfo)})`]
    .filter(Boolean)
    .join(" ");
  // "unknown" is no name; a service nmap found inside TLS is "ssl/<name>", and "https" for http.
  let name = str(service.name);
  if (name === "unknown") name = null;
  if (name && service.tunnel === "ssl") name = name === "http" ? "https" : `ssl/${name}`;
  return { port, protocol: str(p.protocol) ?? "tcp", service: name, banner: banner || null };
}

function hostOf(h: Node): HostFinding | null {
  if (str((h.status as Node | undefined)?.state) !== "up") return null;
  const addresses = list(h.address);
  const ip = addresses.find((a) => a.addrtype === "ipv4");
  const ipAddress = str(ip?.addr);
  if (!ipAddress) return null;
  const f = emptyFinding(ipAddress);
  const mac = addresses.find((a) => a.addrtype === "mac");
  f.mac_address = str(mac?.addr)?.toLowerCase() ?? null;
  f.vendor = str(mac?.vendor);
  const names = list((h.hostnames as Node | undefined)?.hostname);
  f.hostname = str((names.find((n) => n.type === "PTR") ?? names[0])?.name)?.toLowerCase() ?? null;
  f.open_ports = list((h.ports as Node | undefined)?.port)
    .map(portOf)
    .filter((p): p is OpenPort => p !== null);
  const best = list((h.os as Node | undefined)?.osmatch).sort((a, b) => (num(b.accuracy) ?? 0) - (num(a.accuracy) ?? 0))[0];
  if (best) {
    const cls = list(best.osclass)[0];
    f.os_family = str(cls?.osfamily) ?? str(best.name);
    f.os_vendor = str(cls?.vendor);
    f.os_accuracy = num(best.accuracy);
  }
  const srtt = num((h.times as Node | undefined)?.srtt);
  // nmap reports srtt in microseconds.
  f.rtt_ms = srtt === null ? null : Math.round(srtt / 10) / 100;
  f.sources = ["nmap"];
  return f;
}

/** Every host nmap reported up, with its open ports, names, MAC/vendor and best OS guess. */
export function parseNmapXml(xml: string): HostFinding[] {
  const doc = parser.parse(xml) as Node;
  const run = (doc.nmaprun as Node | undefined) ?? {};
  return list(run.host)
    .map(hostOf)
    .filter((f): f is HostFinding => f !== null);
}

/** The last completion percentage in a chunk of nmap's XML output (`<taskprogress percent="42.10"`). */
export function lastProgressPercent(chunk: string): number | null {
  let last: number | null = null;
  for (const m of chunk.matchAll(/<taskprogress [^>]*percent="([\d.]+)"/g)) last = Number(m[1]);
  return last;
}

export interface NmapRun {
  addresses: Iterable<string>;
  /** Checked flags (parseNmapArguments). */
  args: string[];
  /** Added as -p unless the args select ports themselves. */
  ports: number[] | null;
  signal: AbortSignal;
  timeoutMs: number;
  command?: string;
  onProgress?(percent: number): void;
}

export class NmapError extends Error {
  readonly reason: "not_installed" | "failed" | "timeout" | "aborted";
  constructor(reason: NmapError["reason"], message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The argument list of one run (exported for the tests). */
export function nmapArgv(run: Pick<NmapRun, "args" | "ports">): string[] {
  const argv = ["-oX", "-", "-iL", "-", "--stats-every", "2s", ...run.args];
  if (run.ports?.length) argv.push("-p", `T:${run.ports.join(",")}`);
  return argv;
}

export function runNmap(run: NmapRun): Promise<HostFinding[]> {
  const command = run.command ?? "nmap";
  return new Promise((resolve, reject) => {
    if (run.signal.aborted) return reject(new NmapError("aborted", "nmap was not started: the scan was cancelled"));
    const child = spawn(command, nmapArgv(run), {
      stdio: ["pipe", "pipe", "pipe"],
      env: { LC_ALL: "C", PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    let stdout = "";
    let stderr = "";
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal.removeEventListener("abort", onAbort);
      fn();
    };
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    };
    const onAbort = () => {
      kill();
      settle(() => reject(new NmapError("aborted", "nmap was stopped: the scan was cancelled")));
    };
    const timer = setTimeout(() => {
      kill();
      settle(() => reject(new NmapError("timeout", `nmap did not finish in ${Math.round(run.timeoutMs / 1000)} s`)));
    }, run.timeoutMs);
    run.signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
      const pct = lastProgressPercent(chunk);
      if (pct !== null) run.onProgress?.(pct);
    });
    child.stderr.on("data", (c: Buffer) => void (stderr.length < 8192 && (stderr += c.toString())));
    child.stdin.on("error", () => {});
    child.on("error", (e: NodeJS.ErrnoException) =>
      settle(() =>
        reject(
          e.code === "ENOENT"
            ? new NmapError("not_installed", `nmap is not installed (${command} not found)`)
            : new NmapError("failed", `nmap cannot run: ${e.message}`),
        ),
      ),
    );
    child.on("close", (code) => {
      if (code !== 0)
        return settle(() => reject(new NmapError("failed", `nmap exited with code ${code}: ${stderr.trim().split("\n")[0] ?? ""}`)));
      try {
        const hosts = parseNmapXml(stdout);
        settle(() => resolve(hosts));
      } catch (e) {
        settle(() => reject(new NmapError("failed", `nmap's XML could not be read: ${(e as Error).message}`)));
      }
    });
    for (const ip of run.addresses) child.stdin.write(`${ip}\n`);
    child.stdin.end();
  });
}
